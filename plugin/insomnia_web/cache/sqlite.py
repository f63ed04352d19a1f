"""The SQLite :class:`~.base.CacheStore`: the synchronous :class:`~.store.Cache` in a thread.

Each call runs the cache's short SQLite work with :func:`asyncio.to_thread`, so a database
locked by another process makes the call wait, never the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Literal

from .base import MAX_FINDINGS, MAX_OWN_FINDINGS, StoreName
from .budget import ProviderUsage, Slot
from .models import CacheStats, Finding, SearchHit, Snapshot
from .store import Cache

__all__ = ["SqliteStore"]


class SqliteStore:
    """A :class:`~.base.CacheStore` over one SQLite file (see :class:`~.store.Cache`)."""

    backend: Literal["sqlite", "postgresql"] = "sqlite"

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        """The synchronous cache underneath (for tests and the CLI)."""
        self.location = str(cache.path)

    async def get_search(
        self, query: str, params: Mapping[str, object], *, max_age_s: float
    ) -> SearchHit | None:
        """See :meth:`.store.Cache.get_search`."""
        return await asyncio.to_thread(self.cache.get_search, query, params, max_age_s=max_age_s)

    async def put_search(
        self, query: str, params: Mapping[str, object], provider: str, payload: bytes
    ) -> None:
        """See :meth:`.store.Cache.put_search`."""
        await asyncio.to_thread(self.cache.put_search, query, params, provider, payload)

    async def put_snapshot(self, snapshot: Snapshot) -> Snapshot:
        """See :meth:`.store.Cache.put_snapshot`."""
        return await asyncio.to_thread(self.cache.put_snapshot, snapshot)

    async def get_latest_snapshot(
        self, url: str, mode: str, *, max_age_s: float, scope: str = ""
    ) -> Snapshot | None:
        """See :meth:`.store.Cache.get_latest_snapshot`."""
        return await asyncio.to_thread(
            self.cache.get_latest_snapshot, url, mode, max_age_s=max_age_s, scope=scope
        )

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
        """See :meth:`.store.Cache.add_finding`."""
        return await asyncio.to_thread(
            self.cache.add_finding,
            query, content, source_url, ttl_s=ttl_s, keep=keep, keep_own=keep_own,
        )  # fmt: skip

    async def find_findings(self, query: str, *, limit: int = 3, scope: str = "") -> list[Finding]:
        """See :meth:`.store.Cache.find_findings`."""
        return await asyncio.to_thread(self.cache.find_findings, query, limit=limit, scope=scope)

    async def mark_verified(
        self, finding_id: int, *, verified_by_url: str, scope: str = ""
    ) -> bool:
        """See :meth:`.store.Cache.mark_verified`."""
        return await asyncio.to_thread(
            self.cache.mark_verified, finding_id, verified_by_url=verified_by_url, scope=scope
        )

    async def findings_for_source(
        self, url: str, *, scope: str = "", limit: int | None = None
    ) -> list[Finding]:
        """See :meth:`.store.Cache.findings_for_source`."""
        return await asyncio.to_thread(
            self.cache.findings_for_source, url, scope=scope, limit=limit
        )

    async def take_slot(
        self,
        bucket: str,
        *,
        interval_s: float,
        max_wait_s: float | None,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> Slot:
        """See :meth:`.store.Cache.take_slot`."""
        return await asyncio.to_thread(
            self.cache.take_slot,
            bucket,
            interval_s=interval_s,
            max_wait_s=max_wait_s,
            monthly_limit=monthly_limit,
            daily_limit=daily_limit,
        )

    async def hold(self, bucket: str, seconds: float) -> None:
        """See :meth:`.store.Cache.hold`."""
        await asyncio.to_thread(self.cache.hold, bucket, seconds)

    async def usage(self) -> list[ProviderUsage]:
        """See :meth:`.store.Cache.usage`."""
        return await asyncio.to_thread(self.cache.usage)

    async def stats(self) -> CacheStats:
        """See :meth:`.store.Cache.stats`."""
        return await asyncio.to_thread(self.cache.stats)

    async def clear(self, what: StoreName = "all") -> int:
        """See :meth:`.store.Cache.clear`."""
        return await asyncio.to_thread(self.cache.clear, what)

    async def aclose(self) -> None:
        """Close the file (the next call opens it again)."""
        await asyncio.to_thread(self.cache.close)
