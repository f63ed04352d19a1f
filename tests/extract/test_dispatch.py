"""Content-type dispatch: what is extracted, what passes through, what is refused."""

from __future__ import annotations

import json

import pytest

from insomnia_web.errors import ToolError
from insomnia_web.extract import convert, is_supported_type

HTML = (
    "<html><head><title>T</title></head><body><nav><a href='/'>Home</a></nav>"
    "<p>Hello world.</p></body></html>"
)


def test_html_is_extracted() -> None:
    """``text/html`` goes through the HTML extractor."""
    result = convert(HTML, "text/html")
    assert result.title == "T"
    assert "Hello world." in result.text
    assert "<p>" not in result.text


def test_xhtml_is_extracted() -> None:
    """XHTML, with its XML declaration and namespace, is extracted like HTML."""
    xhtml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head>'
        "<body><h1>Head</h1><p>Body text.</p></body></html>"
    )
    result = convert(xhtml, "application/xhtml+xml")
    assert result.title == "X"
    assert "# Head" in result.text
    assert "Body text." in result.text


def test_full_mode_reaches_html_extractor() -> None:
    """``mode='full'`` keeps navigation text."""
    assert "Home" in convert(HTML, "text/html", mode="full").text


@pytest.mark.parametrize("kind", ["text/plain", "text/markdown", "text/x-markdown"])
def test_plain_and_markdown_pass_through(kind: str) -> None:
    """Plain text and Markdown are returned unchanged."""
    source = "# Title\n\n  indented <b>not html</b>\n"
    result = convert(source, kind)
    assert result.text == source
    assert result.method == "passthrough"


@pytest.mark.parametrize(
    "kind", ["application/json", "application/ld+json", "application/vnd.api+json"]
)
def test_json_is_pretty_printed(kind: str) -> None:
    """JSON is pretty-printed with a two-space indent, non-ASCII kept."""
    result = convert('{"a":[1,2],"b":"é"}', kind)
    assert result.method == "json"
    assert result.text == json.dumps({"a": [1, 2], "b": "é"}, indent=2, ensure_ascii=False)
    assert '\n  "a": [\n    1,' in result.text


def test_deeply_nested_json_is_not_indented_without_bound() -> None:
    """JSON whose indentation would grow it many times over (deep nesting, each level a line
    further in) passes through as sent: 20 KB of nested arrays were printed as 10 MB."""
    block = "[" * 500 + "]" * 500
    body = "[" + ",".join([block] * 20) + "]"
    result = convert(body, "application/json")
    assert result.method == "passthrough"
    assert result.text == body


def test_invalid_json_passes_through() -> None:
    """Invalid JSON is returned as it is."""
    result = convert("{not json", "application/json")
    assert result.text == "{not json"
    assert result.method == "passthrough"


@pytest.mark.parametrize(
    "kind", ["application/xml", "text/xml", "application/rss+xml", "image/svg+xml"]
)
def test_xml_passes_through(kind: str) -> None:
    """XML types pass through unchanged."""
    source = '<?xml version="1.0"?><feed><entry>x</entry></feed>'
    assert convert(source, kind).text == source


@pytest.mark.parametrize(
    "kind", ["text/html", "application/json", "text/css", "application/javascript"]
)
def test_raw_returns_source(kind: str) -> None:
    """``mode='raw'`` returns the decoded source of any text type unchanged."""
    result = convert(HTML, kind, mode="raw")
    assert result.text == HTML
    assert result.method == "raw"


@pytest.mark.parametrize(
    "kind", ["application/pdf", "image/png", "application/octet-stream", "text/css"]
)
def test_unsupported_type_is_refused(kind: str) -> None:
    """Types without a text handler raise ``unsupported_content`` naming the type."""
    with pytest.raises(ToolError) as caught:
        convert("data", kind)
    assert caught.value.code == "unsupported_content"
    assert kind in caught.value.message


def test_raw_refuses_binary_types() -> None:
    """Raw mode still refuses non-text types."""
    with pytest.raises(ToolError) as caught:
        convert("data", "image/png", mode="raw")
    assert caught.value.code == "unsupported_content"


def test_content_type_parameters_are_ignored() -> None:
    """A full Content-Type value with parameters dispatches on its media type."""
    assert convert("plain", "Text/Plain; charset=utf-8").text == "plain"


def test_is_supported_type() -> None:
    """``is_supported_type`` accepts the handled types and refuses the others."""
    for kind in (
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "application/json",
        "text/xml",
    ):
        assert is_supported_type(kind)
    for kind in ("application/pdf", "image/jpeg", "text/css", ""):
        assert not is_supported_type(kind)
    assert is_supported_type("text/css", mode="raw")
    assert not is_supported_type("image/jpeg", mode="raw")
