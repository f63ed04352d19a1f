"""The SQLite file's own rules: the size cap (least recently used first), lock waits."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from insomnia_web import ToolError
from insomnia_web.cache import Cache, Snapshot
from insomnia_web.cache.store import LOCKED_SKIP_S

from .conftest import FakeClock

CAP = 400_000
TEXT = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 350  # ~20 kB


def page(n: int, now: float) -> Snapshot:
    """Page *n*, about 20 kB of text."""
    url = f"https://e.test/{n}"
    return Snapshot(
        url=url, final_url=url, mode="readable", text=f"{n} {TEXT}", status=200, fetched_at=now
    )


def read(cache: Cache, stored: Snapshot) -> Snapshot | None:
    """The stored copy of *stored*'s URL, at any age."""
    return cache.get_latest_snapshot(stored.url, stored.mode, max_age_s=1e12)


def used_bytes(path: Path) -> int:
    """Bytes of the file's pages in use."""
    with closing(sqlite3.connect(path)) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def test_the_least_recently_used_go_past_the_cap(cache_path: Path, clock: FakeClock) -> None:
    """Past max_bytes the least recently used pages go; a page read since, and findings, stay."""
    with Cache(cache_path, clock=clock, max_bytes=CAP) as cache:
        first = [cache.put_snapshot(page(n, clock.now)) for n in range(5)]
        cache.add_finding("tortoise lifespan", "About 150 years.", None, ttl_s=10**9)
        clock.advance(120)
        assert read(cache, first[0]) is not None  # read: used again
        for n in range(5, 14):
            clock.advance(1)
            cache.put_snapshot(page(n, clock.now))
        assert used_bytes(cache_path) <= CAP
        assert cache.stats().pages < 14  # some went
        assert read(cache, first[1]) is None  # the oldest unread
        assert read(cache, first[0]) is not None  # read since
        assert len(cache.find_findings("tortoise lifespan")) == 1


def test_no_cap_keeps_everything(cache_path: Path, clock: FakeClock) -> None:
    """Without max_bytes nothing is evicted."""
    with Cache(cache_path, clock=clock) as cache:
        for n in range(30):
            cache.put_snapshot(page(n, clock.now))
        assert cache.stats().pages == 30


def test_time_waiting_for_the_lock_counts_against_the_deadline(cache_path: Path) -> None:
    """A slot taken after waiting for another writer's lock leaves only what remains of
    max_wait_s: 0.5 s of lock wait and a 0.5 s slot do not fit in 0.8 s."""
    with Cache(cache_path) as cache:
        cache.take_slot("brave:k", interval_s=1.0, max_wait_s=5)
        conn = sqlite3.connect(cache_path, isolation_level=None, check_same_thread=False)
        conn.execute("BEGIN IMMEDIATE")
        timer = threading.Timer(0.5, conn.commit)
        timer.start()
        try:
            with pytest.raises(ToolError) as info:
                cache.take_slot("brave:k", interval_s=1.0, max_wait_s=0.8)
        finally:
            timer.join()
            conn.close()
    assert info.value.code == "rate_limited"


