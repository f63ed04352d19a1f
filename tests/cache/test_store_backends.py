"""The cache store interface, with the same assertions on SQLite and on PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from insomnia_web import ToolError
from insomnia_web.cache import CacheStore, Snapshot, open_store
from insomnia_web.cache.postgres import PostgresStore, migrations
from insomnia_web.config import CacheConfig

from .backends import SKIP_REASON, backend_config, postgres_url
from .conftest import FakeClock

PARAMS = {"provider": "mock", "mode": "results", "count": 5}


def page(text: str = "The whole page text.", *, url: str = "https://a.test/p") -> Snapshot:
    """A snapshot as WebFetch would store it."""
    return Snapshot(
        url=url, final_url=url, mode="readable", text=text, status=200, fetched_at=1_800_000_000.0
    )


@pytest.mark.asyncio
async def test_store_is_the_interface(store: CacheStore, store_config: CacheConfig) -> None:
    """Both backends implement CacheStore and say which one they are."""
    assert isinstance(store, CacheStore)
    assert store.backend == ("postgresql" if store_config.url else "sqlite")


@pytest.mark.asyncio
async def test_exact_then_similar_search(store: CacheStore, clock: FakeClock) -> None:
    """A stored answer is found for the same query (exact) and for a near one (similar)."""
    await store.put_search("python asyncio tutorial beginners", PARAMS, "mock", b'{"a": 1}')
    clock.advance(60)
    exact = await store.get_search("Python asyncio tutorial beginners", PARAMS, max_age_s=3600)
    similar = await store.get_search("tutorial python asyncio", PARAMS, max_age_s=3600)
    assert exact is not None
    assert (exact.match, exact.payload, exact.age_s) == ("exact", b'{"a": 1}', 60)
    assert similar is not None
    assert (similar.match, similar.matched_query) == (
        "similar",
        "python asyncio tutorial beginners",
    )


@pytest.mark.asyncio
async def test_search_misses(store: CacheStore, clock: FakeClock) -> None:
    """Other parameters, a missing word, a different number or too much age never hit."""
    await store.put_search("python 3.11 release date", PARAMS, "mock", b"{}")
    assert await store.get_search("python 3.11 release date", {"count": 9}, max_age_s=60) is None
    assert await store.get_search("python 3.12 release date", PARAMS, max_age_s=60) is None
    assert await store.get_search("python release date", PARAMS, max_age_s=60) is None
    clock.advance(61)
    assert await store.get_search("python 3.11 release date", PARAMS, max_age_s=60) is None


@pytest.mark.asyncio
async def test_storing_again_replaces(store: CacheStore) -> None:
    """A second answer for the same query and parameters replaces the first."""
    await store.put_search("asyncio timeout", PARAMS, "mock", b"old")
    await store.put_search("asyncio  timeout", PARAMS, "mock", b"new")
    hit = await store.get_search("asyncio timeout", PARAMS, max_age_s=60)
    assert hit is not None
    assert hit.payload == b"new"
    assert (await store.stats()).searches == 1


@pytest.mark.asyncio
async def test_snapshot_document_facts(store: CacheStore) -> None:
    """A page's author, dates and page count are stored with it on both backends."""
    import msgspec

    facts = {"pages": 4, "author": "Ann Lee", "published": "2026-03-01", "modified": None}
    stored = await store.put_snapshot(msgspec.structs.replace(page(), **facts))
    again = await store.get_latest_snapshot(stored.url, "readable", max_age_s=1e12)
    assert again == stored
    assert again is not None
    assert (again.pages, again.author, again.published, again.modified) == (
        4,
        "Ann Lee",
        "2026-03-01",
        None,
    )


