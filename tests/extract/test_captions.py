"""Photo captions and credits are left out of a page's text, as they are out of an article's."""

from __future__ import annotations

from pathlib import Path

from insomnia_web.extract import extract_html

PAGES = Path(__file__).parent / "pages"


def test_card_photo_credits_go_from_a_listing() -> None:
    """A news feed keeps each card's headline and blurb and loses the credit under its photo."""
    text = extract_html((PAGES / "captions-listing.html").read_text(encoding="utf-8")).text
    assert "Port authority approves the new ferry terminal" in text
    assert "gains a children's floor" in text
    assert "Ana Ruiz via Harbour Images" not in text
    assert "Li Wen / Staff" not in text
