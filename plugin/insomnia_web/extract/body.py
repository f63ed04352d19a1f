"""WebFetch's checks between the download and the extractor: type, binary bodies, decoding.

- :func:`effective_type`: the declared media type, or one sniffed from the body when the
  server sent none (``<html``/``<!doctype html`` -> ``text/html``; other text ->
  ``text/plain``).
- :func:`refuse_binary`: a body that is really binary (a known file signature, more than a
  stray NUL byte, many control bytes) is refused even when it is labelled as text.
- :func:`decode_body`: bytes -> text with the shared charset rules, plus warnings for an
  unknown declared charset or replaced bytes; mostly-invalid text is a decoding error.
- :func:`is_pdf`: a PDF, by its declared type or by its magic bytes (whatever the label);
  PDFs are read by :mod:`.pdf`, not decoded as text.
- :func:`read_body`: all of the above in order (sniff, supported check, binary refusal,
  decoding) for one fetched response; every reader of pages goes through it.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING, NamedTuple

from ..errors import ToolError
from ..net.charset import decode_text, normalize_charset
from .dispatch import shown_type

if TYPE_CHECKING:
    from ..net.result import FetchResult
    from . import Mode

__all__ = [
    "Body",
    "decode_body",
    "effective_type",
    "is_pdf",
    "read_body",
    "refuse_binary",
    "require_supported",
]

SNIFF_BYTES = 8192
"""How much of the body the type and binary checks look at."""
MAX_NUL_RATIO = 0.001
"""Share of NUL bytes above which a body is binary (a stray NUL in a page is tolerated)."""
MAX_CONTROL_RATIO = 0.05
"""Share of control bytes (NUL included) above which a body is binary."""
MAX_REPLACED_RATIO = 0.1
"""Share of replaced characters above which decoded text is a decoding error."""

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an Office document)"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\x7fELF", "an executable"),
    (b"MZ", "an executable"),
)
# Bytes that do not occur in text: C0 controls except tab, LF, FF, CR and ESC (used by
# ISO-2022 encodings).
_CONTROL = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D, 0x1B}
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _is_utf16(body: bytes, charset: str | None) -> bool:
    name = normalize_charset(charset)
    return body.startswith(_UTF16_BOMS) or (name is not None and name.startswith("utf-16"))


def _looks_binary(body: bytes, charset: str | None) -> str | None:
    """What the body looks like if it is binary (``"binary data"`` when unknown), else None."""
    for signature, what in _SIGNATURES:
        if body.startswith(signature):
            return what
    if _is_utf16(body, charset):
        return None
    head = body[:SNIFF_BYTES]
    if not head:
        return None
    controls = sum(1 for byte in head if byte in _CONTROL)
    if head.count(0) > MAX_NUL_RATIO * len(head) or controls > MAX_CONTROL_RATIO * len(head):
        return "binary data"
    return None


PDF_TYPES = frozenset(("application/pdf", "application/x-pdf"))
PDF_MAGIC = b"%PDF-"
PDF_MAGIC_WINDOW = 1024
"""How far into the body the ``%PDF-`` header is looked for (after leading blanks)."""


def is_pdf(content_type: str, body: bytes) -> bool:
    """Whether the response is a PDF: declared so, or starting with the PDF header."""
    if content_type.split(";", 1)[0].strip().lower() in PDF_TYPES:
        return True
    return body[:PDF_MAGIC_WINDOW].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(PDF_MAGIC)


def effective_type(content_type: str, body: bytes, charset: str | None) -> tuple[str, bool]:
    """The media type to extract with, and whether it was sniffed (no type was declared)."""
    if content_type:
        return content_type, False
    if is_pdf("", body):
        return "application/pdf", True
    head = body[:SNIFF_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html")) or (
        head.startswith(b"<!--") and b"<html" in head
    ):
        return "text/html", True
    if _looks_binary(body, charset) is None:
        return "text/plain", True
    return "application/octet-stream", True


def require_supported(content_type: str, mode: Mode) -> None:
    """Refuse a type the extractor cannot read in *mode*, naming it, before any decoding."""
    from . import is_supported_type

    if is_supported_type(content_type, mode=mode):
        return
    if mode != "raw" and is_supported_type(content_type, mode="raw"):
        raise ToolError(
            "unsupported_content",
            f"Content of type {shown_type(content_type)} has no readable form; mode raw returns "
            "its source.",
            hint="Call WebFetch again with mode='raw' to read the source text.",
            details={"content_type": content_type},
        )
    raise ToolError(
        "unsupported_content",
        f"Cannot read content of type {shown_type(content_type)} as text.",
        details={"content_type": content_type},
    )


def refuse_binary(content_type: str, body: bytes, charset: str | None) -> None:
    """Raise ``unsupported_content`` when a body labelled as text is really binary."""
    what = _looks_binary(body, charset)
    if what is not None:
        raise ToolError(
            "unsupported_content",
            f"The response is labelled {shown_type(content_type)} but its body is {what}, not "
            "text.",
            details={"content_type": content_type, "sniffed": what},
        )


_LABEL_RE = re.compile(r"[A-Za-z0-9._:+-]{1,40}")
"""What a charset name can look like (IANA's are at most 40 such characters)."""


def _unknown_charset(label: str) -> str:
    """The warning for an unknown charset *label*, quoting it only when it could be a
    charset's name: the warning is shown outside the untrusted-content delimiters, where a
    server could otherwise write sentences of its own."""
    if _LABEL_RE.fullmatch(label):
        return f"unknown charset {label!r} declared; decoded by detection instead"
    return (
        f"an unknown charset label ({len(label)} characters) was declared; decoded by "
        "detection instead"
    )


def decode_body(body: bytes, charset: str | None) -> tuple[str, str, list[str]]:
    """Decode *body*; return ``(text, codec used, warnings)``.

    Raises ``content_decoding_error`` when more than :data:`MAX_REPLACED_RATIO` of the
    characters could not be decoded.
    """
    warnings: list[str] = []
    if charset and normalize_charset(charset) is None:
        warnings.append(_unknown_charset(charset))
    text, used = decode_text(body, charset)
    literal = body.count(b"\xef\xbf\xbd") if used == "utf-8" else 0  # U+FFFD in the source
    replaced = text.count("\ufffd") - literal
    if replaced > 0:
        if replaced > 16 and replaced / max(len(text), 1) > MAX_REPLACED_RATIO:
            raise ToolError(
                "content_decoding_error",
                f"{replaced} of {len(text)} characters are not valid {used}; the response "
                "cannot be decoded as text.",
                details={"charset": used, "replaced": replaced},
            )
        warnings.append(f"{replaced} invalid byte sequence(s) in {used} replaced with U+FFFD")
    return text, used, warnings


class Body(NamedTuple):
    """A response body ready for the extractor."""

    content_type: str
    """The declared media type, or the sniffed one when none was declared."""
    text: str
    """The decoded body."""
    charset: str
    """The codec the body was decoded with."""
    warnings: list[str]
    """A sniffed type, an unknown declared charset, replaced bytes."""


def read_body(result: FetchResult, mode: Mode) -> Body:
    """Check and decode *result*'s body for extraction in *mode*.

    Sniffs a missing type, refuses a type the extractor cannot read and a binary body
    (``unsupported_content``), then decodes (``content_decoding_error`` when mostly invalid).
    """
    ctype, sniffed = effective_type(result.content_type, result.body, result.charset)
    warnings = [f"the server sent no Content-Type; read as {ctype}"] if sniffed else []
    require_supported(ctype, mode)
    refuse_binary(ctype, result.body, result.charset)
    text, charset, notes = decode_body(result.body, result.charset)
    return Body(ctype, text, charset, [*warnings, *notes])
