"""The :class:`Cache`: searches, page snapshots and findings in one SQLite file."""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Literal, Self

import msgspec

from ..config import CacheConfig
from ..errors import ToolError
from ..manifest_path import cache_file, expand_home
from .base import MAX_FINDINGS, MAX_OWN_FINDINGS
from .budget import ProviderUsage, Slot, day_key, hold_span, month_key, plan_slot
from .models import CacheStats, Finding, SearchHit, Snapshot, snapshot_hash
from .schema import BUSY_TIMEOUT_MS, open_database
from .similarity import (
    MAX_EXTRA_WORDS,
    content_words,
    finding_matches,
    fts_query,
    normalize_query,
    search_matches,
)

__all__ = ["LOCKED_SKIP_S", "MAX_CLOCK_SKEW_S", "Cache", "canonical_params"]

Store = Literal["all", "searches", "pages", "findings"]

PRUNE_INTERVAL_S = 600.0
"""Expired rows are deleted by the first write after this many seconds (per Cache object)."""
LOCKED_SKIP_S = 30.0
"""After a step found the file locked by another process past its wait, writes fail at once
(``cache_unavailable``) for this many seconds instead of each waiting out the busy timeout."""
SLOT_LOCK_WAIT_S = 2.0
"""Longest wait for the write lock to take a request slot (within the caller's deadline):
past it the slot is ``cache_unavailable`` and the search goes on with its process's own
bucket, rather than spend its deadline waiting."""
MAX_CLOCK_SKEW_S = 300.0
"""A stored answer or page dated further ahead than this is not served: a host whose clock
runs ahead would have it shown as brand new (and past its freshness) to every other."""
TOUCH_INTERVAL_S = 60.0
"""A read marks a row used again only when its mark is older than this (reads stay reads)."""
EVICT_TARGET = 0.9
"""Past the size cap, least recently used rows go until the file is this fraction of it."""
_EVICT_BATCH = 32
_CANDIDATES = 50  # similar-match candidates examined per lookup
_NO_FTS_FINDINGS_SCAN = 500  # newest unexpired findings scanned when FTS5 is missing
_IGNORED_PARAMS = frozenset({"force_fresh"})
_DEFAULTS = CacheConfig()

_SNAPSHOT_COLUMNS = (
    "hash, url, final_url, mode, title, text, status, content_type, charset, bytes, "
    "fetched_at, redirects, truncated, download_truncated, meta, scope"
)
_N_SNAPSHOT = len(_SNAPSHOT_COLUMNS.split(", "))
_FINDING_COLUMNS = (
    "d.id, d.query, d.content, d.source_url, d.origin, d.stored_at, d.expires_at, v.verified_by_url"
)
"""A finding ``d`` and its verification ``v`` under one network view (:data:`_VERIFIED_JOIN`)."""
_N_FINDING = len(_FINDING_COLUMNS.split(", "))
_VERIFIED_JOIN = "LEFT JOIN finding_verifications v ON v.finding_id = d.id AND v.scope = {mark}"
"""Joins a finding ``d`` to its verification under the network view bound at *mark*."""
_VERIFIED = _VERIFIED_JOIN.format(mark="?")
_FINDINGS_FIRST_SQL = "v.finding_id IS NULL, d.writer = {mark} DESC"
"""The first order of findings shown: verified (joined ``v``), then the store's own (bound)."""
_FINDINGS_FIRST = _FINDINGS_FIRST_SQL.format(mark="?")
_BEYOND_KEPT_SQL = "<= (SELECT id FROM findings ORDER BY id DESC LIMIT 1 OFFSET {mark})"
"""The findings older than the newest N (N bound to the mark): deleted past the cap."""
_BEYOND_KEPT = _BEYOND_KEPT_SQL.format(mark="?")
_OWN_BEYOND_KEPT_SQL = (
    "SELECT id FROM findings WHERE writer = {mark} AND id <= (SELECT id FROM findings "
    "WHERE writer = {mark} ORDER BY id DESC LIMIT 1 OFFSET {mark})"
)
"""The findings of one writer older than its newest N (bound: writer, writer, N)."""
_OWN_BEYOND_KEPT = _OWN_BEYOND_KEPT_SQL.format(mark="?")
_redirects_decoder = msgspec.json.Decoder(list[str])
_META_FIELDS = ("pages", "author", "published", "modified")
_meta_decoder = msgspec.json.Decoder(dict[str, Any])


