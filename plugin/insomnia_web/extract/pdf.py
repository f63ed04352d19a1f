"""PDF -> :class:`Extracted`: the text layer page by page, with page markers (pypdf).

Each page's text follows a marker line ``[Page n of N]``, so a model reading a slice (and a
person quoting it) knows where it is; a line of the text that reads like one is escaped
with a backslash (``\\[Page 3 of 9]``). The title comes from the document information
(``/Title``, else the XMP title), the author likewise; the page count is always given.
pypdf bounds its own decompression (its filter limits); the text is cut after
*max_chars* characters (``truncated``), and the caller runs this off the event loop, in a
worker process that a deadline can stop (:func:`~.offload.convert_pdf_async`).

Failures are typed, each with a hint: an encrypted document that opens only with a
password and a document without any text (scanned pages) are ``unsupported_content``; a
document pypdf cannot parse, or cut by the download limit, is ``content_decoding_error``,
whose message names the exception pypdf raised but not its text (which quotes the file: the
message is read outside the untrusted-content delimiters).
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from datetime import datetime

from pypdf import PdfReader
from pypdf.errors import DependencyError, PyPdfError

from ..errors import ToolError, relay
from .model import Extracted

__all__ = ["extract_pdf", "page_marker"]

_NO_TEXT_HINT = (
    "The PDF has no text layer (its pages are probably scanned images); look for an HTML "
    "or text version of the document."
)
_ENCRYPTED_HINT = (
    "The PDF is password-protected; look for an unprotected copy or another source. Do not retry."
)
_BROKEN_HINT = "The PDF is damaged or not a PDF; look for another copy of the document."
_RAISE_LIMIT = "Raise web.fetch.max_response_bytes in the manifest to read larger PDFs."
_UNREADABLE = (PyPdfError, NotImplementedError, ValueError, KeyError, TypeError, AttributeError)
"""What pypdf raises on a damaged document, or on one in a filter it lacks."""


def page_marker(number: int, total: int) -> str:
    """The line that starts page *number* of *total* in the text."""
    return f"[Page {number} of {total}]"


_MARKER_LIKE_RE = re.compile(
    r"^(?=[\[\uff3b]\s*page\s+\d+\s+of\s+\d+\s*[\]\uff3d])", re.IGNORECASE | re.MULTILINE
)
"""A line of a page's text that reads like a :func:`page_marker`."""


def _clean(text: str) -> str:
    """A page's text with its spacing tidied, one line per line, and a backslash before each
    line that reads like a page marker: the model would take the lines under it for another
    page's, so the only lines that start so are ours."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return _MARKER_LIKE_RE.sub("\\\\", "\n".join(line for line in lines if line).strip())


def _info(reader: PdfReader, key: str) -> str | None:
    metadata = reader.metadata
    value = metadata.get(key) if metadata is not None else None
    text = " ".join(str(value).split()) if value is not None else ""
    return text[:300] or None


def _date(reader: PdfReader, key: str) -> str | None:
    """A document date (``/CreationDate``, ``/ModDate``) as an ISO 8601 string."""
    metadata = reader.metadata
    attr = {"/CreationDate": "creation_date", "/ModDate": "modification_date"}[key]
    try:
        value = getattr(metadata, attr, None) if metadata is not None else None
    except (ValueError, TypeError):  # a malformed date string
        return None
    return value.isoformat() if isinstance(value, datetime) else None


def _open(data: bytes, *, truncated: bool) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ToolError(
                "unsupported_content",
                "The PDF is encrypted and opens only with a password.",
                hint=_ENCRYPTED_HINT,
                details={"content_type": "application/pdf", "reason": "encrypted"},
            )
        len(reader.pages)  # reads the page tree: a broken file fails here, not later
    except (*_UNREADABLE, DependencyError, OSError) as exc:
        if isinstance(exc, DependencyError):  # AES without a crypto library
            raise ToolError(
                "unsupported_content",
                "The PDF is encrypted with a cipher this installation cannot open.",
                hint=_ENCRYPTED_HINT,
                details={"content_type": "application/pdf", "reason": "encrypted"},
            ) from exc
        raise _broken(exc, truncated=truncated) from exc
    return reader


def _broken(exc: BaseException, *, truncated: bool) -> ToolError:
    if truncated:
        return ToolError(
            "content_decoding_error",
            "The PDF is larger than the download limit, and the part read cannot be opened.",
            hint=relay(
                _RAISE_LIMIT,
                lead="Ask the user to",
                then="Otherwise look for a smaller or HTML version of the document.",
            ),
            remedy=_RAISE_LIMIT,
            details={"content_type": "application/pdf", "reason": "truncated"},
        )
    return ToolError(
        "content_decoding_error",
        f"The PDF cannot be read (pypdf raised {type(exc).__name__}).",  # its text quotes the file
        hint=_BROKEN_HINT,
        details={"content_type": "application/pdf", "reason": "broken"},
    )


def extract_pdf(data: bytes, *, max_chars: int = 5_000_000, truncated: bool = False) -> Extracted:
    """The text of a PDF, page by page under page markers, cut after *max_chars*.

    *truncated* says the download was cut, so that a document that cannot be opened is
    reported as too large rather than broken. Raises ``ToolError`` as the module says.
    """
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reader = _open(data, truncated=truncated)
        pages = reader.pages
        total = len(pages)
        parts: list[str] = []
        size = 0
        cut = False
        found_text = False
        for number, page in enumerate(pages, start=1):
            if size >= max_chars:
                cut = True
                break
            try:
                text = _clean(page.extract_text() or "")
            except _UNREADABLE as exc:
                if not parts:
                    raise _broken(exc, truncated=truncated) from exc
                text = "(this page could not be read)"
            found_text = found_text or bool(text)
            part = f"{page_marker(number, total)}\n{text}" if text else page_marker(number, total)
            parts.append(part)
            size += len(part) + 2
    if not found_text:
        raise ToolError(
            "unsupported_content",
            f"The PDF has {total} page(s) but no text to read.",
            hint=_NO_TEXT_HINT,
            details={"content_type": "application/pdf", "reason": "no_text", "pages": total},
        )
    text = "\n\n".join(parts)
    if len(text) > max_chars:
        text, cut = text[:max_chars], True
    return Extracted(
        title=_info(reader, "/Title"),
        text=text,
        method="pdf",
        pages=total,
        author=_info(reader, "/Author"),
        published=_date(reader, "/CreationDate"),
        modified=_date(reader, "/ModDate"),
        truncated=cut,
    )