@pytest.mark.asyncio
async def test_snapshots(store: CacheStore, clock: FakeClock) -> None:
    """A stored page gets its content hash and comes back as the latest only while young."""
    stored = await store.put_snapshot(page())
    clock.now = stored.fetched_at + 100
    assert stored.hash
    assert await store.get_latest_snapshot("https://a.test/p", "readable", max_age_s=200) == stored
    assert await store.get_latest_snapshot("https://a.test/p", "readable", max_age_s=50) is None
    assert await store.get_latest_snapshot("https://a.test/p", "raw", max_age_s=200) is None


@pytest.mark.asyncio
async def test_snapshot_is_found_only_under_its_network_scope(store: CacheStore) -> None:
    """A page stored under one network view is the latest copy for that view only."""
    import msgspec

    await store.put_snapshot(msgspec.structs.replace(page(), scope="view-a"))
    url = page().url
    found = await store.get_latest_snapshot(url, "readable", max_age_s=1e12, scope="view-a")
    assert found is not None
    assert found.scope == "view-a"
    assert await store.get_latest_snapshot(url, "readable", max_age_s=1e12, scope="view-b") is None
    assert await store.get_latest_snapshot(url, "readable", max_age_s=1e12) is None


@pytest.mark.asyncio
async def test_two_network_views_keep_their_own_copy_of_a_page(store: CacheStore) -> None:
    """The same bytes read at one URL under two network views are two stored copies: the
    second view's store neither replaces the first's copy nor takes it over."""
    import msgspec

    first = await store.put_snapshot(msgspec.structs.replace(page(), scope="view-a"))
    later = msgspec.structs.replace(page(), scope="view-b", fetched_at=first.fetched_at + 10)
    second = await store.put_snapshot(later)
    for stored in (first, second):
        found = await store.get_latest_snapshot(
            stored.url, "readable", max_age_s=1e12, scope=stored.scope
        )
        assert found == stored
    assert (await store.stats()).pages == 2


@pytest.mark.asyncio
async def test_findings_found_and_verified(store: CacheStore) -> None:
    """A finding is found for its question, listed for its source, and can be verified."""
    fact = "Python 3.12 was released on 2 October 2023."
    saved = await store.add_finding("python 3.12 release date", fact, "https://x.test/", ttl_s=60)
    assert [f.id for f in await store.find_findings("release date of python 3.12")] == [saved.id]
    assert await store.find_findings("python 3.11 release date") == []
    assert [f.id for f in await store.findings_for_source("https://x.test/")] == [saved.id]
    assert await store.mark_verified(saved.id, verified_by_url="https://x.test/") is True
    assert await store.mark_verified(saved.id + 1000, verified_by_url="https://x.test/") is False
    assert await store.findings_for_source("https://x.test/") == []
    (found,) = await store.find_findings("python 3.12 release date")
    assert (found.verified, found.verified_by_url) == (True, "https://x.test/")


@pytest.mark.asyncio
async def test_findings_of_a_source_are_listed_newest_first_up_to_a_limit(
    store: CacheStore,
) -> None:
    """A source's unverified findings come newest first, at most *limit* of them."""
    ids = [
        (await store.add_finding("q", f"Fact number {n} here.", "https://x.test/", ttl_s=60)).id
        for n in range(3)
    ]
    listed = await store.findings_for_source("https://x.test/", limit=2)
    assert [f.id for f in listed] == [ids[2], ids[1]]
    assert len(await store.findings_for_source("https://x.test/")) == 3


@pytest.mark.asyncio
async def test_a_stores_own_findings_of_a_source_come_first(
    store: CacheStore, store_config: CacheConfig, clock: FakeClock
) -> None:
    """A store's own unverified findings of a source come before other agents', newest
    first: another agent saving many findings for that URL, which its page never holds,
    kept a fetch from ever comparing this agent's finding with the page."""
    mine = await store.add_finding("q", "My fact is right here.", "https://x.test/", ttl_s=60)
    other = open_store(store_config, clock=clock)
    try:
        flood = [
            (await other.add_finding("q", f"Bogus fact {n} here.", "https://x.test/", ttl_s=60)).id
            for n in range(5)
        ]
        listed = await store.findings_for_source("https://x.test/", limit=3)
        assert [f.id for f in listed] == [mine.id, flood[4], flood[3]]
        theirs = await other.findings_for_source("https://x.test/", limit=3)
        assert [f.id for f in theirs] == [flood[4], flood[3], flood[2]]
    finally:
        await other.aclose()


