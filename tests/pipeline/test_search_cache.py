"""The WebSearch cache policy: keys, usable ages, provenance lines, tolerated failures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from insomnia_web.cache import Cache, SqliteStore
from insomnia_web.config import Manifest
from insomnia_web.modeltext import format_age
from insomnia_web.schemas import (
    ResultItem,
    SearchCacheInfo,
    WebSearchInput,
    WebSearchOutput,
)
from insomnia_web.tools.search_cache import (
    SearchCache,
    provenance_header,
    search_params,
    usable_age_s,
)
from insomnia_web.tools.web_search import WebSearch

T0 = 1_800_000_000.0


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def output(query: str = "python asyncio tutorial") -> WebSearchOutput:
    """A small stored answer."""
    return WebSearchOutput(
        query=query,
        provider="mock",
        mode="results",
        cache=SearchCacheInfo(status="miss"),
        results=[ResultItem(rank=1, title="Asyncio", url="https://a.test/")],
        warnings=["cache_error: old problem", "1 page(s) missed the deadline"],
    )


@pytest.fixture
def clock() -> Clock:
    """A fake clock."""
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[SearchCache]:
    """A search cache on the fake clock with a one-day TTL (closed afterwards)."""
    with Cache(tmp_path / "c.sqlite3", clock=clock) as cache:
        yield SearchCache(SqliteStore(cache), ttl_s=86_400, clock=clock)


PARAMS: dict[str, object] = {"provider": "mock", "mode": "results", "count": 5}


async def lookup(
    store: SearchCache, query: str, *, freshness: str | None = None, force: bool = False
) -> tuple[WebSearchOutput, SearchCacheInfo] | None:
    """Look *query* up with the test parameters."""
    return await store.lookup(query, PARAMS, freshness=freshness, force_fresh=force, warnings=[])


def test_freshness_caps_the_usable_age() -> None:
    """Freshness pd/pw/pm/py cap a hit's age; a date range reads no cache; TTL caps all."""
    assert usable_age_s(None, 86_400) == 86_400
    assert usable_age_s("pd", 86_400) == 3600
    assert usable_age_s("pw", 86_400) == 86_400
    assert usable_age_s("pm", 86_400) == 86_400
    assert usable_age_s("py", 10 * 86_400 * 100) == 30 * 86_400
    assert usable_age_s("2026-01-01to2026-02-01", 86_400) is None


def test_age_is_short_and_rounded_down() -> None:
    """Ages read as seconds, minutes, hours or days."""
    assert [format_age(s) for s in (5, 125, 7300, 90_000)] == ["5s", "2m", "2h", "1d"]


def test_provenance_header_forms() -> None:
    """Miss, exact, similar and finding headers read as the design shows."""
    miss = SearchCacheInfo(status="miss")
    exact = SearchCacheInfo(status="hit", match="exact", matched_query="q", age_s=7200)
    similar = SearchCacheInfo(
        status="hit", match="similar", matched_query='earlier "query"', age_s=86_400
    )
    finding = SearchCacheInfo(status="hit", match="finding", matched_query="why", age_s=60)
    assert provenance_header(miss, provider="brave") == "[cache: miss · brave]"
    assert provenance_header(exact, provider="x") == "[cache: exact match · 2h old]"
    assert provenance_header(similar, provider="x") == (
        "[cache: similar match to \"earlier 'query'\" · 1d old]"
    )
    assert provenance_header(finding, provider="x") == ('[cache: finding match to "why" · 1m old]')


def test_key_ignores_domain_order_and_budget_of_results_mode() -> None:
    """Domain filter order never changes the key; max_tokens keys excerpt searches only."""
    tool = WebSearch(Manifest())
    one = tool._request(WebSearchInput(query="q", allowed_domains=["b.test", "a.test"]))
    two = tool._request(WebSearchInput(query="q", allowed_domains=["a.test", "b.test"]))
    p1 = search_params(one, provider="p", mode="results", max_tokens=500, pages=3)
    p2 = search_params(two, provider="p", mode="results", max_tokens=900, pages=3)
    e1 = search_params(one, provider="p", mode="excerpts", max_tokens=500, pages=3)
    e2 = search_params(one, provider="p", mode="excerpts", max_tokens=900, pages=3)
    assert p1 == p2
    assert e1 != e2


def test_key_ignores_the_spelling_of_a_domain() -> None:
    """``*.Example.com`` and ``example.com`` filter alike, so they key alike."""
    tool = WebSearch(Manifest())
    wild = tool._request(WebSearchInput(query="q", blocked_domains=["*.Example.com."]))
    bare = tool._request(WebSearchInput(query="q", blocked_domains=["example.com"]))
    assert wild.blocked_domains == bare.blocked_domains == ("example.com",)
    assert search_params(wild, provider="p", mode="results") == search_params(
        bare, provider="p", mode="results"
    )


