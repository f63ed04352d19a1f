"""The result of an extraction."""

from __future__ import annotations

import msgspec

__all__ = ["Extracted"]


class Extracted(msgspec.Struct, frozen=True):
    """Readable text of one document.

    ``method`` says how the text was obtained: ``readability`` (main article), ``page``
    (whole page minus boilerplate), ``full`` (all visible text), ``empty`` (nothing to
    extract), ``passthrough`` (plain text, Markdown, XML), ``json`` (pretty-printed JSON),
    ``raw`` (the decoded source, unchanged) or ``pdf`` (a PDF's text layer, page by page).

    The document's metadata, when it states it: ``pages`` (PDFs), ``author``, and the
    ``published`` and ``modified`` dates (ISO 8601 text, as precise as the source).
    ``truncated`` says an extraction limit cut the text.
    """

    title: str | None
    text: str
    method: str
    pages: int | None = None
    author: str | None = None
    published: str | None = None
    modified: str | None = None
    truncated: bool = False