@pytest.mark.asyncio
async def test_a_flood_of_findings_hides_no_verified_or_own_finding(
    store: CacheStore, store_config: CacheConfig, clock: FakeClock
) -> None:
    """Findings on a question come verified first, then this agent's own, then the best
    matches: another agent that saved sixty findings on the question, each a better match,
    hid a verified finding and this agent's own from every search on it."""
    question = "tortoise lifespan"
    verified = await store.add_finding(
        question, "Giant ones live 150 years.", "https://x.test/", ttl_s=60
    )
    assert await store.mark_verified(verified.id, verified_by_url="https://x.test/")
    mine = await store.add_finding(question, "Some exceed a century.", None, ttl_s=60)
    other = open_store(store_config, clock=clock)
    try:
        for n in range(60):
            await other.add_finding(
                question, f"Tortoise lifespan: tortoise {n} lifespan.", None, ttl_s=60
            )
        found = await store.find_findings(question, limit=3)
        assert [f.id for f in found[:2]] == [verified.id, mine.id]
    finally:
        await other.aclose()


@pytest.mark.asyncio
async def test_past_its_cap_a_new_finding_deletes_the_oldest(store: CacheStore) -> None:
    """A store keeps at most *keep* findings: one more deletes the oldest (with its
    verifications), so a model saving findings by the thousand cannot grow it for ever."""
    ids = []
    for n in range(5):
        fact = f"Fact number {n} is here."
        ids.append((await store.add_finding("q", fact, "https://x.test/", ttl_s=60, keep=3)).id)
        if n == 0:
            assert await store.mark_verified(ids[0], verified_by_url="https://x.test/")
    left = await store.findings_for_source("https://x.test/")
    assert sorted(f.id for f in left) == ids[2:]
    assert (await store.stats()).findings == 3


@pytest.mark.asyncio
async def test_a_flood_of_findings_deletes_only_its_own(
    store: CacheStore, store_config: CacheConfig, clock: FakeClock
) -> None:
    """An agent keeps at most *keep_own* findings of its own: past them, its new findings
    delete its own oldest, so a model saving thousands of findings does not push out what
    the other agents sharing the cache saved; the whole store's cap still holds."""
    other = open_store(store_config, clock=clock)
    try:
        theirs = [
            (await other.add_finding("q", f"Their fact {n} here.", "https://x.test/", ttl_s=60)).id
            for n in range(2)
        ]
        flood = [
            (
                await store.add_finding(
                    "q", f"Flood fact {n} here.", "https://x.test/", ttl_s=60, keep_own=3
                )
            ).id
            for n in range(10)
        ]
        left = {f.id for f in await store.findings_for_source("https://x.test/")}
        assert left == {*theirs, *flood[-3:]}
        await other.add_finding("q", "Their last fact.", "https://x.test/", ttl_s=60, keep=4)
        assert (await store.stats()).findings == 4
    finally:
        await other.aclose()


@pytest.mark.asyncio
async def test_findings_expire(store: CacheStore, clock: FakeClock) -> None:
    """A finding past its lifetime is no longer found."""
    await store.add_finding("tortoise lifespan", "About 150 years.", None, ttl_s=60)
    clock.advance(61)
    assert await store.find_findings("tortoise lifespan") == []


