"""One fetched response -> its readable text: the path every reader of pages takes.

A PDF (declared, or recognised by its header whatever the label) goes to :mod:`.pdf` in a
worker process; anything else is checked and decoded by :func:`~.body.read_body` and
converted by :func:`~.offload.convert_async`. Both run off the event loop under the
caller's deadline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..errors import ToolError
from .body import is_pdf, read_body
from .declared import thin_words
from .dispatch import is_html
from .model import Extracted
from .offload import convert_async, convert_pdf_async

if TYPE_CHECKING:
    from ..net.result import FetchResult
    from .dispatch import Mode

__all__ = ["Document", "read_document", "thin_text_warning"]

PDF_TYPE = "application/pdf"


class Document(NamedTuple):
    """The readable form of one response."""

    content_type: str
    """The media type read (``application/pdf`` for a PDF, whatever its label)."""
    charset: str | None
    """The codec the body was decoded with; None for a PDF."""
    extracted: Extracted
    warnings: list[str]
    """A sniffed or corrected type, charset trouble."""


async def read_document(
    result: FetchResult, mode: Mode, *, timeout_s: float, max_chars: int
) -> Document:
    """The text of *result* in *mode*; a PDF's at most *max_chars* characters long.

    Raises the errors of :func:`~.body.read_body`, of the PDF reader and of the extractor
    (``ToolTimeout(phase="extract")`` past *timeout_s*).
    """
    if is_pdf(result.content_type, result.body):
        if mode == "raw":
            raise ToolError(
                "unsupported_content",
                "The response is a PDF, which has no source text to return in mode raw.",
                hint="Call WebFetch again with mode 'readable' to read the PDF's text.",
                details={"content_type": PDF_TYPE},
            )
        warnings = []
        if result.content_type not in (PDF_TYPE, "application/x-pdf"):
            label = result.content_type or "no Content-Type"
            warnings.append(f"the server sent {label}, but the body is a PDF; read as a PDF")
        extracted = await convert_pdf_async(
            result.body, max_chars=max_chars, truncated=result.truncated, timeout_s=timeout_s
        )
        return Document(PDF_TYPE, None, extracted, warnings)
    body = read_body(result, mode)
    extracted = await convert_async(
        body.text,
        body.content_type,
        url=result.final_url,
        mode=mode,
        timeout_s=timeout_s,
        content_language=result.headers.get("content-language"),
    )
    return Document(body.content_type, body.charset, extracted, body.warnings)


def thin_text_warning(text: str, content_type: str, mode: str) -> str | None:
    """A warning for an HTML page whose readable *text* is thin (:func:`~.declared.thin_words`),
    naming what to try next; None for any other text.

    A page that draws its content with script, or hides it behind a consent or browser-check
    wall, reads as a line or two of chrome: the model should know that the text is not the
    page's content before it answers from it."""
    if mode != "readable" or not is_html(content_type):
        return None
    words = thin_words(text)
    if words is None:
        return None
    found = f"only {words} word(s) of readable text" if words else "no readable text"
    return (
        f"{found} found: the page may draw its content with script (WebFetch runs none) or "
        'keep it where the reader skips it; mode "full" returns all of its visible text, '
        "else try another source"
    )
