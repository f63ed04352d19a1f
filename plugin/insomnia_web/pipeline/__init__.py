"""The excerpt pipeline of WebSearch: search results -> fetched pages -> ranked passages.

:func:`run_excerpts` fetches the top result pages concurrently through the SafeClient under
one deadline (a slow page is dropped, never waited for), extracts them off the event loop,
and selects the passages that answer the query within a token budget, the provider's
snippets included. :func:`render_excerpt_search` writes the model-facing text.
"""

from __future__ import annotations

from .excerpts import PipelineResult, run_excerpts
from .fetch import FetchContext, PageOutcome, PageRequest, fetch_pages
from .search_layout import (
    asked_count,
    fit_excerpt_search,
    frame_cost,
    render_excerpt_search,
    render_findings,
    render_unread,
)

__all__ = [
    "FetchContext",
    "PageOutcome",
    "PageRequest",
    "PipelineResult",
    "asked_count",
    "fetch_pages",
    "fit_excerpt_search",
    "frame_cost",
    "render_excerpt_search",
    "render_findings",
    "render_unread",
    "run_excerpts",
]
