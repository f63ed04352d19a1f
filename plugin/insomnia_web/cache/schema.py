"""The cache file: connection settings, tables and the schema version.

One SQLite file in WAL mode, shared by every process of the user: readers never block the
single writer, writers take the lock up front (``BEGIN IMMEDIATE``) and wait up to
:data:`BUSY_TIMEOUT_MS` for each other (a file kept locked longer is then skipped for a
while: :data:`~.store.LOCKED_SKIP_S`). ``PRAGMA user_version`` holds :data:`SCHEMA_VERSION`.

The full-text tables (``searches_fts``, ``findings_fts``) index the ``terms`` column of their
base table by rowid and are kept in step by :mod:`insomnia_web.cache.store`. They exist only
when this SQLite build has FTS5; without it the cache still works, with narrower matching.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from ..errors import ToolError
from ..ownfiles import not_own

__all__ = [
    "BUSY_TIMEOUT_MS",
    "SCHEMA_VERSION",
    "check_own_file",
    "fts5_available",
    "open_database",
]

SCHEMA_VERSION = 4
BUSY_TIMEOUT_MS = 10_000

_TABLES = """
CREATE TABLE IF NOT EXISTS searches (
    id INTEGER PRIMARY KEY,
    params_key TEXT NOT NULL,      -- canonical JSON of the search parameters
    norm_query TEXT NOT NULL,      -- normalize_query(query)
    terms TEXT NOT NULL,           -- sorted content words, space separated
    n_terms INTEGER NOT NULL,
    query TEXT NOT NULL,
    provider TEXT NOT NULL,
    payload BLOB NOT NULL,
    created_at REAL NOT NULL,
    used_at REAL NOT NULL DEFAULT 0,  -- version 3: last stored or read (size-cap eviction)
    UNIQUE (params_key, norm_query)
);
CREATE INDEX IF NOT EXISTS searches_by_terms ON searches (params_key, terms, created_at);
CREATE INDEX IF NOT EXISTS searches_by_age ON searches (created_at);
CREATE INDEX IF NOT EXISTS searches_by_use ON searches (used_at);

CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    url TEXT NOT NULL,
    final_url TEXT NOT NULL,
    mode TEXT NOT NULL,
    title TEXT,
    text TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT,
    charset TEXT,
    bytes INTEGER NOT NULL,
    fetched_at REAL NOT NULL,
    redirects TEXT NOT NULL,       -- JSON list
    truncated INTEGER NOT NULL,
    download_truncated INTEGER NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',  -- version 3, JSON: pages, author, published, modified, scope
    used_at REAL NOT NULL DEFAULT 0,  -- version 3: last stored or read (size-cap eviction)
    UNIQUE (url, hash)
);
CREATE INDEX IF NOT EXISTS snapshots_by_hash ON snapshots (hash, fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_url ON snapshots (url, mode, fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_final_url ON snapshots (final_url, mode, fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_age ON snapshots (fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_use ON snapshots (used_at);

CREATE TABLE IF NOT EXISTS findings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    query TEXT NOT NULL,
    content TEXT NOT NULL,
    source_url TEXT,
    query_terms TEXT NOT NULL,     -- content words of the query
    terms TEXT NOT NULL,           -- content words of query and content
    origin TEXT NOT NULL,
    verified INTEGER NOT NULL DEFAULT 0,
    verified_by_url TEXT,
    verified_scope TEXT NOT NULL DEFAULT '',  -- version 4: network view of the verifying fetch
    stored_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_by_source ON findings (source_url, verified);
CREATE INDEX IF NOT EXISTS findings_by_expiry ON findings (expires_at);

CREATE TABLE IF NOT EXISTS rate_buckets (   -- version 2: provider budgets (cache/budget.py)
    name TEXT PRIMARY KEY,         -- provider:key-fingerprint
    next_free REAL NOT NULL,       -- Unix time the next request may start
    hold_until REAL NOT NULL       -- Unix time before which no request starts (429)
);
CREATE TABLE IF NOT EXISTS provider_usage (
    name TEXT NOT NULL,
    day TEXT NOT NULL,             -- UTC YYYY-MM-DD
    requests INTEGER NOT NULL,
    PRIMARY KEY (name, day)
);
"""

# Columns added to existing tables (versions 3 and 4), with their definition, for older files.
_ADDED_COLUMNS = {
    "searches": {"used_at": "REAL NOT NULL DEFAULT 0"},
    "snapshots": {"meta": "TEXT NOT NULL DEFAULT '{}'", "used_at": "REAL NOT NULL DEFAULT 0"},
    "findings": {"verified_scope": "TEXT NOT NULL DEFAULT ''"},
}

_FTS_TABLES = {
    "searches_fts": "CREATE VIRTUAL TABLE searches_fts USING fts5(terms)",
    "findings_fts": "CREATE VIRTUAL TABLE findings_fts USING fts5(terms)",
}
_FTS_BACKFILL = {
    "searches_fts": "INSERT INTO searches_fts (rowid, terms) SELECT id, terms FROM searches",
    "findings_fts": "INSERT INTO findings_fts (rowid, terms) SELECT id, terms FROM findings",
}


def fts5_available(conn: sqlite3.Connection) -> bool:
    """Whether this SQLite build was compiled with FTS5."""
    row = conn.execute("SELECT sqlite_compileoption_used('ENABLE_FTS5')").fetchone()
    return bool(row[0])


def open_database(path: Path) -> tuple[sqlite3.Connection, bool]:
    """Open (creating if needed) the cache at *path*; return the connection and FTS5 use.

    Raises :class:`OSError` or :class:`sqlite3.Error`; the caller turns them into
    ``cache_error``. The connection is closed again if set-up fails. A file created here is
    readable by its owner only (``0600``; SQLite gives its WAL files the same mode), and so
    is a folder made for it (``0700``): it holds the pages read and the queries searched.
    A file someone else may write is refused (:func:`check_own_file`).
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    check_own_file(path)
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _enable_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        use_fts = _migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn, use_fts


def check_own_file(path: Path) -> None:
    """Refuse (``cache_error``) a cache file, or its WAL files, owned by another user or
    writable by every user, or a link another user made in its place.

    Such a file could have been made by someone else where the manifest points (a shared
    folder): its pages, answers and verified findings would be theirs, and every page read
    and query searched would be stored for them to read. One SQLite file serves the
    processes of one user; PostgreSQL is how users share a cache.
    """
    for candidate in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))):
        why = not_own(candidate)
        if why is None:
            continue
        raise ToolError(
            "cache_error",
            f"the cache file {candidate} {why}, so it is not used",
            hint="Tell the user: set web.cache.path to a file of their own (chmod 600), or "
            "share a cache between users through PostgreSQL (web.cache.url).",
            retryable=False,
            details={"path": str(candidate)},
        )


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL, waiting while another process holds the lock.

    Changing the journal mode can fail with SQLITE_BUSY at once (no busy handler) while
    another process is creating the same file, so this retries until the busy timeout.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _fts_missing(conn: sqlite3.Connection, fts: bool) -> list[str]:
    if not fts:
        return []
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    existing = {name for (name,) in rows}
    return [name for name in _FTS_TABLES if name not in existing]


def _add_columns(conn: sqlite3.Connection) -> None:
    """Add the columns a file made by an older version lacks (before their indexes)."""
    for table, columns in _ADDED_COLUMNS.items():
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not have:  # a new file: the table is created with every column
            continue
        for name, definition in columns.items():
            if name not in have:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")


def _migrate(conn: sqlite3.Connection) -> bool:
    """Create or complete the schema (another process may be doing the same)."""
    fts = fts5_available(conn)
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION and not _fts_missing(conn, fts):
        return fts
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"the cache file has schema version {version}; this version of "
                f"insomnia-web understands up to {SCHEMA_VERSION}"
            )
        _add_columns(conn)
        for statement in _TABLES.split(";"):
            if statement.strip():
                conn.execute(statement)
        for name in _fts_missing(conn, fts):
            conn.execute(_FTS_TABLES[name])
            conn.execute(_FTS_BACKFILL[name])
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise
    return fts
