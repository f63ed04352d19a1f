"""A cache made by the previous schema, with pages and findings in it, upgrades in place.

The previous schema is SQLite version 4 (its tables in ``schema_v4.sql``) and PostgreSQL
migration 3: a page's network view lived in its ``meta`` JSON and a finding held one
verification. After the upgrade each page is found under the view it was read under, a
finding verified then is verified for that view only, and the same bytes read under another
view are stored beside the old copy.
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
SNAPSHOT_COLUMNS = (
    "hash, url, final_url, mode, text, status, bytes, fetched_at, redirects, truncated, "
    "download_truncated, meta"
)
FINDING_COLUMNS = (
    "id, query, content, source_url, query_terms, terms, origin, verified, verified_by_url, "
    "verified_scope, stored_at, expires_at"
)


def old_rows(now: float) -> dict[str, list[tuple[object, ...]]]:
    """Two pages (one read under ``view-a``, one under the empty view) and two findings on
    one source (one verified under ``view-a``), as the previous schema stored them."""
    meta_a = '{"author": "Ann Lee", "scope": "view-a"}'
    return {
        SNAPSHOT_COLUMNS: [
            ("h1", URL, URL, "readable", "Page text.", 200, 10, now, "[]", False, False, meta_a),
            ("h2", URL + "2", URL + "2", "readable", "Other.", 200, 6, now, "[]", False, False,
             "{}"),
        ],
        FINDING_COLUMNS: [
            (1, "payroll rotation", "a fact of three words", SOURCE, "payroll rotation",
             "fact payroll rotation three words", "model", True, SOURCE + "seen", "view-a",
             now, now + 3600),
            (2, "payroll rotation", "another fact of words", SOURCE, "payroll rotation",
             "another fact payroll rotation words", "model", False, None, "", now, now + 3600),
        ],
    }  # fmt: skip


def insert_sql(table: str, columns: str, mark: str) -> str:
    """The INSERT of *columns* into *table*, with *mark* as the placeholder."""
    marks = ", ".join([mark] * len(columns.split(",")))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks})"  # noqa: S608 - names are constants


async def check_upgraded(store: CacheStore) -> None:
    """The old pages and findings are there, each page and verification under its view."""
    page = await store.get_latest_snapshot(URL, "readable", max_age_s=60, scope="view-a")
    assert page is not None
    assert (page.text, page.author, page.scope) == ("Page text.", "Ann Lee", "view-a")
    assert await store.get_latest_snapshot(URL, "readable", max_age_s=60) is None
    other = await store.get_latest_snapshot(URL + "2", "readable", max_age_s=60)
    assert other is not None
    assert other.text == "Other."
    assert [f.id for f in await store.findings_for_source(SOURCE, scope="view-a")] == [2]
    again = Snapshot(
        url=URL, final_url=URL, mode="readable", text="Page text.", status=200,
        fetched_at=page.fetched_at, scope="view-b",
    )  # fmt: skip
    await store.put_snapshot(again)
    assert (await store.stats()).pages == 3


@pytest.mark.asyncio
async def test_a_version_4_file_upgrades_and_keeps_its_pages_and_findings(
    cache_path: Path, clock: FakeClock
) -> None:
    """A SQLite file of schema version 4 is upgraded in place to the current version, its
    pages under the views they were read under and its verified finding under its view."""
    cache_path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(cache_path)) as conn:
        conn.executescript(V4_TABLES)
        for columns, rows in old_rows(clock.now).items():
            table = "snapshots" if columns is SNAPSHOT_COLUMNS else "findings"
            conn.executemany(insert_sql(table, columns, "?"), rows)
        conn.execute("INSERT INTO findings_fts (rowid, terms) SELECT id, terms FROM findings")
        conn.commit()
    store = SqliteStore(Cache(cache_path, clock=clock))
    try:
        await check_upgraded(store)
    finally:
        await store.aclose()
    with closing(sqlite3.connect(cache_path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION


@pytest.mark.asyncio
@pytest.mark.skipif(postgres_url() is None, reason=SKIP_REASON)
async def test_a_database_at_migration_3_upgrades_and_keeps_its_pages_and_findings(
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
            for columns, rows in old_rows(clock.now).items():
                table = "snapshots" if columns is SNAPSHOT_COLUMNS else "findings"
                conn.cursor().executemany(insert_sql(table, columns, "%s"), rows)
            conn.execute("SELECT setval('findings_id_seq', 2)")
        store = PostgresStore(cfg.url, clock=clock)
        try:
            await check_upgraded(store)
        finally:
            await store.aclose()
        assert store.schema_version == pg_store.migrations()[-1][0]
