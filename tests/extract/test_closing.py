"""A story's closing calls to subscribe or follow go; prose that mentions them stays."""

from __future__ import annotations

from insomnia_web.extract import extract_html
from insomnia_web.extract.closing import drop_closing_lines, drop_trailing_heading

_STORY = (
    "<p>The council approved twelve new cycle routes between the districts on Tuesday, at a "
    "cost of about forty million euros over three years.</p>"
    "<p>The first sections will run along the ring road and the river bank, where cyclists "
    "and walkers now share a narrow path, and residents had asked for separate lanes.</p>"
    "<p>The cycling club welcomed the decision but asked the city to build faster, since "
    "people who ride to work today need safe routes now and not in ten years.</p>"
)


def _page(lang: str, closing: str) -> str:
    return (
        f'<html lang="{lang}"><head><title>Cycle routes</title></head><body><article>'
        f"<h1>New cycle routes</h1>{_STORY}<p>{closing}</p></article></body></html>"
    )


def test_a_newsletter_prompt_after_the_story_goes() -> None:
    """A short line asking the reader to sign up for the newsletter leaves the story's end."""
    text = extract_html(_page("en", "Sign up for our free newsletter here.")).text
    assert "safe routes now" in text
    assert "newsletter" not in text


def test_a_prompt_goes_in_the_page_language() -> None:
    """A German follow prompt is read with the German phrases."""
    text = extract_html(_page("de", "Folgen Sie uns auf Instagram und Facebook!")).text
    assert "safe routes now" in text
    assert "Instagram" not in text


def test_prose_that_mentions_a_newsletter_stays() -> None:
    """A long sentence that names a newsletter is the story's text, not a prompt."""
    line = (
        "The club said its members had read about the plan in the council's newsletter long "
        "before the vote, and many of them wrote to their councillors asking for routes "
        "along the river and the ring road."
    )
    assert "council's newsletter" in drop_closing_lines(f"Intro.\n{line}", "en")


def test_a_page_in_an_unknown_language_keeps_its_lines() -> None:
    """Without a page language no phrase applies, and every line stays."""
    assert drop_closing_lines("Text.\nFollow us on Instagram.", None).endswith("Instagram.")


def _long_story() -> str:
    return _STORY + (
        "<p>Work on the river bank starts in spring, once the flood season is over, and the "
        "council will publish a map of the diversions a month before the first lane closes.</p>"
    )


def test_a_heading_that_ends_the_story_goes() -> None:
    """A heading after the story's last long section, with nothing left under it, goes."""
    html = (
        '<html lang="en"><head><title>Cycle routes</title></head><body><article>'
        f"<h1>New cycle routes</h1>{_long_story()}<h2>From the same columnist</h2>"
        "</article></body></html>"
    )
    text = extract_html(html).text
    assert "first lane closes" in text
    assert "same columnist" not in text


def test_a_listing_keeps_its_last_card_title() -> None:
    """A heading after a short blurb is a card's title, and stays."""
    text = "## Cards\n\n### First card\n\nA short blurb.\n\n### Second card"
    assert drop_trailing_heading(text) == text
