"""Readable mode keeps data tables in the main content and drops layout tables of links."""

from __future__ import annotations

from insomnia_web.extract import convert

WORDS = " ".join(f"Measurement {i} was taken at the station, as planned." for i in range(20))
TABLE = "<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>"
MARKDOWN_TABLE = "| Name | Value |\n| --- | --- |\n| alpha | 1 |"
MENU_TABLE = (
    "<table><tr>"
    + "".join(f"<td><a href='/m{i}'>Menu item {i}</a></td>" for i in range(6))
    + "</tr><tr>"
    + "".join(f"<td><a href='/o{i}'>Other link {i}</a></td>" for i in range(6))
    + "</tr></table>"
)


def _html(article: str) -> str:
    return f"<html><body><article>{article}</article></body></html>"


def test_small_table_after_long_paragraph_is_kept() -> None:
    """A small data table after a long paragraph survives readability as a Markdown table."""
    result = convert(_html(f"<p>{WORDS}</p>{TABLE}"), "text/html")
    assert result.method == "readability"
    assert WORDS in result.text
    assert MARKDOWN_TABLE in result.text


def test_table_beside_the_kept_block_is_put_back_in_place() -> None:
    """A data table that follows the kept text block, outside it, comes back between blocks."""
    article = (
        f"<div class='body'><p>{WORDS}</p><p>{WORDS}</p></div>"
        f"<div class='table-wrap'>{TABLE}</div><div class='more'><p>{WORDS} Final.</p></div>"
    )
    text = convert(_html(article), "text/html").text
    assert MARKDOWN_TABLE in text
    assert text.index(WORDS) < text.index(MARKDOWN_TABLE)


def test_layout_table_of_links_is_still_dropped() -> None:
    """A table whose cells are menu links is chrome, not data, and stays out."""
    text = convert(_html(f"<p>{WORDS}</p>{MENU_TABLE}<p>{WORDS}</p>"), "text/html").text
    assert WORDS in text
    assert "Menu item" not in text
    assert "Other link" not in text


def _linked_table(table_class: str) -> str:
    head = "<tr><th>Year</th><th>Laureate</th><th>Country</th></tr>"
    rows = "".join(
        f"<tr><td>{1900 + i}</td><td><a href='/p{i}'>Person Number {i}</a></td>"
        f"<td><a href='/c{i}'>Country {i}</a></td></tr>"
        for i in range(8)
    )
    return f"<table class='{table_class}'>{head}{rows}</table>"


def test_table_of_links_with_header_cells_is_data() -> None:
    """A table with three header cells is data even when most of its words are links."""
    text = convert(_html(f"<p>{WORDS}</p>{_linked_table('results')}"), "text/html").text
    assert "| Year | Laureate | Country |" in text
    assert "Person Number 7" in text


def test_data_table_named_like_chrome_is_kept() -> None:
    """A data table whose class names chrome ("sticky-header") is not dropped as unlikely."""
    html = _html(f"<p>{WORDS}</p>{_linked_table('wikitable sticky-header')}<p>{WORDS}</p>")
    assert "Person Number 7" in convert(html, "text/html").text