def test_a_new_cache_file_is_private_to_its_owner(tmp_path: Path, clock: FakeClock) -> None:
    """The cache file a first write creates (and its folder) is readable by its owner only."""
    path = tmp_path / "made" / "cache.sqlite3"
    old = os.umask(0o022)
    try:
        cache = Cache(path, clock=clock)
        cache.put_snapshot(page(1, clock()))
        cache.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def planted_file(path: Path, clock: FakeClock, *, uid: int | None, mode: int) -> Path:
    """A cache file holding one page, then given to user *uid* and *mode* (as if someone
    else had made it where the manifest points)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with Cache(path, clock=clock) as cache:
        cache.put_snapshot(page(1, clock()))
    if uid is not None:
        os.chown(path, uid, -1)
    path.chmod(mode)
    return path


@pytest.mark.parametrize(
    ("owner", "mode"),
    [("another user", 0o600), ("me", 0o666), ("another user", 0o644)],
    ids=["theirs", "mine-world-writable", "theirs-readable"],
)
def test_a_cache_file_someone_else_can_write_is_refused(
    tmp_path: Path, clock: FakeClock, owner: str, mode: int
) -> None:
    """A cache file owned by another user, or that every user may write, is not used (its
    pages, answers and findings could be anyone's, and what is stored goes to them): every
    step is a cache_error naming the file's owner or mode and web.cache.path."""
    if owner == "another user" and os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    uid = 4242 if owner == "another user" else None
    path = planted_file(tmp_path / "shared" / "cache.sqlite3", clock, uid=uid, mode=mode)
    with Cache(path, clock=clock) as cache, pytest.raises(ToolError) as info:
        cache.get_latest_snapshot("https://e.test/1", "readable", max_age_s=60)
    assert info.value.code == "cache_error"
    assert "web.cache.path" in (info.value.hint or "")


def test_a_link_another_user_made_at_the_cache_path_is_refused(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A link another user put where the cache file goes is not followed: SQLite created the
    file it names (``~/.profile``, say), holding the pages read, as the user's own."""
    if os.geteuid() != 0:
        pytest.skip("giving a link to another user needs root")
    target = tmp_path / "home" / ".profile"
    target.parent.mkdir()
    path = tmp_path / "shared" / "cache.sqlite3"
    path.parent.mkdir()
    path.symlink_to(target)
    os.lchown(path, 4242, -1)
    with Cache(path, clock=clock) as cache, pytest.raises(ToolError) as info:
        cache.get_latest_snapshot("https://e.test/1", "readable", max_age_s=60)
    assert info.value.code == "cache_error"
    assert "link" in info.value.message
    assert not target.exists()


@pytest.mark.parametrize(
    ("owner", "mode", "name", "why"),
    [
        ("me", 0o777, "insomnia-web/cache.sqlite3", "every user may write in it"),
        ("me", 0o1777, "cache.sqlite3", "every user may write in it"),
        ("another user", 0o755, "insomnia-web/cache.sqlite3", "belongs to another user"),
    ],
    ids=["world-writable", "sticky", "theirs"],
)
def test_a_cache_folder_someone_else_can_write_in_is_refused(
    tmp_path: Path, clock: FakeClock, owner: str, mode: int, name: str, why: str
) -> None:
    """A cache file is not made or used in a folder another user owns or every user may
    write in, even a sticky one, nor below such a folder that is not sticky
    (``XDG_CACHE_HOME`` in a shared folder): whoever can write there can put a WAL file of
    their own beside the cache between its check and SQLite's open, or move the checked
    file (or its folder) away and put theirs in its place."""
    if owner == "another user" and os.geteuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    if owner == "another user":
        os.chown(shared, 4242, -1)
    path = shared / name
    with Cache(path, clock=clock) as cache, pytest.raises(ToolError) as info:
        cache.put_snapshot(page(1, clock()))
    assert info.value.code == "cache_error"
    assert f"{shared} {why}" in info.value.message
    assert "web.cache.path" in (info.value.hint or "")
    assert not path.exists()


def test_a_sticky_shared_folder_above_the_cache_folder_is_no_problem(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A folder every user may write in but none may rename another's files in (``/tmp``,
    sticky) may hold the user's own cache folder: only the folder holding the file must be
    the user's alone."""
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    with Cache(shared / "mine" / "cache.sqlite3", clock=clock) as cache:
        cache.put_snapshot(page(1, clock()))
        assert read(cache, page(1, clock())) is not None


def test_a_link_another_user_made_for_the_cache_folder_is_refused(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A link another user made where the cache folder goes (their ``XDG_CACHE_HOME`` in a
    shared folder, pointing into the user's home) is not followed: they can point it
    elsewhere at any time."""
    if os.geteuid() != 0:
        pytest.skip("giving a link to another user needs root")
    mine = tmp_path / "home" / ".ssh"
    mine.mkdir(parents=True)
    link = tmp_path / "xdg"
    link.symlink_to(mine)
    os.lchown(link, 4242, -1)
    with Cache(link / "cache.sqlite3", clock=clock) as cache, pytest.raises(ToolError) as info:
        cache.put_snapshot(page(1, clock()))
    assert "is a link made by another user" in info.value.message
    assert list(mine.iterdir()) == []


@contextmanager
def locked_by_another_process(path: Path) -> Iterator[None]:
    """Another connection holds the file's write lock until the block ends."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.rollback()
        conn.close()


def test_a_slot_waits_for_a_held_lock_no_longer_than_its_deadline(
    cache_path: Path, clock: FakeClock
) -> None:
    """A writer that keeps the lock makes take_slot give up within its max_wait_s, as
    cache_unavailable (the search then goes on with this process's own bucket), instead of
    waiting out the ten-second busy timeout past the search's deadline."""
    with Cache(cache_path, clock=clock) as cache:
        cache.take_slot("brave:k", interval_s=1.0, max_wait_s=5)
        with locked_by_another_process(cache_path), pytest.raises(ToolError) as info:
            cache.take_slot("brave:k", interval_s=1.0, max_wait_s=0.1)
    assert info.value.code == "cache_unavailable"
    assert "locked" in info.value.message


def test_a_file_found_locked_is_skipped_for_a_few_seconds(
    cache_path: Path, clock: FakeClock
) -> None:
    """After a write found the file locked, writes fail at once as cache_unavailable for a
    few seconds (each would wait out the busy timeout again), then the file is used again."""
    with Cache(cache_path, clock=clock) as cache:
        cache.take_slot("brave:k", interval_s=1.0, max_wait_s=5)
        with locked_by_another_process(cache_path), pytest.raises(ToolError):
            cache.take_slot("brave:k", interval_s=1.0, max_wait_s=0.1)
        with pytest.raises(ToolError) as info:
            cache.put_search("q", {}, "mock", b"{}")
        assert info.value.code == "cache_unavailable"
        clock.advance(LOCKED_SKIP_S)
        cache.put_search("q", {}, "mock", b"{}")
        assert cache.get_search("q", {}, max_age_s=60) is not None