@pytest.mark.asyncio
async def test_exact_and_similar_hits(store: SearchCache, clock: Clock) -> None:
    """A stored answer is found for the same query (exact) and a near one (similar)."""
    await store.store("python asyncio tutorial beginners", PARAMS, output(), [])
    clock.now += 3600
    exact = await lookup(store, "Python  asyncio tutorial beginners")
    similar = await lookup(store, "python asyncio tutorial")
    assert exact is not None
    assert exact[1].match == "exact"
    assert exact[1].age_s == 3600
    assert similar is not None
    assert similar[1].match == "similar"
    assert similar[1].matched_query == "python asyncio tutorial beginners"


@pytest.mark.asyncio
async def test_stored_answer_drops_old_cache_warnings(store: SearchCache) -> None:
    """Cache warnings of the call that stored an answer are not replayed by later hits."""
    await store.store("python asyncio", PARAMS, output(), [])
    hit = await lookup(store, "python asyncio")
    assert hit is not None
    assert hit[0].warnings == ["1 page(s) missed the deadline"]


@pytest.mark.asyncio
async def test_stale_by_ttl_or_freshness(store: SearchCache, clock: Clock) -> None:
    """An answer older than the TTL, or than the freshness allows, is not used."""
    await store.store("python asyncio", PARAMS, output(), [])
    clock.now += 2 * 3600
    assert await lookup(store, "python asyncio", freshness="pd") is None
    assert await lookup(store, "python asyncio", freshness="pw") is not None
    clock.now += 86_400
    assert await lookup(store, "python asyncio") is None


@pytest.mark.asyncio
async def test_force_fresh_and_date_range_skip_the_read(store: SearchCache) -> None:
    """force_fresh and a date-range freshness never read the cache."""
    await store.store("python asyncio", PARAMS, output(), [])
    assert await lookup(store, "python asyncio", force=True) is None
    assert await lookup(store, "python asyncio", freshness="2026-01-01to2026-02-01") is None


@pytest.mark.asyncio
async def test_broken_cache_warns_instead_of_failing(tmp_path: Path) -> None:
    """A cache that cannot open turns every operation into a cache_error warning."""
    # A directory is not a database.
    broken = SearchCache(SqliteStore(Cache(tmp_path)), ttl_s=86_400)
    warnings: list[str] = []
    await broken.store("q", PARAMS, output(), warnings)
    hit = await broken.lookup("q", PARAMS, freshness=None, force_fresh=False, warnings=warnings)
    found = await broken.findings("q", warnings)
    assert hit is None
    assert found == []
    assert len(warnings) == 3
    assert all(w.startswith("cache_error:") for w in warnings)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "payload", [b"{not json", b'{"junk": ' + b"[" * 5000 + b"]" * 5000 + b"}"], ids=["bad", "deep"]
)
async def test_unreadable_payload_is_a_miss_with_a_warning(tmp_path: Path, payload: bytes) -> None:
    """A stored payload that no longer decodes, or one nested thousands deep (a host sharing
    the store wrote it; it raised RecursionError, failing every search of its query), is
    ignored with a warning."""
    warnings: list[str] = []
    with Cache(tmp_path / "c.sqlite3") as cache:
        cache.put_search("q words", PARAMS, "mock", payload)
        hit = await SearchCache(SqliteStore(cache), ttl_s=60).lookup(
            "q words", PARAMS, freshness=None, force_fresh=False, warnings=warnings
        )
    assert hit is None
    assert warnings == ["cache_error: a stored answer could not be read; searched again"]


@pytest.mark.asyncio
async def test_findings_are_unverified_with_their_age(store: SearchCache, clock: Clock) -> None:
    """A saved finding comes back unverified, with its age on the search clock."""
    assert store.cache is not None
    await store.cache.add_finding("tortoise lifespan", "About 150 years.", None, ttl_s=86_400)
    clock.now += 120
    found = await store.findings("tortoise lifespan", [])
    assert [(f.content, f.verified, f.age_s) for f in found] == [("About 150 years.", False, 120)]


@pytest.mark.asyncio
async def test_disabled_cache_always_misses() -> None:
    """Without a cache nothing is stored or found, and nothing is warned."""
    off = SearchCache(None, ttl_s=86_400)
    warnings: list[str] = []
    await off.store("q", PARAMS, output(), warnings)
    hit = await off.lookup("q", PARAMS, freshness=None, force_fresh=False, warnings=warnings)
    assert hit is None
    assert await off.findings("q", warnings) == []
    assert warnings == []
