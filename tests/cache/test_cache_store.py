"""The cache file: lazy opening, stats and clear, errors, threads and processes."""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from insomnia_web.cache import Cache, Snapshot, schema
from insomnia_web.config import CacheConfig
from insomnia_web.errors import ToolError

from ._writer import write_many
from .conftest import FakeClock

PARAMS: dict[str, object] = {"provider": "brave"}


def test_construction_creates_nothing(cache_path: Path) -> None:
    """Constructing a cache creates neither the file nor its directory until first use."""
    cache = Cache(cache_path)
    assert not cache_path.parent.exists()
    assert cache.stats().exists is False
    assert not cache_path.parent.exists()
    assert cache.clear() == 0
    assert not cache_path.parent.exists()
    cache.put_search("first query", PARAMS, "brave", b"p")
    assert cache_path.is_file()
    cache.close()


def test_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path starting with ~ lands in the home directory."""
    monkeypatch.setenv("HOME", str(tmp_path))
    with Cache("~/.cache/insomnia-web/cache.sqlite3") as cache:
        cache.put_search("a query", PARAMS, "brave", b"p")
    assert (tmp_path / ".cache" / "insomnia-web" / "cache.sqlite3").is_file()


def test_file_settings(cache: Cache, cache_path: Path) -> None:
    """The file is in WAL mode and carries the schema version."""
    cache.put_search("a query", PARAMS, "brave", b"p")
    conn = sqlite3.connect(cache_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    finally:
        conn.close()


def test_from_config_uses_path_and_ttls(tmp_path: Path, clock: FakeClock) -> None:
    """from_config stores at cfg.path and prunes with the configured search TTL."""
    cfg = CacheConfig(path=str(tmp_path / "c.sqlite3"), search_ttl_s=10)
    with Cache.from_config(cfg, clock=clock) as cache:
        cache.put_search("old query", PARAMS, "brave", b"p")
        clock.advance(3600)
        cache.put_search("new query", PARAMS, "brave", b"p")
        assert cache.stats().searches == 1
        assert cache.stats().path == cfg.path


def test_stats_and_clear(cache: Cache, clock: FakeClock) -> None:
    """stats counts each store; clear empties one store or all and returns rows deleted."""
    cache.put_search("one query", PARAMS, "brave", b"p")
    cache.put_search("two query", PARAMS, "brave", b"p")
    cache.put_snapshot(
        Snapshot(url="https://e.com", final_url="https://e.com", mode="raw", text="t",
                 status=200, fetched_at=clock())
    )  # fmt: skip
    cache.add_finding("a question", "a fact", ttl_s=60)
    stats = cache.stats()
    assert (stats.searches, stats.pages, stats.findings) == (2, 1, 1)
    assert stats.exists
    assert stats.file_bytes > 0
    assert cache.clear("searches") == 2
    assert cache.get_search("one query", PARAMS, max_age_s=60) is None
    assert cache.clear("all") == 2
    stats = cache.stats()
    assert (stats.searches, stats.pages, stats.findings) == (0, 0, 0)
    assert cache.find_findings("a question") == []


def test_corrupt_file_is_a_cache_error(cache_path: Path) -> None:
    """A file that is not a database raises cache_error, not sqlite3.DatabaseError."""
    cache_path.parent.mkdir()
    cache_path.write_bytes(b"this is not a database" * 100)
    with Cache(cache_path) as cache, pytest.raises(ToolError) as info:
        cache.get_search("q", PARAMS, max_age_s=60)
    assert info.value.code == "cache_error"
    assert info.value.retryable is True
    assert isinstance(info.value.__cause__, sqlite3.DatabaseError)


TAMPERED = {
    "search payload of text": "UPDATE searches SET payload = 'abc'",
    "search payload of a huge number": "UPDATE searches SET payload = 1000000000000000",
    "search time of text": "UPDATE searches SET created_at = 'x'",
    "search terms of a number": "UPDATE searches SET terms = 5, norm_query = 'other'",
    "page text of a number": "UPDATE snapshots SET text = 5",
    "page time of text": "UPDATE snapshots SET fetched_at = 'x'",
    "page count of text": """UPDATE snapshots SET meta = '{"pages": "x"}'""",
    "finding time of text": "UPDATE findings SET stored_at = 'x'",
    "finding terms of a number": "UPDATE findings SET terms = 5, query_terms = 7",
    "budget times of text": "INSERT INTO rate_buckets VALUES ('brave:k', 'x', 'y', 'z')",
}


def tampered_cache(path: Path, sql: str) -> Cache:
    """A cache with one search, page, finding and budget, then *sql* run on its file."""
    cache = Cache(path)
    cache.put_search("alpha beta", PARAMS, "brave", b"{}")
    cache.put_snapshot(
        Snapshot(url="https://a.test/", final_url="https://a.test/", mode="readable",
                 text="t", status=200, fetched_at=1.8e9)
    )  # fmt: skip
    cache.add_finding("alpha beta", "alpha beta gamma", "https://a.test/", ttl_s=1e10)
    cache.close()
    conn = sqlite3.connect(path)
    conn.execute(sql)
    conn.commit()
    conn.close()
    return cache


@pytest.mark.parametrize("sql", TAMPERED.values(), ids=TAMPERED.keys())
def test_a_row_of_the_wrong_type_is_a_cache_error(cache_path: Path, sql: str) -> None:
    """A row another program wrote with a value of the wrong type is a cache_error when it
    is read (the tools then go on without the cache), never a TypeError nor a value of the
    wrong type handed to the tools."""
    cache_path.parent.mkdir()
    cache = tampered_cache(cache_path, sql)
    reads = {
        "search": lambda: cache.get_search("alpha beta", PARAMS, max_age_s=1e12),
        "similar search": lambda: cache.get_search("beta alpha", PARAMS, max_age_s=1e12),
        "page": lambda: cache.get_latest_snapshot("https://a.test/", "readable", max_age_s=1e12),
        "findings": lambda: cache.find_findings("alpha beta"),
        "source findings": lambda: cache.findings_for_source("https://a.test/"),
        "slot": lambda: cache.take_slot("brave:k", interval_s=1.0, max_wait_s=5),
    }
    with cache:
        for read in reads.values():
            got = _result_or_code(read)
            if isinstance(got, str):
                assert got == "cache_error"
                continue
            for item in got if isinstance(got, list) else [got]:
                if item is not None:
                    msgspec.convert(msgspec.to_builtins(item), type(item))


def _result_or_code(read: Callable[[], object]) -> object:
    """What *read* returns, or the code of the ToolError it raises."""
    try:
        return read()
    except ToolError as exc:
        return exc.code


def test_unusable_path_is_a_cache_error(tmp_path: Path) -> None:
    """A path whose parent is a file raises cache_error on first use."""
    (tmp_path / "plain-file").write_text("x")
    with (
        Cache(tmp_path / "plain-file" / "cache.sqlite3") as cache,
        pytest.raises(ToolError) as info,
    ):
        cache.put_search("q", PARAMS, "brave", b"p")
    assert info.value.code == "cache_error"


def test_newer_schema_is_a_cache_error(cache_path: Path) -> None:
    """A file written by a newer schema version is refused with cache_error."""
    cache_path.parent.mkdir()
    conn = sqlite3.connect(cache_path)
    conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.close()
    with Cache(cache_path) as cache, pytest.raises(ToolError, match="schema version"):
        cache.stats()


def test_reopens_after_close(cache_path: Path) -> None:
    """A closed cache opens again on the next call and still has its rows."""
    cache = Cache(cache_path)
    cache.put_search("kept query", PARAMS, "brave", b"p")
    cache.close()
    cache.close()
    assert cache.get_search("kept query", PARAMS, max_age_s=60) is not None
    cache.close()


@pytest.mark.asyncio
async def test_calls_from_threads(cache: Cache) -> None:
    """Concurrent calls through asyncio.to_thread share the connection safely."""
    await asyncio.gather(
        *(
            asyncio.to_thread(cache.put_search, f"query {n}", PARAMS, "brave", b"p")
            for n in range(50)
        )
    )
    hits = await asyncio.gather(
        *(
            asyncio.to_thread(cache.get_search, f"query {n}", PARAMS, max_age_s=60)
            for n in range(50)
        )
    )
    assert all(hit is not None and hit.match == "exact" for hit in hits)


def test_two_processes_write_concurrently(cache_path: Path) -> None:
    """Two processes writing 200 times each at once never fail with 'database is locked'."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    procs = [
        ctx.Process(target=write_many, args=(str(cache_path), worker, 200, barrier))
        for worker in (1, 2)
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=120)
    assert [proc.exitcode for proc in procs] == [0, 0]
    with Cache(cache_path) as cache:
        stats = cache.stats()
    assert (stats.searches, stats.findings) == (200, 200)
