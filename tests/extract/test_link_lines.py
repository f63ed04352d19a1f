"""An article's paragraphs that are mostly a link: related stories, not the story."""

from __future__ import annotations

from insomnia_web.extract import extract_html

_STORY = "".join(
    f"<p>The council voted on the new bridge, paragraph {n}, after a long debate over costs, "
    "traffic and the river's wildlife, and work will start in the spring.</p>"
    for n in range(10)
)


def _page(extra: str) -> str:
    return f"<html><body><article><h1>Bridge</h1>{_STORY}{extra}</article></body></html>"


def test_a_link_line_in_an_article_goes() -> None:
    """A short paragraph that is mostly a link to another story leaves the article."""
    line = "<p>Read more: <a href='/other'>Council approves the new tram line to the port</a></p>"
    text = extract_html(_page(line)).text
    assert "paragraph 9" in text
    assert "tram line" not in text


def test_a_sentence_with_a_link_stays() -> None:
    """A paragraph of the story that links its source in passing stays."""
    line = (
        "<p>The engineers' report, <a href='/report'>published last week</a>, found that the "
        "old bridge could not carry buses for more than another two years.</p>"
    )
    assert "could not carry buses" in extract_html(_page(line)).text


def test_a_list_of_link_lines_is_content() -> None:
    """Link lines that make up a good part of the article are its content and stay."""
    lines = "".join(
        f"<p><a href='/doc/{n}'>Council minutes, meeting number {n} of the year</a></p>"
        for n in range(12)
    )
    assert "meeting number 11" in extract_html(_page(lines)).text