@pytest.mark.asyncio
async def test_slots_are_spaced_by_the_rate(store: CacheStore, clock: FakeClock) -> None:
    """Each slot of a bucket starts one interval after the previous one."""
    waits = [
        (await store.take_slot("brave:k", interval_s=0.5, max_wait_s=10)).wait_s for _ in range(3)
    ]
    assert waits == pytest.approx([0.0, 0.5, 1.0])
    other = await store.take_slot("searxng:k", interval_s=0.5, max_wait_s=10)
    assert other.wait_s == 0


@pytest.mark.asyncio
@pytest.mark.parametrize(("first", "second"), [(100.0, 0.5), (0.5, 100.0)])
async def test_a_slow_setting_does_not_slow_another_process(
    store: CacheStore, store_config: CacheConfig, clock: FakeClock, first: float, second: float
) -> None:
    """Two slots of one key in a row are spaced by the faster of the two settings: a
    process whose manifest asks for one request per 100 s does not hold back another's."""
    other = open_store(store_config, clock=clock)
    try:
        await store.take_slot("brave:k", interval_s=first, max_wait_s=10)
        slot = await other.take_slot("brave:k", interval_s=second, max_wait_s=10)
    finally:
        await other.aclose()
    assert slot.wait_s == pytest.approx(0.5)


@pytest.mark.asyncio
async def test_a_refusal_past_a_slow_setting_names_the_hold_that_delays_it(
    store: CacheStore,
) -> None:
    """After a slot at one request per 100 s and a 5 s hold, a request at 2 per second is
    refused for the provider's retry-after, which is what delays it, not the shared rate."""
    await store.take_slot("brave:k", interval_s=100.0, max_wait_s=10)
    await store.hold("brave:k", 5.0)
    with pytest.raises(ToolError) as info:
        await store.take_slot("brave:k", interval_s=0.5, max_wait_s=1.0)
    assert info.value.retry_after_s == pytest.approx(5.0)
    assert info.value.details["source"] == "provider retry-after, shared"


@pytest.mark.asyncio
async def test_slot_beyond_the_deadline_is_refused(store: CacheStore) -> None:
    """A slot further away than max_wait_s is rate_limited with retry_after_s, not taken."""
    await store.take_slot("brave:k", interval_s=2.0, max_wait_s=10)
    with pytest.raises(ToolError) as info:
        await store.take_slot("brave:k", interval_s=2.0, max_wait_s=1.0)
    assert info.value.code == "rate_limited"
    assert info.value.retry_after_s == pytest.approx(2.0)
    assert (await store.take_slot("brave:k", interval_s=2.0, max_wait_s=10)).wait_s == 2.0


@pytest.mark.asyncio
async def test_hold_delays_every_user_of_the_bucket(
    store: CacheStore, store_config: CacheConfig, clock: FakeClock
) -> None:
    """A 429's Retry-After stored by one client delays the next slot of another client."""
    other = open_store(store_config, clock=clock)
    try:
        await store.hold("brave:k", 3.0)
        slot = await other.take_slot("brave:k", interval_s=0.1, max_wait_s=10)
    finally:
        await other.aclose()
    assert slot.wait_s == pytest.approx(3.0)


@pytest.mark.asyncio
@pytest.mark.parametrize("odd", [float("nan"), float("inf"), -5.0, 1e300])
async def test_an_odd_hold_neither_breaks_nor_outlives_later_holds(
    store: CacheStore, clock: FakeClock, odd: float
) -> None:
    """A hold of NaN, infinite, negative or huge seconds is stored as at most a day: the next
    hold still holds every client back, and no hold lasts past a day."""
    await store.hold("brave:k", odd)
    await store.hold("brave:k", 3.0)
    slot = await store.take_slot("brave:k", interval_s=0.1, max_wait_s=None)
    assert 3.0 <= slot.wait_s <= 86_400.0


