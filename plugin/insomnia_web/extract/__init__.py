"""HTML and text documents -> readable text for the model."""

from __future__ import annotations

from .html import extract_html
from .model import Extracted

__all__ = ["Extracted", "extract_html"]
