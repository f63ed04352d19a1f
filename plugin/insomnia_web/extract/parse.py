"""HTML text -> lxml tree, robust to pathological input.

libxml2 gives up on documents nested deeper than 2048 elements and silently drops everything
after that point. When the parser reports that, the source is flattened (tags beyond a safe
depth are replaced by line breaks, text is kept) and parsed again, so a 100k-deep document
still yields its text. ``huge_tree`` is on so very long text nodes (a 50 MB line) are kept.
"""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

__all__ = ["parse_html"]

# Depth above which tags are dropped when flattening a too-deep document.
_FLATTEN_DEPTH = 512

_VOID_TAGS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:_-]*)[^>]*?(/?)>")
_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>")


# Every element is an ``HtmlElement``, chosen in C: lxml.html's own lookup calls back into
# Python for each element proxy, which costs more than a tenth of the extraction time.
_LOOKUP = etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment
)


def _new_parser() -> etree.HTMLParser:
    """An HTML parser for one document: UTF-8, no comments, no network, and no table of
    ``id`` values (no step looks an element up by its id; building it costs every id)."""
    parser = etree.HTMLParser(
        encoding="utf-8",
        huge_tree=True,
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        collect_ids=False,
    )
    parser.set_element_class_lookup(_LOOKUP)
    return parser


def _hit_depth_limit(parser: etree.HTMLParser) -> bool:
    return any("depth" in entry.message.lower() for entry in parser.error_log)


def _flatten(html: str, max_depth: int = _FLATTEN_DEPTH) -> str:
    """Drop start and end tags nested deeper than *max_depth*, keeping all text."""
    pieces: list[str] = []
    depth = 0
    last = 0
    for match in _TAG_RE.finditer(html):
        closing, name, self_closing = match.group(1), match.group(2).lower(), match.group(3)
        if name in _VOID_TAGS or self_closing:
            continue
        if closing:
            keep = depth <= max_depth
            depth = max(depth - 1, 0)
        else:
            depth += 1
            keep = depth <= max_depth
        if not keep:
            pieces.append(html[last : match.start()])
            pieces.append("\n")
            last = match.end()
    pieces.append(html[last:])
    return "".join(pieces)


def _parse(data: bytes) -> tuple[lxml.html.HtmlElement | None, bool]:
    parser = _new_parser()
    try:
        root = lxml.html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError):
        return None, False
    return root, _hit_depth_limit(parser)


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    """Parse *html* into an ``<html>`` element, or return ``None`` for an empty document."""
    html = _XML_DECL_RE.sub("", html, count=1)
    if not html or html.isspace():  # no copy of the page made to find out
        return None
    data = html.encode("utf-8", "replace")
    root, too_deep = _parse(data)
    if too_deep:
        root, _ = _parse(_flatten(html).encode("utf-8", "replace"))
    return root
