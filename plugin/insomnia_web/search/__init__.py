"""Search providers: the extension point, the built-ins and the helpers providers share.

- :mod:`.base`: :class:`SearchProvider` (what a provider implements), the request and
  response Structs (:mod:`insomnia_web.testing` has a mock provider for tests).
- :mod:`.brave` and :mod:`.searxng`: the built-in providers, registered through the
  ``register_search_providers`` hook like any plugin's.
- :mod:`.http`: :class:`ProviderHttp`, one throttled, bounded JSON GET with errors named.
- :mod:`.ratelimit`: the per-provider, per-key token bucket shared in the process, and the
  :class:`SharedBucket` kept in the cache store, shared by every process.
- :mod:`.markup`: provider text (highlight tags, entities) to plain text.
"""

from __future__ import annotations

from .base import SearchHit, SearchProvider, SearchRequest, SearchResponse
from .http import ProviderHttp
from .markup import clean_text
from .ratelimit import BudgetStore, SharedBucket, TokenBucket, key_fingerprint, shared_bucket

__all__ = [
    "BudgetStore",
    "ProviderHttp",
    "SearchHit",
    "SearchProvider",
    "SearchRequest",
    "SearchResponse",
    "SharedBucket",
    "TokenBucket",
    "clean_text",
    "key_fingerprint",
    "shared_bucket",
]
