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

from ..errors import ToolError, relay
from ..ownfiles import not_own, not_own_folder

__all__ = [
    "BUSY_TIMEOUT_MS",
    "SCHEMA_VERSION",
    "check_own_file",
    "fts5_available",
    "open_database",
]

SCHEMA_VERSION = 7
BUSY_TIMEOUT_MS = 10_000
_NOT_OWN = (
    "Set web.cache.path to a file of the account running insomnia-web (chmod 600) in a folder "
    "only that account may write in, or share a cache between users through PostgreSQL "
    "(web.cache.url)."
)

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
    meta TEXT NOT NULL DEFAULT '{}',  -- version 3, JSON: pages, author, published, modified
    used_at REAL NOT NULL DEFAULT 0,  -- version 3: last stored or read (size-cap eviction)
    scope TEXT NOT NULL DEFAULT '',   -- version 5: the network view it was read under
    UNIQUE (url, hash, scope)
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
    stored_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    writer TEXT NOT NULL DEFAULT ''  -- version 6: the store (one agent) that saved it
);
CREATE INDEX IF NOT EXISTS findings_by_source ON findings (source_url);
CREATE INDEX IF NOT EXISTS findings_by_expiry ON findings (expires_at);
CREATE INDEX IF NOT EXISTS findings_by_writer ON findings (writer, id);

CREATE TABLE IF NOT EXISTS finding_verifications (  -- version 5: one row per network view
    finding_id INTEGER NOT NULL REFERENCES findings (id) ON DELETE CASCADE,
    scope TEXT NOT NULL,           -- the network view of the fetch that verified it
    verified_by_url TEXT NOT NULL, -- the fetched page whose text contained it
    verified_at REAL NOT NULL,
    PRIMARY KEY (finding_id, scope)
);

