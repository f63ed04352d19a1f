"""Small helpers shared by the extraction tests."""

from __future__ import annotations

from lxml.html import HtmlElement, document_fromstring


def body_of(html: str) -> HtmlElement:
    """The ``<body>`` of *html*, parsed as a whole document."""
    body = document_fromstring(html).find("body")
    assert body is not None
    return body


def words_of(el: HtmlElement) -> str:
    """The text of *el* with whitespace collapsed."""
    return " ".join(el.text_content().split())
