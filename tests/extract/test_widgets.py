"""Blog widgets that their markup names (share and like bars, author boxes) go."""

from __future__ import annotations

from pathlib import Path

from insomnia_web.extract import extract_html

PAGES = Path(__file__).parent / "pages"


def test_named_widgets_around_a_post_go() -> None:
    """The post's paragraphs stay; its share, like and author widgets and the block the page
    leaves out of print go."""
    text = extract_html((PAGES / "widgets-de.html").read_text(encoding="utf-8")).text
    assert "in wenigen Wochen in feine Erde" in text
    assert "solange die Kiste feucht und dunkel bleibt" in text
    for chrome in (
        "Jetzt teilen",
        "Gefällt mir",
        "gärtnert seit zwanzig Jahren",
        "Hochbeet anlegen",
    ):
        assert chrome not in text
