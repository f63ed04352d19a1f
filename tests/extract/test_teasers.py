"""Linked teasers of other stories go beside an article and stay on a page made of them."""

from __future__ import annotations

from pathlib import Path

from insomnia_web.extract import extract_html

PAGES = Path(__file__).parent / "pages"


def _text(name: str) -> str:
    return extract_html((PAGES / name).read_text(encoding="utf-8")).text


def test_linked_teasers_beside_an_article_go() -> None:
    """Previews of other stories in a column beside the article are left out."""
    text = _text("teasers-de.html")
    assert "rund 40 Millionen Euro" in text
    assert "sagte die Vorsitzende nach der Sitzung" in text
    assert "Parkgebühren steigen zum Jahresbeginn" not in text
    assert "Nachtbusse fahren wieder im Takt" not in text


def test_a_story_lead_named_teaser_stays() -> None:
    """A lead paragraph that the CMS calls a teaser, but that links nowhere, is the story's own."""
    assert "die Stadt baut ihr Radnetz aus" in _text("teasers-de.html")


def test_a_list_of_teasers_is_the_content() -> None:
    """On an overview page the teasers are what the page holds, and every one stays."""
    text = _text("teasers-listing-de.html")
    for title in ("Neue Radwege für die Stadt", "Nachtbusse fahren wieder im Takt"):
        assert title in text
    assert "Stände vor dem Dom" in text
