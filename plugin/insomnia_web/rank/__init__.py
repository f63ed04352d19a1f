"""Passage ranking for excerpt search: split pages, rank passages, dedup, fit a token budget.

Pure and synchronous: no I/O, no event loop. The pipeline calls :func:`select_excerpts`
with the fetched pages of one search and renders what it returns.
"""

from __future__ import annotations

from .models import Excerpt, SourceDoc
from .ranker import Method, select_excerpts
from .tokens import estimate_tokens

__all__ = ["Excerpt", "Method", "SourceDoc", "estimate_tokens", "select_excerpts"]
