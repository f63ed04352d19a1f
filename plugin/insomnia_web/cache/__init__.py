"""The cache of insomnia-web: one SQLite file (WAL, FTS5) by default, or a PostgreSQL server.

The tools talk to a :class:`CacheStore` (see :func:`open_store`), whichever database is
behind it. It keeps three stores, each answer labelled with where it came from, plus the
request budgets of provider keys (:mod:`.budget`), shared by every process using it:

- **searches**: provider responses keyed by the normalised query and the search parameters;
  a new query reuses an ``exact`` or a ``similar`` earlier one (:class:`SearchHit`);
- **page snapshots**: extracted page text keyed by URL, content hash and the network view
  it was read under, so WebFetch continues a long page from the same version
  (:class:`Snapshot`);
- **findings**: facts the model saved with SaveFinding, unverified until a fetched page
  from their source contains them, verified per network view (:class:`Finding`).
"""

from __future__ import annotations

from .base import CacheStore
from .budget import ProviderUsage, Slot
from .models import CacheStats, Finding, SearchHit, Snapshot, snapshot_hash
from .open import open_store
from .similarity import content_words, normalize_query
from .sqlite import SqliteStore
from .store import Cache, canonical_params

__all__ = [
    "Cache",
    "CacheStats",
    "CacheStore",
    "Finding",
    "ProviderUsage",
    "SearchHit",
    "Slot",
    "Snapshot",
    "SqliteStore",
    "canonical_params",
    "content_words",
    "normalize_query",
    "open_store",
    "snapshot_hash",
]
