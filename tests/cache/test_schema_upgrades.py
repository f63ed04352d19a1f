"""A cache made by an earlier schema, with searches, pages and findings in it, upgrades in place.

The previous schema is SQLite version 4 (its tables in ``schema_v4.sql``; versions 2 and 3
are that without some columns) and PostgreSQL migration 3: a page's network view lived in
its ``meta`` JSON and a finding held one verification. After the upgrade each page is found
under the view it was read under, a finding verified then is verified for that view only,
and the same bytes read under another view are stored beside the old copy.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from insomnia_web.cache import Cache, CacheStore, Snapshot, SqliteStore, schema
from insomnia_web.cache import postgres as pg_store
from insomnia_web.cache.postgres import PostgresStore

from .backends import SKIP_REASON, backend_config, postgres_url
from .conftest import FakeClock

V4_TABLES = (Path(__file__).parent / "schema_v4.sql").read_text()
URL = "https://a.test/p"
SOURCE = "https://x.test/"


def old_rows(now: float) -> list[tuple[str, str, list[tuple[object, ...]]]]:
    """A search; two pages (one read under ``view-a``, one under the empty view); two
    findings on one source (one verified under ``view-a``): each table with its columns and
    rows, as the previous schema stored them."""
    meta_a = '{"author": "Ann Lee", "scope": "view-a"}'
    return [
        ("searches", "params_key, norm_query, terms, n_terms, query, provider, payload, created_at",
         [('{"n":1}', "python asyncio", "asyncio python", 2, "python asyncio", "mock", b"{}",
           now)]),
        ("snapshots", "hash, url, final_url, mode, text, status, bytes, fetched_at, redirects, "
         "truncated, download_truncated, meta",
         [("h1", URL, URL, "readable", "Page text.", 200, 10, now, "[]", False, False, meta_a),
          ("h2", URL + "2", URL + "2", "readable", "Other.", 200, 6, now, "[]", False, False,
           "{}")]),
        ("findings", "id, query, content, source_url, query_terms, terms, origin, verified, "
         "verified_by_url, verified_scope, stored_at, expires_at",
         [(1, "payroll rotation", "a fact of three words", SOURCE, "payroll rotation",
           "fact payroll rotation three words", "model", True, SOURCE + "seen", "view-a", now,
           now + 3600),
          (2, "payroll rotation", "another fact of words", SOURCE, "payroll rotation",
           "another fact payroll rotation words", "model", False, None, "", now, now + 3600)]),
    ]  # fmt: skip


def insert_sql(table: str, columns: str, mark: str) -> str:
    """The INSERT of *columns* into *table*, with *mark* as the placeholder."""
    marks = ", ".join([mark] * len(columns.split(",")))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks})"  # noqa: S608 - names are constants


def version_4_file(path: Path, now: float) -> None:
    """Make a SQLite file of schema version 4 at *path* holding :func:`old_rows`."""
    path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(V4_TABLES)
        for table, columns, rows in old_rows(now):
            conn.executemany(insert_sql(table, columns, "?"), rows)
        conn.executescript(
            "INSERT INTO searches_fts (rowid, terms) SELECT id, terms FROM searches;"
            "INSERT INTO findings_fts (rowid, terms) SELECT id, terms FROM findings;"
        )


def file_version(path: Path) -> int:
    """The schema version of the SQLite file at *path*."""
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def check_upgraded(store: CacheStore) -> None:
    """The old search, pages and findings are there, each page and verification under its
    view, and the same bytes read under another view are a copy of their own."""
    assert await store.get_search("python asyncio", {"n": 1}, max_age_s=60) is not None
    page = await store.get_latest_snapshot(URL, "readable", max_age_s=60, scope="view-a")
    assert page is not None
    assert (page.text, page.author, page.scope) == ("Page text.", "Ann Lee", "view-a")
    assert await store.get_latest_snapshot(URL, "readable", max_age_s=60) is None
    other = await store.get_latest_snapshot(URL + "2", "readable", max_age_s=60)
    assert other is not None
    assert other.text == "Other."
    seen = {}
    for view in ("view-a", "view-b"):
        found = await store.find_findings("payroll rotation", scope=view)
        seen[view] = sorted((f.id, f.verified, f.verified_by_url) for f in found)
    assert seen == {
        "view-a": [(1, True, SOURCE + "seen"), (2, False, None)],
        "view-b": [(1, False, None), (2, False, None)],
    }
    assert [f.id for f in await store.findings_for_source(SOURCE, scope="view-a")] == [2]
    again = Snapshot(
        url=URL, final_url=URL, mode="readable", text="Page text.", status=200,
        fetched_at=page.fetched_at, scope="view-b",
    )  # fmt: skip
    await store.put_snapshot(again)
    assert (await store.stats()).pages == 3
    new = await store.add_finding("payroll rotation", "a third fact here", SOURCE, ttl_s=60)
    assert new.id == 3


@pytest.mark.asyncio
async def test_a_version_4_file_upgrades_and_keeps_its_rows(
    cache_path: Path, clock: FakeClock
) -> None:
    """A SQLite file of schema version 4 is upgraded in place to the current version, its
    pages under the views they were read under and its verified finding under its view."""
    version_4_file(cache_path, clock.now)
    store = SqliteStore(Cache(cache_path, clock=clock))
    try:
        await check_upgraded(store)
    finally:
        await store.aclose()
    assert file_version(cache_path) == schema.SCHEMA_VERSION


def test_a_version_3_file_keeps_its_verified_finding_under_no_view(
    cache_path: Path, clock: FakeClock
) -> None:
    """A SQLite file of schema version 3, whose findings recorded no network view, is
    upgraded in place: a finding verified then counts as verified under no view until its
    source is fetched again."""
    version_4_file(cache_path, clock.now)
    with closing(sqlite3.connect(cache_path, isolation_level=None)) as conn:  # version 3 again
        conn.execute("ALTER TABLE findings DROP COLUMN verified_scope")
        conn.execute("PRAGMA user_version = 3")
    with Cache(cache_path, clock=clock) as cache:
        verified = {
            view: sorted(
                (f.id, f.verified) for f in cache.find_findings("payroll rotation", scope=view)
            )
            for view in ("", "view-a")
        }
        assert sorted(f.id for f in cache.findings_for_source(SOURCE, scope="view-a")) == [1, 2]
    assert verified == {"": [(1, True), (2, False)], "view-a": [(1, False), (2, False)]}
    assert file_version(cache_path) == schema.SCHEMA_VERSION


def test_a_version_2_file_gains_the_use_column(cache_path: Path, clock: FakeClock) -> None:
    """A file written before the size cap is migrated in place and keeps its rows."""
    version_4_file(cache_path, clock.now)
    with closing(sqlite3.connect(cache_path, isolation_level=None)) as conn:  # version 2 again
        conn.execute("DROP INDEX searches_by_use")
        conn.execute("DROP INDEX snapshots_by_use")
        conn.execute("ALTER TABLE searches DROP COLUMN used_at")
        conn.execute("ALTER TABLE snapshots DROP COLUMN used_at")
        conn.execute("PRAGMA user_version = 2")
    with Cache(cache_path, clock=clock, max_bytes=1_000_000) as cache:
        assert cache.get_search("python asyncio", {"n": 1}, max_age_s=60) is not None
        assert cache.get_latest_snapshot(URL, "readable", max_age_s=60, scope="view-a")
    assert file_version(cache_path) == schema.SCHEMA_VERSION


@pytest.mark.asyncio
@pytest.mark.skipif(postgres_url() is None, reason=SKIP_REASON)
async def test_a_database_at_migration_3_upgrades_and_keeps_its_rows(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL database at migration 3 is migrated to the latest, its pages under the
    views they were read under and its verified finding under its view."""
    import psycopg

    with backend_config("postgresql", tmp_path) as cfg:
        assert cfg.url is not None
        first_three = pg_store.migrations()[:3]
        with monkeypatch.context() as patch:
            patch.setattr(pg_store, "migrations", lambda: first_three)
            old = PostgresStore(cfg.url, clock=clock)
            assert (await old.stats()).pages == 0
            await old.aclose()
        with psycopg.connect(cfg.url, autocommit=True) as conn:
            for table, columns, rows in old_rows(clock.now):
                conn.cursor().executemany(insert_sql(table, columns, "%s"), rows)
            conn.execute("SELECT setval('findings_id_seq', 2)")
        store = PostgresStore(cfg.url, clock=clock)
        try:
            await check_upgraded(store)
        finally:
            await store.aclose()
        assert store.schema_version == pg_store.migrations()[-1][0]


