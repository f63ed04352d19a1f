"""The result of an extraction."""

from __future__ import annotations

import msgspec

__all__ = ["Extracted"]


class Extracted(msgspec.Struct, frozen=True):
    """Readable text of one document.

    ``method`` says how the text was obtained: ``readability`` (main article), ``page``
    (whole page minus boilerplate), ``full`` (all visible text), ``empty`` (nothing to
    extract), ``passthrough`` (plain text, Markdown, XML), ``json`` (pretty-printed JSON) or
    ``raw`` (the decoded source, unchanged).
    """

    title: str | None
    text: str
    method: str
