"""Forum threads: repeated quotes and per-post chrome are dropped."""

from __future__ import annotations

from lxml.html import HtmlElement, document_fromstring

from insomnia_web.extract import extract_html
from insomnia_web.extract.forum import drop_repeated_quotes

_POST = (
    "I replaced the thermostat last winter and the boiler still cycles every ten minutes, "
    "even with the pump speed turned down to the lowest setting and the bypass valve open."
)
_REPLY = "Check the pressure relief valve first; mine was stuck half open for months."


def _body(html: str) -> HtmlElement:
    body = document_fromstring(html).find("body")
    assert body is not None
    return body


def _text(el: HtmlElement) -> str:
    return " ".join(el.text_content().split())


def test_a_long_quote_of_an_earlier_post_is_dropped() -> None:
    """A reply's blockquote repeating a post on the page goes; the reply's own words stay."""
    body = _body(
        f"<div class=post><p>{_POST}</p></div>"
        f"<div class=post><blockquote>Sam wrote: {_POST}</blockquote><p>{_REPLY}</p></div>"
    )
    drop_repeated_quotes(body)
    assert _text(body).count("thermostat") == 1
    assert "pressure relief valve" in _text(body)


def test_a_class_marked_quote_box_is_dropped() -> None:
    """A forum quote box marked by its class (not a blockquote) is dropped the same way."""
    body = _body(f"<p>{_POST}</p><div class='bbcode_quote'><div>{_POST}</div></div><p>{_REPLY}</p>")
    drop_repeated_quotes(body)
    assert _text(body).count("thermostat") == 1


def test_short_and_unmatched_quotes_stay() -> None:
    """A short quote, and a long one whose source is not on the page, are kept."""
    short = "Sam wrote: the boiler still cycles."
    body = _body(
        f"<p>the boiler still cycles.</p><blockquote>{short}</blockquote>"
        f"<blockquote>{_POST}</blockquote><p>{_REPLY}</p>"
    )
    drop_repeated_quotes(body)
    assert short in _text(body)
    assert "thermostat" in _text(body)


def test_readable_extraction_keeps_one_copy_of_a_quoted_post() -> None:
    """End to end: a thread whose reply quotes the first post prints that post once."""
    posts = "".join(f"<article class=message><p>{_POST} Post {i}.</p></article>" for i in range(3))
    html = (
        f"<html><body><main>{posts}<article class=message>"
        f"<blockquote class='bbCodeBlock bbCodeBlock--quote'>Sam said: {_POST} Post 0.</blockquote>"
        f"<p>{_REPLY}</p></article></main></body></html>"
    )
    text = extract_html(html).text
    assert text.count("Post 0.") == 1
    assert "pressure relief valve" in text
