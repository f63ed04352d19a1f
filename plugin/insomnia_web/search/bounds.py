"""Bounds on a provider's answer, applied where it enters WebSearch.

A provider is a plugin's code or a server someone else runs (a SearXNG instance), and its
answer goes into the model's context, the history and the cache. :func:`bounded` cuts it
to sizes no real answer reaches before anything else reads it: the first
:data:`MAX_HITS` results, each text (and the provider's name) to its limit (ending in
``…`` when cut), the first :data:`MAX_WARNINGS` warnings. A megabyte title cost as many
tokens in every later call that read the cached answer.
"""

from __future__ import annotations

import msgspec

from .base import SearchHit, SearchResponse

__all__ = [
    "MAX_HITS",
    "MAX_NAME_CHARS",
    "MAX_SNIPPET_CHARS",
    "MAX_TITLE_CHARS",
    "MAX_WARNINGS",
    "MAX_WARNING_CHARS",
    "bounded",
]

MAX_HITS = 100
"""Most results read (a call asks for at most 20; the rest leaves room for filtering)."""
MAX_TITLE_CHARS = 300
MAX_SNIPPET_CHARS = 1000
"""Longest snippet, and longest extra snippet (of which at most :data:`MAX_EXTRA_SNIPPETS`)."""
MAX_EXTRA_SNIPPETS = 5
MAX_AGE_CHARS = 40
MAX_WARNINGS = 5
MAX_WARNING_CHARS = 300
"""Longest warning, and longest altered query."""
MAX_NAME_CHARS = 100
"""Longest provider name an answer gives (each result carries it)."""


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _hit(hit: SearchHit) -> SearchHit:
    cut = SearchHit(
        title=_cut(hit.title, MAX_TITLE_CHARS),
        url=hit.url,
        snippet=_cut(hit.snippet, MAX_SNIPPET_CHARS),
        age=None if hit.age is None else _cut(hit.age, MAX_AGE_CHARS),
        extra_snippets=tuple(
            _cut(s, MAX_SNIPPET_CHARS) for s in hit.extra_snippets[:MAX_EXTRA_SNIPPETS]
        ),
    )
    return hit if cut == hit else cut


def bounded(response: SearchResponse) -> SearchResponse:
    """*response* cut to the bounds of this module (itself when within them)."""
    altered = response.altered_query
    return msgspec.structs.replace(
        response,
        provider=_cut(response.provider, MAX_NAME_CHARS),
        hits=[_hit(h) for h in response.hits[:MAX_HITS]],
        altered_query=None if altered is None else _cut(altered, MAX_WARNING_CHARS),
        warnings=[_cut(w, MAX_WARNING_CHARS) for w in response.warnings[:MAX_WARNINGS]],
    )
