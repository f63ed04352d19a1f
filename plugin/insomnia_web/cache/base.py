"""The cache store interface: what the tools call, whichever database holds the data.

Two implementations: :class:`~.sqlite.SqliteStore` (one local file, the default) and
:class:`~.postgres.PostgresStore` (a server shared by many hosts). Every method is a
coroutine and raises only :class:`~insomnia_web.errors.ToolError`: ``cache_error`` for a
failed step, ``cache_unavailable`` when the database cannot be reached in time, and the
budget errors of :meth:`CacheStore.take_slot` (``rate_limited``, ``quota_exceeded``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol, runtime_checkable

from .budget import ProviderUsage, Slot
from .models import CacheStats, Finding, SearchHit, Snapshot

__all__ = ["MAX_FINDINGS", "MAX_OWN_FINDINGS", "CacheStore", "StoreName"]

MAX_FINDINGS = 10_000
"""Most findings a store keeps: saving one more deletes the oldest. A model saving findings
by the thousand grew the store for ever (findings are never evicted for ``max_mb``, so past
it every write evicted every search and page instead)."""
MAX_OWN_FINDINGS = 1_000
"""Most findings one store (one agent's runtime) keeps of those it saved: saving one more
deletes its own oldest. Past it, a model saving findings by the thousand pushes out its own,
not those of the other agents sharing the cache (the newest :data:`MAX_FINDINGS` of them
filled the store)."""

StoreName = Literal["all", "searches", "pages", "findings"]


@runtime_checkable
class CacheStore(Protocol):
    """Searches, page snapshots, findings and provider budgets, behind one interface."""

    backend: Literal["sqlite", "postgresql"]
    location: str
    """The file path or the server URL (never with a password), for messages and stats."""

    async def get_search(
        self, query: str, params: Mapping[str, object], *, max_age_s: float
    ) -> SearchHit | None:
        """The freshest ``exact`` or ``similar`` stored answer no older than *max_age_s*."""
        ...

    async def put_search(
        self, query: str, params: Mapping[str, object], provider: str, payload: bytes
    ) -> None:
        """Store a provider answer for *query* and *params*, replacing an older one."""
        ...

    async def put_snapshot(self, snapshot: Snapshot) -> Snapshot:
        """Store a page version; return it with its content hash filled in."""
        ...

    async def get_latest_snapshot(
        self, url: str, mode: str, *, max_age_s: float, scope: str = ""
    ) -> Snapshot | None:
        """The newest version of *url* (requested or final URL) in *mode*, if young enough,
        stored under the network view *scope* (:attr:`.models.Snapshot.scope`)."""
        ...

    async def add_finding(
        self,
        query: str,
        content: str,
        source_url: str | None = None,
        *,
        ttl_s: float,
        keep: int = MAX_FINDINGS,
        keep_own: int = MAX_OWN_FINDINGS,
    ) -> Finding:
        """Store a model-contributed fact (unverified) for *ttl_s* seconds; of the findings
        this store saved, the newest *keep_own* are kept, and of all findings the newest
        *keep* (the oldest beyond them are deleted)."""
        ...

    async def find_findings(self, query: str, *, limit: int = 3, scope: str = "") -> list[Finding]:
        """Unexpired findings relevant to *query*, each verified or not under the network
        view *scope*: those verified first, then this store's own, then the best matches."""
        ...

    async def mark_verified(
        self, finding_id: int, *, verified_by_url: str, scope: str = ""
    ) -> bool:
        """Mark a finding verified by a page fetched under the network view *scope* (its
        verifications under other views stay); False if there is no such finding."""
        ...

    async def findings_for_source(
        self, url: str, *, scope: str = "", limit: int | None = None
    ) -> list[Finding]:
        """Unexpired findings whose source URL is exactly *url*, not yet verified under the
        network view *scope*: *limit* of them (all when ``None``), this store's own first,
        then newest first."""
        ...

    async def take_slot(
        self,
        bucket: str,
        *,
        interval_s: float,
        max_wait_s: float | None,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> Slot:
        """Reserve the next request slot of a provider key, atomically across processes;
        ``quota_exceeded`` past *monthly_limit* requests this month or *daily_limit* today
        (UTC)."""
        ...

    async def hold(self, bucket: str, seconds: float) -> None:
        """Start no request of *bucket*, in any process, for *seconds*."""
        ...

    async def usage(self) -> list[ProviderUsage]:
        """Provider requests today and this month (UTC), per key."""
        ...

    async def stats(self) -> CacheStats:
        """Row counts, size and usage; a store that does not exist yet is not created."""
        ...

    async def clear(self, what: StoreName = "all") -> int:
        """Delete every row of one store (or all); return how many rows were deleted."""
        ...

    async def aclose(self) -> None:
        """Release connections (idempotent); the next call opens them again."""
        ...
