"""What the cache hands back: JSON-able msgspec Structs with their provenance."""

from __future__ import annotations

import hashlib
from typing import Literal

import msgspec

from .budget import ProviderUsage

__all__ = ["CacheStats", "Finding", "SearchHit", "Snapshot", "snapshot_hash"]


class SearchHit(msgspec.Struct, kw_only=True, frozen=True):
    """A cached search response reused for a new query."""

    match: Literal["exact", "similar"]
    """``exact``: same normalised query and parameters; ``similar``: same content words."""
    matched_query: str
    """The query (as first written) whose response is reused."""
    provider: str
    """The provider that answered the matched query."""
    age_s: float
    """Seconds since the response was stored."""
    created_at: float
    """When the response was stored (Unix time)."""
    payload: bytes
    """The stored response, exactly as given to :meth:`Cache.put_search`."""


class Snapshot(msgspec.Struct, kw_only=True, frozen=True):
    """One extracted version of a page, shared by WebFetch calls that continue reading it."""

    url: str
    """The URL that was requested."""
    final_url: str
    """The URL after redirects."""
    mode: str
    """Extraction mode: readable, full or raw."""
    text: str
    """The whole extracted text (WebFetch returns slices of it)."""
    status: int
    """HTTP status of the final response."""
    fetched_at: float
    """When the page was downloaded (Unix time)."""
    title: str | None = None
    content_type: str | None = None
    charset: str | None = None
    bytes: int = 0
    """Size of the downloaded body in bytes (after decompression)."""
    redirects: list[str] = msgspec.field(default_factory=list)
    """The redirect hops followed, in order."""
    truncated: bool = False
    """The text was cut by an extraction limit."""
    download_truncated: bool = False
    """The body was cut at the download size limit."""
    hash: str = ""
    """Content hash (see :func:`snapshot_hash`); filled in by :meth:`Cache.put_snapshot`."""
    pages: int | None = None
    """Page count of a PDF."""
    author: str | None = None
    published: str | None = None
    """Publication date the page states (ISO 8601 text)."""
    modified: str | None = None
    """Last-modified date the page states (ISO 8601 text)."""
    scope: str = ""
    """The network view the page was read under (see
    :func:`~insomnia_web.tools.services.network_scope`), part of the stored copy's key: a
    copy is served only to a caller with the same one, as another manifest may resolve the
    host elsewhere or refuse its address, and each view keeps its own copy of a page."""


def snapshot_hash(text: str, mode: str) -> str:
    """The content hash of extracted *text* in *mode*: hex sha256 of ``mode NUL text``."""
    return hashlib.sha256(f"{mode}\0{text}".encode()).hexdigest()


class Finding(msgspec.Struct, kw_only=True, frozen=True):
    """A fact the model saved with SaveFinding; unverified until a fetched page contains it."""

    id: int
    query: str
    """The question the fact answers."""
    content: str
    """The fact itself."""
    source_url: str | None
    """Where the model says it saw the fact."""
    stored_at: float
    expires_at: float
    origin: Literal["model"] = "model"
    verified: bool = False
    """A page fetched under the caller's network view (the ``scope`` of the lookup, see
    :attr:`Snapshot.scope`) contained the fact; each view has its own verification."""
    verified_by_url: str | None = None
    """The fetched page whose text contained the fact, under the caller's network view."""


class CacheStats(msgspec.Struct, kw_only=True, frozen=True):
    """Row counts, size and provider usage of the store, for ``insomnia-web cache stats``."""

    path: str
    """The SQLite file, or the PostgreSQL URL (it never holds a password)."""
    exists: bool
    file_bytes: int
    """Size of the database file plus its write-ahead log (PostgreSQL: of its tables)."""
    searches: int
    pages: int
    findings: int
    fts5: bool
    """Whether similar-query matching uses full-text search (SQLite FTS5 or PostgreSQL)."""
    sqlite_version: str
    backend: Literal["sqlite", "postgresql"] = "sqlite"
    server_version: str | None = None
    """The PostgreSQL server's version (PostgreSQL only)."""
    usage: list[ProviderUsage] = msgspec.field(default_factory=list)
    """Provider requests today and this month (UTC), per key."""