CREATE TABLE IF NOT EXISTS rate_buckets (   -- version 2: provider budgets (cache/budget.py)
    name TEXT PRIMARY KEY,         -- provider:key-fingerprint
    next_free REAL NOT NULL,       -- Unix time the next request may start
    hold_until REAL NOT NULL,      -- Unix time before which no request starts (429)
    interval_s REAL NOT NULL DEFAULT 0  -- version 7: 1 / rate of the slot that set next_free
);
CREATE TABLE IF NOT EXISTS provider_usage (
    name TEXT NOT NULL,
    day TEXT NOT NULL,             -- UTC YYYY-MM-DD
    requests INTEGER NOT NULL,
    PRIMARY KEY (name, day)
);
"""

# Columns added to existing tables, each with the version that added it and its definition,
# for older files (version 5 moves findings.verified_scope into finding_verifications:
# _REBUILT, so a file of version 5 or later must not gain it again).
_ADDED_COLUMNS = {
    "searches": {"used_at": (3, "REAL NOT NULL DEFAULT 0")},
    "snapshots": {
        "meta": (3, "TEXT NOT NULL DEFAULT '{}'"),
        "used_at": (3, "REAL NOT NULL DEFAULT 0"),
    },
    "findings": {
        "verified_scope": (4, "TEXT NOT NULL DEFAULT ''"),
        "writer": (6, "TEXT NOT NULL DEFAULT ''"),
    },
    "rate_buckets": {"interval_s": (7, "REAL NOT NULL DEFAULT 0")},
}

# Tables a version made anew, each with that version and the statements that copy the rows
# of a file made before it (in ``old_<table>``) into the new table. Version 5: a page's
# network view is part of its key (before, it was in ``meta``); a finding keeps a
# verification per network view in finding_verifications (before, one in its own row).
_REBUILT = {
    "snapshots": (
        5,
        [
            "INSERT INTO snapshots (id, hash, url, final_url, mode, title, text, status, "
            "content_type, charset, bytes, fetched_at, redirects, truncated, download_truncated, "
            "meta, used_at, scope) SELECT id, hash, url, final_url, mode, title, text, status, "
            "content_type, charset, bytes, fetched_at, redirects, truncated, download_truncated, "
            "CASE WHEN json_valid(meta) THEN json_remove(meta, '$.scope') ELSE '{}' END, used_at, "
            "CASE WHEN json_valid(meta) THEN coalesce(json_extract(meta, '$.scope'), '') "
            "ELSE '' END FROM old_snapshots",
        ],
    ),
    "findings": (
        5,
        [
            "INSERT INTO findings (id, query, content, source_url, query_terms, terms, origin, "
            "stored_at, expires_at) SELECT id, query, content, source_url, query_terms, terms, "
            "origin, stored_at, expires_at FROM old_findings",
            # When a finding was verified is unknown: the time it was saved stands for it.
            "INSERT INTO finding_verifications (finding_id, scope, verified_by_url, verified_at) "
            "SELECT id, verified_scope, verified_by_url, stored_at FROM old_findings "
            "WHERE verified AND verified_by_url IS NOT NULL",
            # The new table goes on from the old one's last id (AUTOINCREMENT reuses none).
            "DELETE FROM sqlite_sequence WHERE name = 'findings'",
            "UPDATE sqlite_sequence SET name = 'findings' WHERE name = 'old_findings'",
        ],
    ),
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
    A file someone else may write, or one in a folder someone else may write in, is refused
    (:func:`check_own_file`).
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder = not_own_folder(path.parent)
    _refuse(path.parent, None if folder is None else f"the cache folder {folder}")
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    check_own_file(path)
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")  # a finding's verifications go with it
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
        _refuse(candidate, None if why is None else f"the cache file {candidate} {why}")


def _refuse(path: Path, why: str | None) -> None:
    """Raise ``cache_error`` saying *why* the cache file or folder at *path* is not used
    (``"the cache file X belongs to another user"``); nothing when *why* is None."""
    if why is None:
        return
    raise ToolError(
        "cache_error",
        f"{why}, so it is not used",
        hint=relay(_NOT_OWN),
        remedy=_NOT_OWN,
        retryable=False,
        details={"path": str(path)},
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


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    """The column names of *table* (none when it does not exist)."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _add_columns(conn: sqlite3.Connection, version: int) -> None:
    """Add the columns a file of schema *version* lacks (before their indexes)."""
    for table, columns in _ADDED_COLUMNS.items():
        have = _columns(conn, table)
        if not have:  # a new file: the table is created with every column
            continue
        for name, (added_in, definition) in columns.items():
            if name not in have and version < added_in:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")


def _set_aside(conn: sqlite3.Connection, version: int) -> list[str]:
    """Rename each table of :data:`_REBUILT` that a file of schema *version* made before its
    rebuild to ``old_<table>``, its indexes dropped (the new table makes its own); return
    their names."""
    moved = []
    for table, (rebuilt_in, _) in _REBUILT.items():
        if version >= rebuilt_in or not _columns(conn, table):
            continue
        indexes = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
            "AND sql IS NOT NULL",
            (table,),
        ).fetchall()
        for (index,) in indexes:
            conn.execute(f"DROP INDEX {index}")
        conn.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
        moved.append(table)
    return moved


def _copy_back(conn: sqlite3.Connection, moved: list[str]) -> None:
    """Copy the rows of the tables :func:`_set_aside` renamed into their new tables."""
    for table in moved:
        for statement in _REBUILT[table][1]:
            conn.execute(statement)
        conn.execute(f"DROP TABLE old_{table}")


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
        moved: list[str] = []
        if version < SCHEMA_VERSION:  # (a current file may lack only its full-text tables)
            _add_columns(conn, version)
            moved = _set_aside(conn, version)
        for statement in _TABLES.split(";"):
            if statement.strip():
                conn.execute(statement)
        _copy_back(conn, moved)
        for name in _fts_missing(conn, fts):
            conn.execute(_FTS_TABLES[name])
            conn.execute(_FTS_BACKFILL[name])
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise
    return fts