@pytest.mark.asyncio
async def test_monthly_limit_and_usage(store: CacheStore, clock: FakeClock) -> None:
    """Requests are counted per day and month; past the monthly limit they are refused."""
    for _ in range(2):
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, monthly_limit=3)
    clock.advance(86_400)  # 2027-01-15 -> the next day, same month
    slot = await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, monthly_limit=3)
    assert slot.month_requests == 3
    with pytest.raises(ToolError) as info:
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, monthly_limit=3)
    assert info.value.code == "quota_exceeded"
    assert info.value.retryable is False
    [usage] = await store.usage()
    assert (usage.bucket, usage.today, usage.month) == ("brave:k", 1, 3)
    assert (await store.stats()).usage == [usage]


@pytest.mark.asyncio
async def test_daily_limit_refuses_until_the_next_utc_day(
    store: CacheStore, clock: FakeClock
) -> None:
    """Past the daily limit a request is refused, uncounted, until the next UTC midnight,
    which its retry_after_s names; the next day counts again."""
    for _ in range(2):
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, daily_limit=2)
    with pytest.raises(ToolError) as info:
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, daily_limit=2)
    error = info.value
    assert (error.code, error.retryable) == ("quota_exceeded", False)
    assert "brave requests today (2) reached the configured daily limit of 2" in error.message
    assert error.retry_after_s == 16 * 3600  # 2027-01-15T08:00Z -> 2027-01-16T00:00Z
    assert error.remedy is not None
    assert error.remedy.startswith("Wait until tomorrow (UTC), or raise web.search.brave.daily")
    assert error.hint is not None
    assert "do not retry today" in error.hint.lower()
    assert "WebFetch" in error.hint
    assert error.details == {"provider": "brave", "daily_limit": 2}
    assert [u.today for u in await store.usage()] == [2]
    clock.advance(16 * 3600)
    slot = await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, daily_limit=2)
    assert slot.month_requests == 3


@pytest.mark.asyncio
async def test_no_daily_limit_means_no_daily_ceiling(store: CacheStore) -> None:
    """A request without a daily limit goes even when today's count reached another
    caller's daily limit."""
    for _ in range(2):
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, daily_limit=2)
    slot = await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10)
    assert slot.month_requests == 3


@pytest.mark.asyncio
async def test_a_lower_monthly_limit_wins_over_the_daily_one(store: CacheStore) -> None:
    """With the monthly limit below the daily one, the monthly limit refuses first."""
    limits = {"monthly_limit": 2, "daily_limit": 5}
    for _ in range(2):
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, **limits)
    with pytest.raises(ToolError) as info:
        await store.take_slot("brave:k", interval_s=0.001, max_wait_s=10, **limits)
    assert info.value.code == "quota_exceeded"
    assert info.value.details == {"provider": "brave", "monthly_limit": 2}
    assert "this month (2)" in info.value.message


@pytest.mark.asyncio
async def test_stats_and_clear(store: CacheStore) -> None:
    """Stats count each store's rows; clear deletes them and says how many."""
    await store.put_search("q words", PARAMS, "mock", b"{}")
    await store.put_snapshot(page())
    await store.add_finding("some question", "some fact", None, ttl_s=60)
    stats = await store.stats()
    assert (stats.searches, stats.pages, stats.findings, stats.fts5) == (1, 1, 1, True)
    assert await store.clear("findings") == 1
    assert await store.clear() == 2
    assert (await store.stats()).searches == 0


@pytest.mark.asyncio
async def test_unreachable_server_is_unavailable_at_once() -> None:
    """A PostgreSQL server that refuses connections gives cache_unavailable, quickly, twice."""
    store = PostgresStore("postgresql://nobody@127.0.0.1:9/none", timeout_s=2.0)
    started = time.monotonic()
    for _ in range(2):
        with pytest.raises(ToolError) as info:
            await store.get_search("q", PARAMS, max_age_s=60)
        assert info.value.code == "cache_unavailable"
        assert "127.0.0.1:9" in info.value.message
    await store.aclose()
    assert time.monotonic() - started < 2.0


