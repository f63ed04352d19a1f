"""Documents -> readable text for the model.

:func:`convert` dispatches on the media type: HTML and XHTML are extracted (main content in
``readable`` mode, all visible text in ``full`` mode), plain text, Markdown and XML pass
through, JSON is pretty-printed, ``raw`` returns the decoded source of any text type.
:func:`convert_async` does the same work off the event loop under a deadline;
:func:`warm_workers` starts its worker processes ahead of a burst of conversions.
"""

from __future__ import annotations

from .dispatch import Mode, convert, is_supported_type, media_type
from .html import extract_html
from .model import Extracted
from .offload import convert_async, shutdown_workers, warm_workers

__all__ = [
    "Extracted",
    "Mode",
    "convert",
    "convert_async",
    "extract_html",
    "is_supported_type",
    "media_type",
    "shutdown_workers",
    "warm_workers",
]