def test_a_version_5_file_gains_the_writer_column(cache_path: Path, clock: FakeClock) -> None:
    """A SQLite file of schema version 5 gains the column naming the agent that saved each
    finding (its findings belong to none), and not version 4's column it dropped."""
    with Cache(cache_path, clock=clock) as cache:
        cache.add_finding("payroll rotation", "a fact here", SOURCE, ttl_s=60)
    with closing(sqlite3.connect(cache_path, isolation_level=None)) as conn:  # version 5 again
        conn.execute("DROP INDEX findings_by_writer")
        conn.execute("ALTER TABLE findings DROP COLUMN writer")
        conn.execute("PRAGMA user_version = 5")
    with Cache(cache_path, clock=clock) as cache:
        assert [f.content for f in cache.find_findings("payroll rotation")] == ["a fact here"]
    with closing(sqlite3.connect(cache_path)) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(findings)")}
        writers = conn.execute("SELECT writer FROM findings").fetchall()
    assert "writer" in columns
    assert "verified_scope" not in columns
    assert writers == [("",)]
    assert file_version(cache_path) == schema.SCHEMA_VERSION


@pytest.mark.asyncio
async def test_a_version_6_file_keeps_its_buckets_next_slot(
    cache_path: Path, clock: FakeClock
) -> None:
    """A SQLite file of schema version 6 gains the interval of a bucket's last slot, and the
    slot it had reserved still spaces the next request."""
    with Cache(cache_path, clock=clock) as cache:
        cache.take_slot("brave:k", interval_s=2.0, max_wait_s=None)
    with closing(sqlite3.connect(cache_path, isolation_level=None)) as conn:  # version 6 again
        conn.execute("ALTER TABLE rate_buckets DROP COLUMN interval_s")
        conn.execute("PRAGMA user_version = 6")
    store = SqliteStore(Cache(cache_path, clock=clock))
    try:
        slot = await store.take_slot("brave:k", interval_s=0.5, max_wait_s=None)
    finally:
        await store.aclose()
    assert slot.wait_s == pytest.approx(2.0)
    assert file_version(cache_path) == schema.SCHEMA_VERSION


@pytest.mark.asyncio
@pytest.mark.skipif(postgres_url() is None, reason=SKIP_REASON)
async def test_a_database_at_migration_5_keeps_its_buckets_next_slot(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL database at migration 5 gains the interval of a bucket's last slot, and
    the slot it had reserved still spaces the next request."""
    import psycopg

    with backend_config("postgresql", tmp_path) as cfg:
        assert cfg.url is not None
        first_five = pg_store.migrations()[:5]
        with monkeypatch.context() as patch:
            patch.setattr(pg_store, "migrations", lambda: first_five)
            old = PostgresStore(cfg.url, clock=clock)
            await old.stats()
            await old.aclose()
        with psycopg.connect(cfg.url, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO rate_buckets (name, next_free, hold_until) VALUES (%s, %s, 0)",
                ("brave:k", clock.now + 2.0),
            )
        store = PostgresStore(cfg.url, clock=clock)
        try:
            slot = await store.take_slot("brave:k", interval_s=0.5, max_wait_s=None)
        finally:
            await store.aclose()
    assert slot.wait_s == pytest.approx(2.0)
    assert store.schema_version == pg_store.migrations()[-1][0]
