"""Linked teasers of other stories leave the page extraction unless the page is made of them."""

from __future__ import annotations

from pathlib import Path

from lxml.html import document_fromstring

from insomnia_web.extract import extract_html
from insomnia_web.extract.boilerplate import prune_boilerplate
from insomnia_web.extract.serialize import serialize

PAGES = Path(__file__).parent / "pages"


def _page_text(name: str) -> str:
    root = document_fromstring((PAGES / name).read_text(encoding="utf-8"))
    return serialize(prune_boilerplate(root, "de"))


def test_linked_teasers_beside_the_text_leave_the_page_extraction() -> None:
    """Previews of other stories in a column beside the text are left out of the page text."""
    text = _page_text("teasers-de.html")
    assert "rund 40 Millionen Euro" in text
    assert "sagte die Vorsitzende nach der Sitzung" in text
    assert "Parkgebühren steigen zum Jahresbeginn" not in text
    assert "Nachtbusse fahren wieder im Takt" not in text


def test_a_story_lead_named_teaser_stays() -> None:
    """A lead paragraph that the CMS calls a teaser, but that links nowhere, is the story's own."""
    assert "die Stadt baut ihr Radnetz aus" in _page_text("teasers-de.html")


def test_a_list_of_teasers_is_the_content() -> None:
    """On an overview page the teasers are what the page holds, and every one stays."""
    text = extract_html((PAGES / "teasers-listing-de.html").read_text(encoding="utf-8")).text
    for title in ("Neue Radwege für die Stadt", "Nachtbusse fahren wieder im Takt"):
        assert title in text
    assert "Stände vor dem Dom" in text
