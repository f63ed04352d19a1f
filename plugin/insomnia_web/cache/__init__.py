"""The local cache of insomnia-web: one SQLite file (WAL, FTS5), no server.

Three stores, each answer labelled with where it came from:

- **searches**: provider responses keyed by the normalised query and the search parameters;
  a new query reuses an ``exact`` or a ``similar`` earlier one (:class:`SearchHit`);
- **page snapshots**: extracted page text by content hash, so WebFetch continues a long page
  from the same version (:class:`Snapshot`);
- **findings**: facts the model saved with SaveFinding, unverified until a fetched page
  from their source contains them (:class:`Finding`).
"""

from __future__ import annotations

from .models import CacheStats, Finding, SearchHit, Snapshot, snapshot_hash
from .similarity import content_words, normalize_query
from .store import Cache, canonical_params

__all__ = [
    "Cache",
    "CacheStats",
    "Finding",
    "SearchHit",
    "Snapshot",
    "canonical_params",
    "content_words",
    "normalize_query",
    "snapshot_hash",
]
