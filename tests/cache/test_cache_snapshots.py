"""Page snapshots: one row per URL, content and network view, found by requested or final URL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from insomnia_web.cache import Cache, Snapshot, snapshot_hash

from .conftest import FakeClock

WEEK = 604_800.0


def _snapshot(clock: FakeClock, text: str = "Hello world", **kw: object) -> Snapshot:
    fields: dict[str, object] = {
        "url": "http://example.com/a",
        "final_url": "https://example.com/a/",
        "mode": "readable",
        "text": text,
        "status": 200,
        "fetched_at": clock(),
        "title": "A page",
        "content_type": "text/html",
        "charset": "utf-8",
        "bytes": 1234,
        "redirects": ["https://example.com/a", "https://example.com/a/"],
        "truncated": False,
        "download_truncated": True,
        **kw,
    }
    return Snapshot(**fields)  # type: ignore[arg-type]


def test_round_trip(cache: Cache, clock: FakeClock) -> None:
    """put_snapshot fills in the content hash and every field comes back as stored."""
    stored = cache.put_snapshot(_snapshot(clock, scope="view-a"))
    assert stored.hash == snapshot_hash("Hello world", "readable")
    assert len(stored.hash) == 64
    latest = cache.get_latest_snapshot(stored.url, "readable", max_age_s=WEEK, scope="view-a")
    assert latest == stored


def test_hash_depends_on_text_and_mode() -> None:
    """The same text in another mode, or other text, has another hash."""
    base = snapshot_hash("text", "readable")
    assert base == snapshot_hash("text", "readable")
    assert base != snapshot_hash("text", "full")
    assert base != snapshot_hash("text.", "readable")


def test_latest_by_requested_or_final_url(cache: Cache, clock: FakeClock) -> None:
    """The latest snapshot is found by the requested URL and by the final URL, per mode."""
    stored = cache.put_snapshot(_snapshot(clock))
    assert cache.get_latest_snapshot("http://example.com/a", "readable", max_age_s=WEEK) == stored
    assert cache.get_latest_snapshot("https://example.com/a/", "readable", max_age_s=WEEK) == stored
    assert cache.get_latest_snapshot("http://example.com/a", "full", max_age_s=WEEK) is None
    assert cache.get_latest_snapshot("http://example.com/b", "readable", max_age_s=WEEK) is None


def test_new_version_is_latest_and_old_version_stays(cache: Cache, clock: FakeClock) -> None:
    """A changed page becomes the latest while the earlier version stays stored."""
    old = cache.put_snapshot(_snapshot(clock, text="version one"))
    clock.advance(60)
    new = cache.put_snapshot(_snapshot(clock, text="version two"))
    assert old.hash != new.hash
    latest = cache.get_latest_snapshot("http://example.com/a", "readable", max_age_s=WEEK)
    assert latest == new
    assert cache.stats().pages == 2


def test_same_content_refreshes_one_row(cache: Cache, clock: FakeClock) -> None:
    """Storing the same text for the same URL again keeps one row with the new fetch time."""
    cache.put_snapshot(_snapshot(clock))
    clock.advance(500)
    again = cache.put_snapshot(_snapshot(clock, status=203))
    assert cache.stats().pages == 1
    latest = cache.get_latest_snapshot("http://example.com/a", "readable", max_age_s=100)
    assert latest == again
    assert latest is not None
    assert latest.status == 203


def test_max_age_hides_old_snapshots(cache: Cache, clock: FakeClock) -> None:
    """get_latest_snapshot ignores versions older than max_age_s."""
    stored = cache.put_snapshot(_snapshot(clock))
    clock.advance(1000)
    assert cache.get_latest_snapshot("http://example.com/a", "readable", max_age_s=999) is None
    assert cache.get_latest_snapshot("http://example.com/a", "readable", max_age_s=1000) == stored


def test_document_facts_round_trip(cache: Cache, clock: FakeClock) -> None:
    """Pages, author and dates are stored with the snapshot and come back as they were."""
    stored = cache.put_snapshot(
        _snapshot(clock, pages=3, author="Ann Lee", published="2026-03-01", modified=None)
    )
    again = cache.get_latest_snapshot(stored.url, "readable", max_age_s=WEEK)
    assert again is not None
    assert (again.pages, again.author, again.published, again.modified) == (
        3,
        "Ann Lee",
        "2026-03-01",
        None,
    )


def test_a_version_2_file_gains_the_meta_column(cache_path: Path, clock: FakeClock) -> None:
    """A cache file written before document facts existed opens, and its pages still read."""
    cache_path.parent.mkdir(parents=True)
    conn = sqlite3.connect(cache_path)
    conn.executescript(
        "CREATE TABLE snapshots (id INTEGER PRIMARY KEY, hash TEXT NOT NULL, url TEXT NOT NULL,"
        " final_url TEXT NOT NULL, mode TEXT NOT NULL, title TEXT, text TEXT NOT NULL,"
        " status INTEGER NOT NULL, content_type TEXT, charset TEXT, bytes INTEGER NOT NULL,"
        " fetched_at REAL NOT NULL, redirects TEXT NOT NULL, truncated INTEGER NOT NULL,"
        " download_truncated INTEGER NOT NULL, UNIQUE (url, hash));"
        "PRAGMA user_version = 2;"
    )
    conn.execute(
        "INSERT INTO snapshots (hash, url, final_url, mode, text, status, bytes, fetched_at,"
        " redirects, truncated, download_truncated) VALUES ('h', 'u', 'u', 'readable', 'old',"
        " 200, 3, ?, '[]', 0, 0)",
        (clock(),),
    )
    conn.commit()
    conn.close()
    with Cache(cache_path, clock=clock) as cache:
        old = cache.get_latest_snapshot("u", "readable", max_age_s=WEEK)
        assert old is not None
        assert old.text == "old"
        assert old.author is None
        stored = cache.put_snapshot(_snapshot(clock, author="Ann Lee"))
        assert cache.get_latest_snapshot(stored.url, "readable", max_age_s=WEEK) == stored