def test_migrations_are_plain_sql_files_in_the_package() -> None:
    """The PostgreSQL schema comes from numbered .sql files shipped inside the package."""
    found = migrations()
    assert [(version, name) for version, name, _ in found] == [
        (1, "0001_initial.sql"),
        (2, "0002_snapshot_meta.sql"),
        (3, "0003_finding_scope.sql"),
        (4, "0004_network_view_keys.sql"),
        (5, "0005_finding_writer.sql"),
        (6, "0006_bucket_interval.sql"),
    ]
    assert "CREATE TABLE searches" in found[0][2]


@pytest.mark.asyncio
@pytest.mark.skipif(postgres_url() is None, reason=SKIP_REASON)
async def test_postgres_schema_is_versioned_and_a_newer_one_refused(tmp_path: Path) -> None:
    """Opening records each applied migration; a database from a newer release is refused."""
    import psycopg

    with backend_config("postgresql", tmp_path) as cfg:
        assert cfg.url is not None
        store = PostgresStore(cfg.url)
        await store.stats()
        await store.aclose()
        with psycopg.connect(cfg.url, autocommit=True) as conn:
            rows = conn.execute("SELECT version, name FROM insomnia_web_schema").fetchall()
            assert rows == [
                (1, "0001_initial.sql"),
                (2, "0002_snapshot_meta.sql"),
                (3, "0003_finding_scope.sql"),
                (4, "0004_network_view_keys.sql"),
                (5, "0005_finding_writer.sql"),
                (6, "0006_bucket_interval.sql"),
            ]
            conn.execute("INSERT INTO insomnia_web_schema (version, name) VALUES (99, 'x')")
        newer = PostgresStore(cfg.url)
        with pytest.raises(ToolError) as info:
            await newer.stats()
        await newer.aclose()
    assert info.value.code == "cache_error"
    assert "schema version 99" in info.value.message


@pytest.mark.asyncio
async def test_a_finding_is_verified_per_network_scope(store: CacheStore) -> None:
    """A finding verified under one network view is still to be verified under another;
    verified under that one too, it is verified for both, each by its own page, and for
    no third view."""
    saved = await store.add_finding("q words", "a fact of three words", "https://x.test/", ttl_s=60)
    assert await store.mark_verified(saved.id, verified_by_url="https://x.test/a", scope="a")
    assert await store.findings_for_source("https://x.test/", scope="a") == []
    (again,) = await store.findings_for_source("https://x.test/", scope="b")
    assert (again.id, again.verified, again.verified_by_url) == (saved.id, False, None)
    assert await store.mark_verified(saved.id, verified_by_url="https://x.test/b", scope="b")
    assert await store.findings_for_source("https://x.test/", scope="a") == []
    assert await store.findings_for_source("https://x.test/", scope="b") == []
    seen = {}
    for view in ("a", "b", "c"):
        (found,) = await store.find_findings("q words", scope=view)
        seen[view] = (found.verified, found.verified_by_url)
    assert seen == {
        "a": (True, "https://x.test/a"),
        "b": (True, "https://x.test/b"),
        "c": (False, None),
    }


@pytest.mark.asyncio
async def test_an_answer_dated_in_the_future_is_not_served(
    store: CacheStore, clock: FakeClock
) -> None:
    """A search answer or page stored by a host whose clock runs an hour ahead is not
    served as fresh ("0s old") to hosts with the right time, nor past its freshness."""
    import msgspec

    clock.advance(3600)
    await store.put_search("python asyncio tutorial", PARAMS, "mock", b"{}")
    await store.put_snapshot(msgspec.structs.replace(page(), fetched_at=clock.now))
    clock.advance(-3600)
    assert await store.get_search("python asyncio tutorial", PARAMS, max_age_s=60) is None
    assert await store.get_search("tutorial python asyncio", PARAMS, max_age_s=60) is None
    assert await store.get_latest_snapshot(page().url, "readable", max_age_s=60) is None
