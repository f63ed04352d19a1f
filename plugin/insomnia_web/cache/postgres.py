"""The PostgreSQL :class:`~.base.CacheStore`: one server shared by agents on many hosts.

``web.cache.url = "postgresql://user@host/db"`` selects it; the password comes from the
environment variable named by ``web.cache.password_env``, never from the manifest. It needs
the ``postgres`` extra (psycopg 3 and psycopg_pool); connections come from one
:class:`psycopg_pool.AsyncConnectionPool`, opened on first use.

- The schema is created and migrated on first use: the ``.sql`` files of
  :mod:`insomnia_web.cache.migrations` newer than the version in ``insomnia_web_schema``
  are applied in order, under an advisory lock, so many processes starting at once migrate
  once.
- Similar queries and findings are matched with PostgreSQL's own full-text search (a
  generated ``tsvector`` of the content words with a GIN index, the ``simple``
  configuration: the words are already normalised), then checked by the same rules as the
  SQLite cache (:mod:`.similarity`).
- Provider budgets (:mod:`.budget`) are taken in one transaction holding the bucket's row
  lock, timed by the server's clock, so hosts whose clocks differ still share one rate.
- Every step is bounded by ``web.cache.timeout_s``. A server that is down, unreachable or
  too slow raises ``cache_unavailable`` at once for :data:`RETRY_AFTER_S` seconds before
  the next attempt, so a call never waits on it past its deadline.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from ..errors import ToolError, relay
from .base import MAX_FINDINGS, MAX_OWN_FINDINGS, StoreName
from .budget import ProviderUsage, Slot, day_key, hold_span, month_key, plan_slot
from .models import CacheStats, Finding, SearchHit, Snapshot, snapshot_hash
from .similarity import (
    MAX_EXTRA_WORDS,
    content_words,
    finding_matches,
    normalize_query,
    search_matches,
)
from .store import (
    _BEYOND_KEPT_SQL,
    _FINDING_COLUMNS,
    _FINDINGS_FIRST_SQL,
    _N_FINDING,
    _OWN_BEYOND_KEPT_SQL,
    _VERIFIED_JOIN,
    MAX_CLOCK_SKEW_S,
    PRUNE_INTERVAL_S,
    _finding,
    _hit,
    _meta,
    _snapshot,
    canonical_params,
)

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

    from ..config import CacheConfig

__all__ = ["RETRY_AFTER_S", "PostgresStore", "migrations"]

RETRY_AFTER_S = 5.0
"""After the server failed to answer, calls fail fast with ``cache_unavailable`` this long."""
_LOCK_ID = 0x1A50_3E1A  # advisory lock key held while migrating
_CANDIDATES = 50
_POOL_MAX = 4
_POSTGRES_EXTRA = "Install the postgres extra (pip install 'insomnia-web[postgres]')."
_NEWER_SCHEMA = "Upgrade insomnia-web, or point web.cache.url at another database."
_MIGRATION_RE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

_SNAPSHOT_COLUMNS = (
    "hash, url, final_url, mode, title, text, status, content_type, charset, bytes, "
    "fetched_at, redirects, truncated, download_truncated, meta, scope"
)
_N_SNAPSHOT = len(_SNAPSHOT_COLUMNS.split(", "))
_VERIFIED = _VERIFIED_JOIN.format(mark="%s")
_BEYOND_KEPT = _BEYOND_KEPT_SQL.format(mark="%s")
_OWN_BEYOND_KEPT = _OWN_BEYOND_KEPT_SQL.format(mark="%s")
_FINDINGS_FIRST = _FINDINGS_FIRST_SQL.format(mark="%s")
_SERVER_NOW = "extract(epoch FROM clock_timestamp())::double precision"

T = TypeVar("T")
Step = Callable[["AsyncConnection[Any]"], Awaitable[T]]


def migrations() -> list[tuple[int, str, str]]:
    """The packaged migrations as ``(version, file name, SQL)``, in version order."""
    root = importlib.resources.files("insomnia_web.cache.migrations") / "postgresql"
    found = []
    for entry in root.iterdir():
        match = _MIGRATION_RE.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found)


def _terms(words: frozenset[str]) -> str:
    return " ".join(sorted(words))


def _redacted(url: str) -> str:
    """*url* without a password (the manifest refuses one; belt and braces for messages)."""
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1@", url)


class PostgresStore:
    """A :class:`~.base.CacheStore` on a PostgreSQL server (psycopg 3, async pool).

    *clock* is for tests: when given, it also times the provider budgets instead of the
    server's clock.
    """

    backend: Literal["sqlite", "postgresql"] = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        password: str | None = None,
        timeout_s: float = 3.0,
        search_ttl_s: float = 86_400,
        page_ttl_s: float = 604_800,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.url = url
        self.location = _redacted(url)
        self.timeout_s = timeout_s
        self._password = password
        self._search_ttl_s = search_ttl_s
        self._page_ttl_s = page_ttl_s
        self._test_clock = clock
        self._clock = clock or time.time
        self._pool: AsyncConnectionPool[Any] | None = None
        self._opening: asyncio.Lock | None = None
        self._down_until = float("-inf")
        self._down_reason = ""
        self._next_prune = float("-inf")
        self.schema_version = 0
        self.writer = secrets.token_hex(8)
        """Who saved a finding: this store's own (see :meth:`.store.Cache.add_finding`)."""

    @classmethod
    def from_config(
        cls, cfg: CacheConfig, *, clock: Callable[[], float] | None = None
    ) -> PostgresStore:
        """The store at ``cfg.url``, with the password from ``cfg.password_env`` if set."""
        if cfg.url is None:
            raise ValueError("web.cache.url is not set")
        return cls(
            cfg.url,
            password=os.environ.get(cfg.password_env) or None,
            timeout_s=cfg.timeout_s,
            search_ttl_s=cfg.search_ttl_s,
            page_ttl_s=cfg.page_ttl_s,
            clock=clock,
        )

    # -- connection -------------------------------------------------------------------

    async def _open(self) -> AsyncConnectionPool[Any]:
        if self._pool is not None:
            return self._pool
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._pool is not None:
                return self._pool
            try:
                from psycopg import AsyncConnection
                from psycopg_pool import AsyncConnectionPool
            except ImportError as exc:
                raise ToolError(
                    "not_configured",
                    "web.cache.url names a PostgreSQL server, but psycopg is not installed",
                    hint=relay(_POSTGRES_EXTRA),
                    remedy=_POSTGRES_EXTRA,
                    retryable=False,
                ) from exc
            kwargs: dict[str, Any] = {
                "autocommit": True,
                "connect_timeout": max(2, round(self.timeout_s)),
                "application_name": "insomnia-web",
            }
            if self._password is not None:
                kwargs["password"] = self._password
            # One direct connection first: a refused or failed login is reported at once
            # (a pool would keep retrying until its timeout), and it migrates the schema.
            conn = await AsyncConnection.connect(self.url, **kwargs)
            try:
                self.schema_version = await _migrate(conn)
            finally:
                await conn.close()
            pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
                self.url,
                kwargs=kwargs,
                min_size=1,
                max_size=_POOL_MAX,
                open=False,
                timeout=self.timeout_s,
                name="insomnia-web-cache",
            )
            await pool.open(wait=False)
            self._pool = pool
            return pool

    async def _run(self, action: str, step: Step[T]) -> T:
        """Run *step* on a pooled connection within the deadline; errors become ToolErrors."""
        from psycopg import Error as PgError
        from psycopg import OperationalError
        from psycopg_pool import PoolTimeout

        if time.monotonic() < self._down_until:
            raise self._unavailable(action, self._down_reason)
        try:
            async with asyncio.timeout(self.timeout_s):
                pool = await self._open()
                async with pool.connection() as conn:
                    return await step(conn)
        except ToolError:
            raise
        except (TimeoutError, PoolTimeout, OperationalError, OSError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            if isinstance(exc, TimeoutError | PoolTimeout):
                reason = f"no answer within {self.timeout_s:g} s"
            self._down_until = time.monotonic() + RETRY_AFTER_S
            self._down_reason = reason
            await self._discard_pool()
            raise self._unavailable(action, reason) from exc
        except (PgError, msgspec.DecodeError, RecursionError) as exc:
            raise ToolError(
                "cache_error", f"cache {action} failed: {exc}", details={"action": action}
            ) from exc

    def _unavailable(self, action: str, reason: str) -> ToolError:
        return ToolError(
            "cache_unavailable",
            f"the cache database at {self.location} is unavailable ({reason})",
            details={"action": action, "backend": "postgresql"},
        )

    async def _discard_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close(timeout=1.0)

    async def aclose(self) -> None:
        """Close the pool (the next call opens a new one)."""
        await self._discard_pool()

    async def _now(self, conn: AsyncConnection[Any]) -> float:
        """The time that orders provider slots: the server's, unless a test clock is set."""
        if self._test_clock is not None:
            return self._test_clock()
        cur = await conn.execute(f"SELECT {_SERVER_NOW}")
        row = await cur.fetchone()
        return float(row[0]) if row else time.time()

    async def _maybe_prune(self, conn: AsyncConnection[Any]) -> None:
        now = self._clock()
        if now < self._next_prune:
            return
        self._next_prune = now + PRUNE_INTERVAL_S
        await conn.execute(
            "DELETE FROM searches WHERE created_at < %s", (now - self._search_ttl_s,)
        )
        await conn.execute("DELETE FROM findings WHERE expires_at <= %s", (now,))  # cascades
        await conn.execute("DELETE FROM snapshots WHERE fetched_at < %s", (now - self._page_ttl_s,))

    # -- searches ---------------------------------------------------------------------

    async def put_search(
        self, query: str, params: Mapping[str, object], provider: str, payload: bytes
    ) -> None:
        """See :meth:`.store.Cache.put_search`."""
        words = content_words(query)
        row = (
            canonical_params(params), normalize_query(query), _terms(words), len(words),
            query, provider, bytes(payload), self._clock(),
        )  # fmt: skip

        async def step(conn: AsyncConnection[Any]) -> None:
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO searches (params_key, norm_query, terms, n_terms, query, "
                    "provider, payload, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (params_key, norm_query) DO UPDATE SET terms = excluded.terms, "
                    "n_terms = excluded.n_terms, query = excluded.query, "
                    "provider = excluded.provider, payload = excluded.payload, "
                    "created_at = excluded.created_at",
                    row,
                )
                await self._maybe_prune(conn)

        await self._run("store search", step)

    async def get_search(
        self, query: str, params: Mapping[str, object], *, max_age_s: float
    ) -> SearchHit | None:
        """See :meth:`.store.Cache.get_search` (full-text candidates, same rules)."""
        params_key = canonical_params(params)
        words = content_words(query)
        now = self._clock()
        since, until = now - max_age_s, now + MAX_CLOCK_SKEW_S
        columns = "query, provider, created_at, payload"

        async def step(conn: AsyncConnection[Any]) -> SearchHit | None:
            cur = await conn.execute(
                f"SELECT {columns} FROM searches WHERE params_key = %s AND norm_query = %s "
                "AND created_at >= %s AND created_at <= %s",
                (params_key, normalize_query(query), since, until),
            )
            row = await cur.fetchone()
            if row is not None:
                return _hit("exact", row, now)
            if not words:
                return None
            cur = await conn.execute(
                f"SELECT {columns}, terms FROM searches "
                "WHERE terms_tsv @@ plainto_tsquery('simple', %s) AND params_key = %s "
                "AND created_at >= %s AND created_at <= %s AND n_terms <= %s "
                "ORDER BY n_terms, created_at DESC LIMIT %s",
                (
                    _terms(words),
                    params_key,
                    since,
                    until,
                    len(words) + MAX_EXTRA_WORDS,
                    _CANDIDATES,
                ),
            )
            rows = await cur.fetchall()
            best = next((r for r in rows if search_matches(words, r[4].split(" "))), None)
            return None if best is None else _hit("similar", best[:4], now)

        return await self._run("search lookup", step)

    # -- page snapshots ---------------------------------------------------------------

    async def put_snapshot(self, snapshot: Snapshot) -> Snapshot:
        """See :meth:`.store.Cache.put_snapshot`."""
        stored = msgspec.structs.replace(snapshot, hash=snapshot_hash(snapshot.text, snapshot.mode))
        values = (
            stored.hash, stored.url, stored.final_url, stored.mode, stored.title, stored.text,
            stored.status, stored.content_type, stored.charset, stored.bytes,
            stored.fetched_at, msgspec.json.encode(stored.redirects).decode(),
            stored.truncated, stored.download_truncated, _meta(stored), stored.scope,
        )  # fmt: skip
        key = {"url", "hash", "scope"}
        updates = ", ".join(
            f"{c} = excluded.{c}" for c in _SNAPSHOT_COLUMNS.split(", ") if c not in key
        )

        async def step(conn: AsyncConnection[Any]) -> None:
            async with conn.transaction():
                await conn.execute(
                    f"INSERT INTO snapshots ({_SNAPSHOT_COLUMNS}) VALUES "
                    f"({', '.join(['%s'] * _N_SNAPSHOT)}) ON CONFLICT (url, hash, scope) "
                    f"DO UPDATE SET {updates}",
                    values,
                )
                await self._maybe_prune(conn)

        await self._run("store page", step)
        return stored

    async def get_latest_snapshot(
        self, url: str, mode: str, *, max_age_s: float, scope: str = ""
    ) -> Snapshot | None:
        """See :meth:`.store.Cache.get_latest_snapshot`."""
        now = self._clock()

        async def step(conn: AsyncConnection[Any]) -> Snapshot | None:
            cur = await conn.execute(
                f"SELECT {_SNAPSHOT_COLUMNS} FROM snapshots "
                "WHERE (url = %s OR final_url = %s) AND mode = %s AND fetched_at >= %s "
                "AND fetched_at <= %s AND scope = %s "
                "ORDER BY fetched_at DESC LIMIT 1",
                (url, url, mode, now - max_age_s, now + MAX_CLOCK_SKEW_S, scope),
            )
            row = await cur.fetchone()
            return None if row is None else _snapshot(row)

        return await self._run("page lookup", step)

    # -- findings ---------------------------------------------------------------------

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
        query_words = content_words(query)
        now = self._clock()
        values = (
            query, content, source_url, _terms(query_words),
            _terms(query_words | content_words(content)), now, now + ttl_s, self.writer,
        )  # fmt: skip

        async def step(conn: AsyncConnection[Any]) -> int:
            async with conn.transaction():
                cur = await conn.execute(
                    "INSERT INTO findings (query, content, source_url, query_terms, terms, "
                    "origin, stored_at, expires_at, writer) "
                    "VALUES (%s, %s, %s, %s, %s, 'model', %s, %s, %s) RETURNING id",
                    values,
                )
                row = await cur.fetchone()
                own = (self.writer, self.writer, keep_own)  # deletes cascade
                await conn.execute(f"DELETE FROM findings WHERE id IN ({_OWN_BEYOND_KEPT})", own)
                await conn.execute(f"DELETE FROM findings WHERE id {_BEYOND_KEPT}", (keep,))
                await self._maybe_prune(conn)
            if row is None:  # pragma: no cover - INSERT ... RETURNING returns the row
                raise RuntimeError("the finding was not stored")
            return int(row[0])

        finding_id = await self._run("store finding", step)
        return Finding(
            id=finding_id, query=query, content=content, source_url=source_url,
            stored_at=now, expires_at=now + ttl_s,
        )  # fmt: skip

    async def find_findings(self, query: str, *, limit: int = 3, scope: str = "") -> list[Finding]:
        """See :meth:`.store.Cache.find_findings` (matches ranked by ``ts_rank``)."""
        words = content_words(query)
        if not words or limit <= 0:
            return []
        now = self._clock()

        async def step(conn: AsyncConnection[Any]) -> list[Any]:
            cur = await conn.execute(
                f"SELECT {_FINDING_COLUMNS}, d.query_terms, d.terms "
                f"FROM plainto_tsquery('simple', %s) q, findings d {_VERIFIED} "
                "WHERE d.terms_tsv @@ q AND d.expires_at > %s "
                f"ORDER BY {_FINDINGS_FIRST}, ts_rank(d.terms_tsv, q) DESC, d.stored_at DESC "
                "LIMIT %s",
                (_terms(words), scope, now, self.writer, _CANDIDATES),
            )
            return await cur.fetchall()

        rows = await self._run("finding lookup", step)
        n = _N_FINDING
        found = [
            _finding(r[:n]) for r in rows if finding_matches(words, r[n].split(), r[n + 1].split())
        ]
        return found[:limit]

    async def mark_verified(
        self, finding_id: int, *, verified_by_url: str, scope: str = ""
    ) -> bool:
        """See :meth:`.store.Cache.mark_verified`."""

        async def step(conn: AsyncConnection[Any]) -> bool:
            cur = await conn.execute(
                "INSERT INTO finding_verifications (finding_id, scope, verified_by_url, "
                "verified_at) SELECT id, %s, %s, %s FROM findings WHERE id = %s "
                "ON CONFLICT (finding_id, scope) DO UPDATE SET "
                "verified_by_url = excluded.verified_by_url, verified_at = excluded.verified_at",
                (scope, verified_by_url, self._clock(), finding_id),
            )
            return cur.rowcount > 0

        return await self._run("verify finding", step)

    async def findings_for_source(
        self, url: str, *, scope: str = "", limit: int | None = None
    ) -> list[Finding]:
        """See :meth:`.store.Cache.findings_for_source`."""
        now = self._clock()

        async def step(conn: AsyncConnection[Any]) -> list[Finding]:
            cur = await conn.execute(
                f"SELECT {_FINDING_COLUMNS} FROM findings d {_VERIFIED} "
                "WHERE d.source_url = %s AND v.finding_id IS NULL AND d.expires_at > %s "
                "ORDER BY d.writer = %s DESC, d.id DESC LIMIT %s",
                (scope, url, now, self.writer, limit),
            )
            return [_finding(r) for r in await cur.fetchall()]

        return await self._run("finding lookup", step)

    # -- provider budgets -------------------------------------------------------------

    async def take_slot(
        self,
        bucket: str,
        *,
        interval_s: float,
        max_wait_s: float | None,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> Slot:
        """Reserve the next slot of *bucket*, holding its row lock (see :mod:`.budget`).

        Time spent connecting and waiting for the lock counts against *max_wait_s*.
        """
        started = time.monotonic()

        async def step(conn: AsyncConnection[Any]) -> Slot:
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO rate_buckets (name, next_free, hold_until) VALUES (%s, 0, 0) "
                    "ON CONFLICT (name) DO NOTHING",
                    (bucket,),
                )
                cur = await conn.execute(
                    "SELECT next_free, hold_until, interval_s FROM rate_buckets "
                    "WHERE name = %s FOR UPDATE",
                    (bucket,),
                )
                row = await cur.fetchone()
                next_free, hold_until, last_interval = row if row is not None else (0.0, 0.0, 0.0)
                now = await self._now(conn)
                left = None if max_wait_s is None else max_wait_s - (time.monotonic() - started)
                cur = await conn.execute(
                    "SELECT coalesce(sum(requests), 0), "
                    "coalesce(sum(CASE WHEN day = %s THEN requests END), 0) "
                    "FROM provider_usage WHERE name = %s AND day >= %s AND day < %s",
                    (day_key(now), bucket, month_key(now), month_key(now) + "~"),
                )
                used_row = await cur.fetchone()
                used, today = (int(used_row[0]), int(used_row[1])) if used_row else (0, 0)
                wait = plan_slot(
                    bucket=bucket, now=now, next_free=next_free, hold_until=hold_until,
                    last_interval_s=last_interval, interval_s=interval_s, max_wait_s=left,
                    month_requests=used, monthly_limit=monthly_limit,
                    day_requests=today, daily_limit=daily_limit,
                )  # fmt: skip
                await conn.execute(
                    "UPDATE rate_buckets SET next_free = %s, interval_s = %s WHERE name = %s",
                    (now + wait + interval_s, interval_s, bucket),
                )
                await conn.execute(
                    "INSERT INTO provider_usage (name, day, requests) VALUES (%s, %s, 1) "
                    "ON CONFLICT (name, day) DO UPDATE "
                    "SET requests = provider_usage.requests + 1",
                    (bucket, day_key(now)),
                )
            return Slot(wait_s=wait, month_requests=used + 1)

        return await self._run("rate limit", step)

    async def hold(self, bucket: str, seconds: float) -> None:
        """See :meth:`.store.Cache.hold`."""

        async def step(conn: AsyncConnection[Any]) -> None:
            until = await self._now(conn) + hold_span(seconds)
            await conn.execute(
                "INSERT INTO rate_buckets (name, next_free, hold_until) VALUES (%s, %s, %s) "
                "ON CONFLICT (name) DO UPDATE "
                "SET hold_until = greatest(rate_buckets.hold_until, excluded.hold_until)",
                (bucket, until, until),
            )

        await self._run("rate limit", step)

    async def usage(self) -> list[ProviderUsage]:
        """See :meth:`.store.Cache.usage`."""
        return await self._run("usage", self._usage)

    async def _usage(self, conn: AsyncConnection[Any]) -> list[ProviderUsage]:
        now = self._clock()
        day, month = day_key(now), month_key(now)
        cur = await conn.execute(
            "SELECT name, sum(CASE WHEN day = %s THEN requests ELSE 0 END), sum(requests) "
            "FROM provider_usage WHERE day >= %s AND day < %s GROUP BY name ORDER BY name",
            (day, month, month + "~"),
        )
        return [
            ProviderUsage(bucket=name, today=int(today), month=int(total))
            for name, today, total in await cur.fetchall()
        ]

    # -- maintenance ------------------------------------------------------------------

    async def stats(self) -> CacheStats:
        """Row counts, table sizes, the server version and provider usage."""

        async def step(conn: AsyncConnection[Any]) -> CacheStats:
            counts = []
            for table in ("searches", "snapshots", "findings"):
                cur = await conn.execute(f"SELECT count(*) FROM {table}")
                row = await cur.fetchone()
                counts.append(int(row[0]) if row else 0)
            cur = await conn.execute(
                "SELECT sum(pg_total_relation_size(t::regclass)) FROM "
                "unnest(ARRAY['searches', 'snapshots', 'findings']) t"
            )
            size_row = await cur.fetchone()
            cur = await conn.execute("SHOW server_version")
            version_row = await cur.fetchone()
            return CacheStats(
                path=self.location, exists=True,
                file_bytes=int(size_row[0] or 0) if size_row else 0,
                searches=counts[0], pages=counts[1], findings=counts[2], fts5=True,
                sqlite_version="", backend="postgresql",
                server_version=str(version_row[0]) if version_row else None,
                usage=await self._usage(conn),
            )  # fmt: skip

        return await self._run("stats", step)

    async def clear(self, what: StoreName = "all") -> int:
        """Delete every row of one store (or all); return how many rows were deleted."""
        tables = {
            "searches": ("searches",),
            "pages": ("snapshots",),
            "findings": ("findings",),
            "all": ("searches", "snapshots", "findings"),
        }[what]

        async def step(conn: AsyncConnection[Any]) -> int:
            deleted = 0
            async with conn.transaction():
                for table in tables:
                    cur = await conn.execute(f"DELETE FROM {table}")
                    deleted += max(cur.rowcount, 0)
            return deleted

        return await self._run("clear", step)


async def _migrate(conn: AsyncConnection[Any]) -> int:
    """Apply the packaged migrations the database lacks; return its schema version."""
    steps = migrations()
    latest = steps[-1][0] if steps else 0
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_ID,))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS insomnia_web_schema (version integer PRIMARY KEY, "
            "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        cur = await conn.execute("SELECT coalesce(max(version), 0) FROM insomnia_web_schema")
        row = await cur.fetchone()
        current = int(row[0]) if row else 0
        if current > latest:
            raise ToolError(
                "cache_error",
                f"the cache database has schema version {current}; this version of "
                f"insomnia-web understands up to {latest}",
                hint=relay(_NEWER_SCHEMA),
                remedy=_NEWER_SCHEMA,
                retryable=False,
            )
        for version, name, sql in steps:
            if version > current:
                await conn.execute(sql.encode())  # trusted SQL shipped in the package
                await conn.execute(
                    "INSERT INTO insomnia_web_schema (version, name) VALUES (%s, %s)",
                    (version, name),
                )
    return max(current, latest)
