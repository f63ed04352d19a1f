"""Decoded document + media type -> :class:`Extracted`.

HTML and XHTML are extracted; plain text, Markdown and XML pass through; JSON is
pretty-printed (invalid JSON, and JSON that indenting would grow past
:data:`MAX_JSON_GROWTH` times its size, pass through unchanged). ``mode="raw"`` returns the decoded
source of any text type unchanged. Anything else is refused with ``unsupported_content``.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from ..errors import ToolError
from .html import extract_html
from .model import Extracted

__all__ = [
    "MAX_JSON_GROWTH",
    "MAX_SHOWN_TYPE",
    "Mode",
    "convert",
    "is_html",
    "is_supported_type",
    "media_type",
]

Mode = Literal["readable", "full", "raw"]

MAX_JSON_GROWTH = 8
"""Pretty-printed JSON is at most this many times as long as the body (plus 4 KiB): each
level of nesting indents its lines further, so deep nesting would grow it without bound."""
_JSON_SLACK = 4096

_HTML_TYPES = frozenset(("text/html", "application/xhtml+xml"))
_PLAIN_TYPES = frozenset(("text/plain", "text/markdown", "text/x-markdown"))
_XML_TYPES = frozenset(("application/xml", "text/xml"))
# Text types that only ``raw`` mode returns (their source is all there is to read).
_OTHER_TEXT_TYPES = frozenset(
    (
        "application/javascript",
        "application/ecmascript",
        "application/x-javascript",
        "application/x-ndjson",
        "application/x-yaml",
        "application/yaml",
        "application/toml",
        "application/x-sh",
        "application/sql",
        "application/graphql",
    )
)


def media_type(content_type: str) -> str:
    """Return the bare lowercase media type of a Content-Type value (parameters dropped)."""
    return content_type.split(";", 1)[0].strip().lower()


_MEDIA_TYPE_RE = re.compile(r"[a-z0-9!#$&^_.+-]{1,64}/[a-z0-9!#$&^_.+-]{1,64}")
"""A media type as RFC 9110 writes one: ``type/subtype`` in token characters."""


MAX_SHOWN_TYPE = 48
"""Longest media type a message quotes, Office Open XML's aside
(``application/vnd.oasis.opendocument.spreadsheet`` is 46 characters)."""


_OFFICE_OPEN_XML = "application/vnd.openxmlformats-officedocument."
_OFFICE_OPEN_XML_TYPES = frozenset(
    _OFFICE_OPEN_XML + kind
    for kind in (
        "wordprocessingml.document",
        "wordprocessingml.template",
        "spreadsheetml.sheet",
        "spreadsheetml.template",
        "presentationml.presentation",
        "presentationml.slideshow",
        "presentationml.template",
    )
)
"""The registered Office Open XML types (.docx, .xlsx, .pptx and their kin): common, and
the only registered types longer than :data:`MAX_SHOWN_TYPE` a fetch meets often."""


def shown_type(content_type: str) -> str:
    """A Content-Type's media type as a message quotes it: as sent when it is one
    (``type/subtype``) of at most :data:`MAX_SHOWN_TYPE` characters or Office Open XML's,
    else ``a malformed type (N characters)`` or ``a long type (N characters)``. Messages,
    and WebFetch's ``Type:`` line, are shown outside the untrusted-content delimiters, where
    a server wrote sentences of its own (thousands of characters) as its type, or words
    joined by ``-`` and ``.`` (a type of 129 characters is well-formed)."""
    kind = media_type(content_type)
    if not kind:
        return "an unknown type"
    if not _MEDIA_TYPE_RE.fullmatch(kind):
        return f"a malformed type ({len(kind)} characters)"
    if len(kind) <= MAX_SHOWN_TYPE or kind in _OFFICE_OPEN_XML_TYPES:
        return kind
    return f"a long type ({len(kind)} characters)"


def is_html(content_type: str) -> bool:
    """True for an HTML or XHTML media type (parameters ignored)."""
    return media_type(content_type) in _HTML_TYPES


def _is_json(kind: str) -> bool:
    return kind == "application/json" or kind.endswith("+json")


def _is_xml(kind: str) -> bool:
    return kind in _XML_TYPES or (kind.endswith("+xml") and kind not in _HTML_TYPES)


def _is_text(kind: str) -> bool:
    return (
        kind.startswith("text/")
        or kind in _HTML_TYPES
        or kind in _OTHER_TEXT_TYPES
        or _is_json(kind)
        or _is_xml(kind)
    )


def is_supported_type(content_type: str, *, mode: Mode = "readable") -> bool:
    """True when :func:`convert` can turn a document of *content_type* into text in *mode*.

    *content_type* is a bare media type such as ``"text/html"`` (parameters are ignored).
    ``raw`` accepts every text type; the other modes accept HTML, XHTML, plain text,
    Markdown, JSON and XML.
    """
    kind = media_type(content_type)
    if mode == "raw":
        return _is_text(kind)
    return kind in _HTML_TYPES or kind in _PLAIN_TYPES or _is_json(kind) or _is_xml(kind)


def _pretty_json(text: str) -> Extracted:
    """*text* indented, or as it is when it is not JSON or would grow too much."""
    passthrough = Extracted(title=None, text=text, method="passthrough")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return passthrough
    room = MAX_JSON_GROWTH * len(text) + _JSON_SLACK
    pieces: list[str] = []
    try:  # the encoder yields as it goes: stop as soon as the text outgrows its room
        for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(value):
            room -= len(piece)
            if room < 0:
                return passthrough
            pieces.append(piece)
    except (ValueError, RecursionError):
        return passthrough
    return Extracted(title=None, text="".join(pieces), method="json")


def convert(
    text: str,
    content_type: str,
    *,
    url: str | None = None,
    mode: Mode = "readable",
    content_language: str | None = None,
) -> Extracted:
    """Turn a decoded document into readable text according to its media type and *mode*.

    *content_language* is the response's ``Content-Language`` header: the language of an
    HTML page whose markup declares none.

    Raises ``ToolError("unsupported_content")`` for a type that has no text handler.
    """
    kind = media_type(content_type)
    if not is_supported_type(kind, mode=mode):
        raise ToolError(
            "unsupported_content",
            f"Cannot read content of type {shown_type(kind)} as text"
            + (" (mode raw returns text types only)." if mode == "raw" else "."),
            details={"content_type": kind},
        )
    if mode == "raw":
        return Extracted(title=None, text=text, method="raw")
    if kind in _HTML_TYPES:
        return extract_html(text, mode=mode, content_language=content_language)
    if _is_json(kind):
        return _pretty_json(text)
    return Extracted(title=None, text=text, method="passthrough")