def canonical_params(params: Mapping[str, object]) -> str:
    """The cache key form of search parameters: sorted-key JSON, without ``None`` values.

    ``force_fresh`` is dropped (it says whether to read the cache, not what was searched).
    List order is kept, so callers sort lists whose order does not matter (domain filters).
    """
    kept = {k: v for k, v in params.items() if v is not None and k not in _IGNORED_PARAMS}
    return msgspec.json.encode(kept, order="sorted").decode()


def _terms(words: frozenset[str]) -> str:
    return " ".join(sorted(words))


class Cache:
    """The local cache: one SQLite file, safe to share between threads and processes.

    The connection is opened on first use (never at construction), with parent directories
    created and ``~`` expanded. Methods are synchronous and quick; async callers may run them
    with :func:`asyncio.to_thread` (a lock serialises them). Every SQLite or file-system
    failure is raised as ``ToolError("cache_error", ...)``. Close with :meth:`close` or use
    the cache as a context manager.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        search_ttl_s: float = _DEFAULTS.search_ttl_s,
        page_ttl_s: float = _DEFAULTS.page_ttl_s,
        max_bytes: int | None = None,
    ) -> None:
        self.path = expand_home(os.fspath(path))
        self.max_bytes = max_bytes
        """Size cap of the stored searches and pages; ``None``: no cap."""
        self._clock = clock
        self._search_ttl_s = search_ttl_s
        self._page_ttl_s = page_ttl_s
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._fts = False
        self._next_prune = float("-inf")
        self._locked_until = float("-inf")
        self.writer = secrets.token_hex(8)
        """Who saved a finding: this cache's own, so that :meth:`add_finding` bounds the
        findings of one agent apart from the others'."""

    @classmethod
    def from_config(cls, cfg: CacheConfig, *, clock: Callable[[], float] = time.time) -> Cache:
        """A cache at ``cfg.path`` (:func:`~..manifest_path.cache_file`) pruning rows past the
        TTLs and the file past ``max_mb``."""
        return cls(
            cache_file(cfg.path),
            clock=clock,
            search_ttl_s=cfg.search_ttl_s,
            page_ttl_s=cfg.page_ttl_s,
            max_bytes=None if cfg.max_mb is None else cfg.max_mb * 1024 * 1024,
        )

    # -- connection -------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (if open); the next call opens it again."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _use(self, action: str) -> Iterator[sqlite3.Connection]:
        """The open connection, under the lock, with errors turned into ``cache_error`` (and
        a file another process kept locked into ``cache_unavailable``)."""
        with self._lock:
            try:
                if self._conn is None:
                    self._conn, self._fts = open_database(self.path)
                yield self._conn
            except (sqlite3.Error, OSError, msgspec.DecodeError, RecursionError) as exc:
                if _busy(exc):
                    self._locked_until = self._clock() + LOCKED_SKIP_S
                    raise self._locked(action, "kept it locked too long") from exc
                raise ToolError(
                    "cache_error", f"cache {action} failed: {exc}", details={"action": action}
                ) from exc

    def _locked(self, action: str, why: str) -> ToolError:
        return ToolError(
            "cache_unavailable",
            f"the cache file is locked: another process {why}; cache writes are skipped "
            f"for {LOCKED_SKIP_S:g} s",
            hint="The call went on without the cache; nothing to retry. Tell the user if "
            "another program keeps the cache file locked.",
            remedy="If another program keeps the cache file locked, stop it, or give this "
            "host a cache file of its own (web.cache.path).",
            details={"action": action, "backend": "sqlite"},
        )

    @contextmanager
    def _write(self, action: str, *, wait_s: float | None = None) -> Iterator[sqlite3.Connection]:
        """Like :meth:`_use`, inside one short ``BEGIN IMMEDIATE`` transaction.

        The write lock is waited for at most *wait_s* (default: the busy timeout); a file
        found locked is not waited for again for :data:`LOCKED_SKIP_S`.
        """
        with self._use(action) as conn:
            if self._clock() < self._locked_until:
                raise self._locked(action, "kept it locked a moment ago")
            self._begin(conn, wait_s)
            try:
                yield conn
                self._maybe_prune(conn)
                self._maybe_evict(conn)
                conn.execute("COMMIT")
            except BaseException:
                conn.rollback()
                raise

    @staticmethod
    def _begin(conn: sqlite3.Connection, wait_s: float | None) -> None:
        """``BEGIN IMMEDIATE``, waiting for another writer at most *wait_s* seconds."""
        if wait_s is None:
            conn.execute("BEGIN IMMEDIATE")
            return
        conn.execute(f"PRAGMA busy_timeout = {max(0, min(int(wait_s * 1000), BUSY_TIMEOUT_MS))}")
        try:
            conn.execute("BEGIN IMMEDIATE")
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def _maybe_prune(self, conn: sqlite3.Connection) -> None:
        now = self._clock()
        if now < self._next_prune:
            return
        self._next_prune = now + PRUNE_INTERVAL_S
        old_search = now - self._search_ttl_s
        if self._fts:
            conn.execute(
                "DELETE FROM searches_fts WHERE rowid IN "
                "(SELECT id FROM searches WHERE created_at < ?)",
                (old_search,),
            )
            conn.execute(
                "DELETE FROM findings_fts WHERE rowid IN "
                "(SELECT id FROM findings WHERE expires_at <= ?)",
                (now,),
            )
        conn.execute("DELETE FROM searches WHERE created_at < ?", (old_search,))
        conn.execute("DELETE FROM findings WHERE expires_at <= ?", (now,))  # and verifications
        conn.execute("DELETE FROM snapshots WHERE fetched_at < ?", (now - self._page_ttl_s,))

    def _used_bytes(self, conn: sqlite3.Connection) -> int:
        """Bytes of the file's pages in use (freed pages are reused, not counted)."""
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        size: int = conn.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * size)

    def _maybe_evict(self, conn: sqlite3.Connection) -> None:
        """Past :attr:`max_bytes`, delete the least recently used searches and pages.

        Findings are never evicted: they are what a model chose to keep.
        """
        if self.max_bytes is None or self._used_bytes(conn) <= self.max_bytes:
            return
        target = self.max_bytes * EVICT_TARGET
        while True:
            rows = conn.execute(
                "SELECT 'searches', id, used_at FROM searches UNION ALL "
                "SELECT 'snapshots', id, used_at FROM snapshots ORDER BY 3 LIMIT ?",
                (_EVICT_BATCH,),
            ).fetchall()
            if not rows:
                return
            for table, row_id, _ in rows:
                if table == "searches" and self._fts:
                    conn.execute("DELETE FROM searches_fts WHERE rowid = ?", (row_id,))
                conn.execute(f"DELETE FROM {table} WHERE id = ?", (row_id,))
                if self._used_bytes(conn) <= target:
                    return

    def _touch(self, conn: sqlite3.Connection, table: str, row_id: int, used_at: float) -> None:
        """Mark a row read now (for eviction), at most once per :data:`TOUCH_INTERVAL_S`."""
        now = self._clock()
        if self.max_bytes is None or now - used_at < TOUCH_INTERVAL_S:
            return
        conn.execute(f"UPDATE {table} SET used_at = ? WHERE id = ?", (now, row_id))

    # -- searches ---------------------------------------------------------------------

    def put_search(
        self, query: str, params: Mapping[str, object], provider: str, payload: bytes
    ) -> None:
        """Store a provider response for *query* and *params*, replacing an older one."""
        words = content_words(query)
        row = (
            canonical_params(params),
            normalize_query(query),
            _terms(words),
            len(words),
            query,
            provider,
            bytes(payload),
            self._clock(),
        )
        with self._write("store search") as conn:
            if self._fts:
                conn.execute(
                    "DELETE FROM searches_fts WHERE rowid IN (SELECT id FROM searches "
                    "WHERE params_key = ? AND norm_query = ?)",
                    row[:2],
                )
            conn.execute("DELETE FROM searches WHERE params_key = ? AND norm_query = ?", row[:2])
            cur = conn.execute(
                "INSERT INTO searches (params_key, norm_query, terms, n_terms, query, "
                "provider, payload, created_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*row, row[-1]),
            )
            if self._fts:
                conn.execute(
                    "INSERT INTO searches_fts (rowid, terms) VALUES (?, ?)",
                    (cur.lastrowid, row[2]),
                )

    def get_search(
        self, query: str, params: Mapping[str, object], *, max_age_s: float
    ) -> SearchHit | None:
        """The freshest usable cached response for *query* with exactly these *params*.

        An ``exact`` hit (same normalised query) wins; otherwise a ``similar`` one, as
        decided by :func:`~insomnia_web.cache.similarity.search_matches` (fewest extra words first,
        then the freshest). Rows older than *max_age_s* are never returned. Without FTS5,
        only queries with the same content words are found as similar.
        """
        params_key = canonical_params(params)
        words = content_words(query)
        now = self._clock()
        since, until = now - max_age_s, now + MAX_CLOCK_SKEW_S
        columns = "s.query, s.provider, s.created_at, s.payload, s.id, s.used_at, s.terms"
        with self._use("search lookup") as conn:
            row = conn.execute(
                f"SELECT {columns} FROM searches s WHERE params_key = ? AND norm_query = ? "
                "AND created_at >= ? AND created_at <= ?",
                (params_key, normalize_query(query), since, until),
            ).fetchone()
            if row is not None:
                self._touch(conn, "searches", row[4], row[5])
                return _hit("exact", row[:4], now)
            if not words:
                return None
            if self._fts:
                rows = conn.execute(
                    f"SELECT {columns} FROM searches_fts f "
                    "JOIN searches s ON s.id = f.rowid WHERE searches_fts MATCH ? "
                    "AND s.params_key = ? AND s.created_at >= ? AND s.created_at <= ? "
                    "AND s.n_terms <= ? ORDER BY s.n_terms, s.created_at DESC LIMIT ?",
                    (
                        fts_query(words),
                        params_key,
                        since,
                        until,
                        len(words) + MAX_EXTRA_WORDS,
                        _CANDIDATES,
                    ),
                ).fetchall()
            else:
                rows = conn.execute(
                    f"SELECT {columns} FROM searches s WHERE params_key = ? AND terms = ? "
                    "AND created_at >= ? AND created_at <= ? ORDER BY created_at DESC LIMIT 1",
                    (params_key, _terms(words), since, until),
                ).fetchall()
            # Rows come fewest terms first, then newest first: the first match is the best.
            best = next((r for r in rows if search_matches(words, _words_of(r[6]))), None)
            if best is None:
                return None
            self._touch(conn, "searches", best[4], best[5])
            return _hit("similar", best[:4], now)

    # -- page snapshots ---------------------------------------------------------------

    def put_snapshot(self, snapshot: Snapshot) -> Snapshot:
        """Store a page version; return it with its content ``hash`` filled in.

        One row per requested URL, content and network view (:attr:`.models.Snapshot.scope`):
        storing the same text under the same view again only refreshes it (``fetched_at``
        and the response details); under another view it is another row, so each view keeps
        its own copy.
        """
        stored = msgspec.structs.replace(snapshot, hash=snapshot_hash(snapshot.text, snapshot.mode))
        values = (
            stored.hash, stored.url, stored.final_url, stored.mode, stored.title, stored.text,
            stored.status, stored.content_type, stored.charset, stored.bytes,
            stored.fetched_at, msgspec.json.encode(stored.redirects).decode(),
            int(stored.truncated), int(stored.download_truncated), _meta(stored), stored.scope,
            self._clock(),
        )  # fmt: skip
        with self._write("store page") as conn:
            conn.execute(
                f"INSERT OR REPLACE INTO snapshots ({_SNAPSHOT_COLUMNS}, used_at) "
                f"VALUES ({', '.join(['?'] * (_N_SNAPSHOT + 1))})",
                values,
            )
        return stored

    def get_latest_snapshot(
        self, url: str, mode: str, *, max_age_s: float, scope: str = ""
    ) -> Snapshot | None:
        """The newest version of *url* (requested or final URL) in *mode*, if young enough,
        read under the network view *scope* (see :attr:`.models.Snapshot.scope`)."""
        now = self._clock()
        with self._use("page lookup") as conn:
            row = conn.execute(
                f"SELECT {_SNAPSHOT_COLUMNS}, id, used_at FROM snapshots "
                "WHERE (url = ? OR final_url = ?) AND mode = ? AND fetched_at >= ? "
                "AND fetched_at <= ? AND scope = ? "
                "ORDER BY fetched_at DESC LIMIT 1",
                (url, url, mode, now - max_age_s, now + MAX_CLOCK_SKEW_S, scope),
            ).fetchone()
            if row is None:
                return None
            self._touch(conn, "snapshots", row[_N_SNAPSHOT], row[_N_SNAPSHOT + 1])
            return _snapshot(row[:_N_SNAPSHOT])

    # -- findings ---------------------------------------------------------------------

    def add_finding(
        self,
        query: str,
        content: str,
        source_url: str | None = None,
        *,
        ttl_s: float,
        keep: int = MAX_FINDINGS,
        keep_own: int = MAX_OWN_FINDINGS,
    ) -> Finding:
        """Store a model-contributed fact (unverified) that expires after *ttl_s* seconds;
        the oldest of this cache's own findings beyond its newest *keep_own*
        (:data:`.base.MAX_OWN_FINDINGS`), then the oldest findings beyond the newest *keep*
        (:data:`.base.MAX_FINDINGS`), are deleted."""
        query_words = content_words(query)
        now = self._clock()
        own = (self.writer, self.writer, keep_own)
        with self._write("store finding") as conn:
            cur = conn.execute(
                "INSERT INTO findings (query, content, source_url, query_terms, terms, origin, "
                "stored_at, expires_at, writer) VALUES (?, ?, ?, ?, ?, 'model', ?, ?, ?)",
                (
                    query, content, source_url, _terms(query_words),
                    _terms(query_words | content_words(content)), now, now + ttl_s, self.writer,
                ),
            )  # fmt: skip
            finding_id = cur.lastrowid
            if finding_id is None:  # pragma: no cover - sqlite3 sets it after an INSERT
                raise RuntimeError("the finding was not stored")
            if self._fts:
                conn.execute(
                    "INSERT INTO findings_fts (rowid, terms) "
                    "SELECT id, terms FROM findings WHERE id = ?",
                    (finding_id,),
                )
                conn.execute(f"DELETE FROM findings_fts WHERE rowid IN ({_OWN_BEYOND_KEPT})", own)
                conn.execute(f"DELETE FROM findings_fts WHERE rowid {_BEYOND_KEPT}", (keep,))
            conn.execute(f"DELETE FROM findings WHERE id IN ({_OWN_BEYOND_KEPT})", own)
            conn.execute(f"DELETE FROM findings WHERE id {_BEYOND_KEPT}", (keep,))
        return Finding(
            id=finding_id,
            query=query,
            content=content,
            source_url=source_url,
            stored_at=now,
            expires_at=now + ttl_s,
        )

    def find_findings(self, query: str, *, limit: int = 3, scope: str = "") -> list[Finding]:
        """Unexpired findings relevant to *query* (see :func:`.text.finding_matches`),
        verified or not under the network view *scope*.

        Those verified under *scope* come first, then this cache's own (another agent's
        findings on the question, however many, hide neither), then with FTS5 the best
        bm25 matches, without it the newest.
        """
        words = content_words(query)
        if not words or limit <= 0:
            return []
        now = self._clock()
        columns = f"{_FINDING_COLUMNS}, d.query_terms, d.terms"
        with self._use("finding lookup") as conn:
            if self._fts:
                rows = conn.execute(
                    f"SELECT {columns} FROM findings_fts f JOIN findings d ON d.id = f.rowid "
                    f"{_VERIFIED} WHERE findings_fts MATCH ? AND d.expires_at > ? "
                    f"ORDER BY {_FINDINGS_FIRST}, f.rank, d.stored_at DESC LIMIT ?",
                    (scope, fts_query(words), now, self.writer, _CANDIDATES),
                ).fetchall()
            else:
                rows = conn.execute(
                    f"SELECT {columns} FROM findings d {_VERIFIED} WHERE d.expires_at > ? "
                    f"ORDER BY {_FINDINGS_FIRST}, d.stored_at DESC LIMIT ?",
                    (scope, now, self.writer, _NO_FTS_FINDINGS_SCAN),
                ).fetchall()
            n = _N_FINDING
            found = [
                _finding(r[:n])
                for r in rows
                if finding_matches(words, _words_of(r[n]), _words_of(r[n + 1]))
            ]
        return found[:limit]

    def mark_verified(self, finding_id: int, *, verified_by_url: str, scope: str = "") -> bool:
        """Mark a finding verified by a page fetched under the network view *scope* (its
        verifications under other views stay); False if no such finding exists."""
        with self._write("verify finding") as conn:
            cur = conn.execute(
                "INSERT INTO finding_verifications (finding_id, scope, verified_by_url, "
                "verified_at) SELECT id, ?, ?, ? FROM findings WHERE id = ? "
                "ON CONFLICT (finding_id, scope) DO UPDATE SET "
                "verified_by_url = excluded.verified_by_url, verified_at = excluded.verified_at",
                (scope, verified_by_url, self._clock(), finding_id),
            )
            return cur.rowcount > 0

    def findings_for_source(
        self, url: str, *, scope: str = "", limit: int | None = None
    ) -> list[Finding]:
        """Unexpired findings whose ``source_url`` is exactly *url*, not yet verified under
        the network view *scope*: *limit* of them (all when ``None``), this cache's own
        first, then newest first. Another agent's findings for the URL, however many, do
        not keep this agent's from being compared with the page."""
        with self._use("finding lookup") as conn:
            rows = conn.execute(
                f"SELECT {_FINDING_COLUMNS} FROM findings d {_VERIFIED} "
                "WHERE d.source_url = ? AND v.finding_id IS NULL AND d.expires_at > ? "
                "ORDER BY d.writer = ? DESC, d.id DESC LIMIT ?",
                (scope, url, self._clock(), self.writer, -1 if limit is None else limit),
            ).fetchall()
            return [_finding(r) for r in rows]

    # -- provider budgets ---------------------------------------------------------------

    def take_slot(
        self,
        bucket: str,
        *,
        interval_s: float,
        max_wait_s: float | None,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> Slot:
        """Reserve the next request slot of *bucket* (one ``BEGIN IMMEDIATE``; see budget).

        Time spent waiting for the write lock counts against *max_wait_s*; the lock is
        waited for at most :data:`SLOT_LOCK_WAIT_S` and never past *max_wait_s*
        (``cache_unavailable``).
        """
        started = time.monotonic()
        lock_wait = None if max_wait_s is None else min(max_wait_s, SLOT_LOCK_WAIT_S)
        with self._write("rate limit", wait_s=lock_wait) as conn:
            now = self._clock()
            if max_wait_s is not None:
                max_wait_s -= time.monotonic() - started
            row = conn.execute(
                "SELECT next_free, hold_until, interval_s FROM rate_buckets WHERE name = ?",
                (bucket,),
            ).fetchone()
            next_free, hold_until, last_interval = (now, now, 0.0) if row is None else _times(row)
            (used, today) = conn.execute(
                "SELECT coalesce(sum(requests), 0), "
                "coalesce(sum(CASE WHEN day = ? THEN requests END), 0) FROM provider_usage "
                "WHERE name = ? AND day >= ? AND day < ?",
                (day_key(now), bucket, month_key(now), month_key(now) + "~"),
            ).fetchone()
            wait = plan_slot(
                bucket=bucket, now=now, next_free=next_free, hold_until=hold_until,
                last_interval_s=last_interval, interval_s=interval_s, max_wait_s=max_wait_s,
                month_requests=used, monthly_limit=monthly_limit,
                day_requests=today, daily_limit=daily_limit,
            )  # fmt: skip
            conn.execute(
                "INSERT INTO rate_buckets (name, next_free, hold_until, interval_s) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE "
                "SET next_free = excluded.next_free, interval_s = excluded.interval_s",
                (bucket, now + wait + interval_s, hold_until, interval_s),
            )
            conn.execute(
                "INSERT INTO provider_usage (name, day, requests) VALUES (?, ?, 1) "
                "ON CONFLICT (name, day) DO UPDATE SET requests = requests + 1",
                (bucket, day_key(now)),
            )
        return Slot(wait_s=wait, month_requests=used + 1)

    def hold(self, bucket: str, seconds: float) -> None:
        """Start no request of *bucket*, in any process, for *seconds* (a provider's 429)."""
        with self._write("rate limit") as conn:
            until = self._clock() + hold_span(seconds)
            conn.execute(
                "INSERT INTO rate_buckets (name, next_free, hold_until) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE "
                "SET hold_until = max(hold_until, excluded.hold_until)",
                (bucket, until, until),
            )

    def usage(self) -> list[ProviderUsage]:
        """Requests per bucket today and this month (UTC)."""
        if self._conn is None and not self.path.exists():
            return []
        now = self._clock()
        with self._use("usage") as conn:
            return _usage(conn, day_key(now), month_key(now))

    # -- maintenance ------------------------------------------------------------------

    def stats(self) -> CacheStats:
        """Row counts and file size; a cache file that does not exist yet is not created."""
        if self._conn is None and not self.path.exists():
            return CacheStats(
                path=str(self.path), exists=False, file_bytes=0, searches=0, pages=0,
                findings=0, fts5=False, sqlite_version=sqlite3.sqlite_version,
            )  # fmt: skip
        with self._use("stats") as conn:
            counts = [
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("searches", "snapshots", "findings")
            ]
            fts = self._fts
            now = self._clock()
            usage = _usage(conn, day_key(now), month_key(now))
        size = sum(
            p.stat().st_size
            for p in (self.path, self.path.with_name(self.path.name + "-wal"))
            if p.exists()
        )
        return CacheStats(
            path=str(self.path), exists=True, file_bytes=size, searches=counts[0],
            pages=counts[1], findings=counts[2], fts5=fts,
            sqlite_version=sqlite3.sqlite_version, usage=usage,
        )  # fmt: skip

    def clear(self, what: Store = "all") -> int:
        """Delete every row of one store (or all); return how many rows were deleted."""
        tables = {
            "searches": ("searches",),
            "pages": ("snapshots",),
            "findings": ("findings",),
            "all": ("searches", "snapshots", "findings"),
        }[what]
        if self._conn is None and not self.path.exists():
            return 0
        deleted = 0
        with self._write("clear") as conn:
            for table in tables:
                if self._fts and table != "snapshots":
                    conn.execute(f"DELETE FROM {table}_fts")
                deleted += conn.execute(f"DELETE FROM {table}").rowcount
        return deleted


def _busy(exc: BaseException) -> bool:
    """Whether *exc* is SQLite giving up on a lock another connection holds."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _usage(conn: sqlite3.Connection, day: str, month: str) -> list[ProviderUsage]:
    rows = conn.execute(
        "SELECT name, sum(CASE WHEN day = ? THEN requests ELSE 0 END), sum(requests) "
        "FROM provider_usage WHERE day >= ? AND day < ? GROUP BY name ORDER BY name",
        (day, month, month + "~"),
    ).fetchall()
    return [ProviderUsage(bucket=name, today=today, month=total) for name, today, total in rows]


# Rows are converted to their Structs with msgspec.convert, which checks every value's type:
# a file another program wrote (or tampered with) gives a ValidationError, which the cache
# raises as cache_error, never a value of the wrong type handed to the tools.


def _times(row: Any) -> tuple[float, float, float]:
    """A budget row's ``next_free``, ``hold_until`` and ``interval_s``, checked to be numbers."""
    return msgspec.convert(tuple(row), tuple[float, float, float])


def _words_of(value: object) -> list[str]:
    """The space-separated words of a ``terms`` column (nothing, if it holds no text)."""
    return value.split() if isinstance(value, str) else []


def _hit(match: Literal["exact", "similar"], row: Any, now: float) -> SearchHit:
    query, provider, created_at, payload = row
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise msgspec.ValidationError("a stored search answer is not bytes")
    created = msgspec.convert(created_at, float)
    values = {
        "match": match, "matched_query": query, "provider": provider,
        "age_s": max(0.0, now - created), "created_at": created, "payload": bytes(payload),
    }  # fmt: skip
    return msgspec.convert(values, SearchHit)


def _meta(snapshot: Snapshot) -> str:
    """The snapshot's document metadata as the ``meta`` column's JSON (unset keys left out)."""
    values = {
        k: getattr(snapshot, k) for k in _META_FIELDS if getattr(snapshot, k) not in (None, "")
    }
    return msgspec.json.encode(values).decode()


def _snapshot(row: Any) -> Snapshot:
    (content_hash, url, final_url, mode, title, text, status, content_type, charset, size,
     fetched_at, redirects, truncated, download_truncated, meta, scope) = row  # fmt: skip
    known = {k: v for k, v in _meta_decoder.decode(meta or "{}").items() if k in _META_FIELDS}
    values = {
        "hash": content_hash, "url": url, "final_url": final_url, "mode": mode,
        "title": title, "text": text, "status": status, "content_type": content_type,
        "charset": charset, "bytes": size, "fetched_at": fetched_at,
        "redirects": _redirects_decoder.decode(redirects), "truncated": bool(truncated),
        "download_truncated": bool(download_truncated), "scope": scope, **known,
    }  # fmt: skip
    return msgspec.convert(values, Snapshot)


def _finding(row: Any) -> Finding:
    """A finding row of :data:`_FINDING_COLUMNS`: verified when it has a verification."""
    (finding_id, query, content, source_url, origin, stored_at, expires_at,
     verified_by_url) = row  # fmt: skip
    values = {
        "id": finding_id, "query": query, "content": content, "source_url": source_url,
        "origin": origin, "verified": verified_by_url is not None,
        "verified_by_url": verified_by_url, "stored_at": stored_at, "expires_at": expires_at,
    }  # fmt: skip
    return msgspec.convert(values, Finding)
