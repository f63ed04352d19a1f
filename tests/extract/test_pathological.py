"""Hostile and broken HTML: deep nesting, huge lines, empty documents, garbage."""

from __future__ import annotations

import os

import pytest

from insomnia_web.extract import convert, extract_html
from insomnia_web.extract.parse import parse_html


def test_deep_nesting_keeps_text() -> None:
    """100k nested elements neither raise RecursionError nor lose the text inside or after."""
    depth = 100_000
    html = (
        "<html><body><p>before</p>"
        + "<div>" * depth
        + "deep text"
        + "</div>" * depth
        + "<p>after</p></body></html>"
    )
    for mode in ("readable", "full"):
        text = extract_html(html, mode=mode).text
        assert "deep text" in text
        assert "after" in text


@pytest.mark.timeout(10)
def test_deep_inline_nesting() -> None:
    """Deeply nested inline elements (spans) are flattened without losing words."""
    html = "<p>" + "<span>x " * 50_000 + "</span>" * 50_000 + "</p>"
    assert extract_html(html, mode="full").text.split() == ["x"] * 50_000


@pytest.mark.skipif(os.environ.get("INSOMNIA_WEB_SKIP_SLOW") == "1", reason="slow test skipped")
@pytest.mark.timeout(60)
def test_fifty_megabyte_single_line() -> None:
    """A 50 MB single line of text is extracted whole, in linear time."""
    words = 10_000_000
    html = "<html><body><p>" + "word " * words + "</p></body></html>"
    assert len(html) > 50_000_000
    text = extract_html(html, mode="full").text
    assert text.count("word") == words


@pytest.mark.parametrize("html", ["", "   ", "\n\t", "<!-- only a comment -->", "<html></html>"])
def test_empty_documents(html: str) -> None:
    """Empty documents give empty text and no title, in every mode."""
    for mode in ("readable", "full"):
        result = extract_html(html, mode=mode)
        assert result.text == ""
        assert result.title is None


def test_garbage_bytes_decoded_as_text() -> None:
    """Random bytes decoded with replacement characters do not crash extraction."""
    garbage = bytes(range(256)) * 64 + b"<p>\x00\xff\xfe tail</p>" + os.urandom(4096)
    text = garbage.decode("utf-8", "replace")
    result = convert(text, "text/html")
    assert "tail" in result.text
    assert "\x00" not in result.text


def test_lone_surrogates_and_control_characters() -> None:
    """Lone surrogates and control characters in the decoded text are survived."""
    html = "<p>a\ud800b\x01c</p><p>next</p>"
    text = extract_html(html, mode="full").text
    assert "next" in text


def test_unclosed_tags_and_bad_markup() -> None:
    """Unclosed and misnested tags still give every word."""
    html = "<div><p>one<p>two<li>three <b><i>four</b></i><table><td>five<td>six"
    words = extract_html(html, mode="full").text.replace("|", " ").split()
    for word in ("one", "two", "three", "four", "five", "six"):
        assert word in words


def test_the_parser_keeps_no_table_of_ids() -> None:
    """Parsing builds no id table (XPath ``id()`` finds nothing); the attribute finds it."""
    root = parse_html("<html><body><p id=a>One</p><p id=a>Two</p></body></html>")
    assert root is not None
    assert root.xpath("id('a')") == []
    assert [p.text for p in root.iterfind(".//p[@id='a']")] == ["One", "Two"]
