"""WebSearch end to end: excerpt mode, cache hits and their provenance lines, findings."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from insomnia_web import AutoApprovePrompter, Manifest, Prompter, Runtime, parse_manifest
from insomnia_web.cache import Cache, CacheStore, SqliteStore
from insomnia_web.history import MemoryHistory, ProgressEvent
from insomnia_web.rank import estimate_tokens
from insomnia_web.search.base import (
    SearchHit,
    SearchRequest,
)
from insomnia_web.testing import MockProvider, ProviderPlugin
from insomnia_web.tools.services import WebServices
from insomnia_web.tools.web_search import WebSearch
from tests.support import LOOPBACK
from tests.tools.test_cache_off_loop import HOLD_S, TICK_S, competing_writer, ticks_during

from .conftest import HOSTS, Page, SimWeb, article

MISS_RE = re.compile(r"^\[cache: miss · mock\]$")
T0 = 1_800_000_000.0


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class ClockedServices(WebServices):
    """Shared services whose cache lives at a given path on a fake clock."""

    def __init__(self, manifest: Manifest, path: Path, clock: Clock) -> None:
        super().__init__(manifest)
        self.test_cache = SqliteStore(Cache(path, clock=clock))
        self._cache = self.test_cache  # closed by aclose() like the real one

    @property
    def cache(self) -> CacheStore | None:
        """The test cache."""
        return self.test_cache


class Web:
    """A runtime searching a mock provider whose hits point at the simulated web."""

    def __init__(self, sim: SimWeb, tmp_path: Path) -> None:
        self.sim = sim
        self.clock = Clock()
        self.hits: list[SearchHit] = []
        self.calls = 0
        self.cache_path = tmp_path / "cache.sqlite3"
        self.runtimes: list[Runtime] = []
        self.history = MemoryHistory()

    def answer(self, request: SearchRequest) -> list[SearchHit]:
        """The provider's handler: the configured hits, counting calls."""
        self.calls += 1
        return list(self.hits)

    def runtime(
        self,
        *,
        mode: str = "excerpts",
        cache_path: Path | None = None,
        pipeline: dict[str, Any] | None = None,
        plugins: tuple[object, ...] = (),
        permissions: dict[str, Any] | None = None,
        prompter: Prompter | None = None,
        **url_policy: Any,
    ) -> Runtime:
        """A runtime for the mock provider (and *plugins*); its WebSearch uses the fake clock.

        *permissions* replaces the permission table (default: WebSearch and WebFetch allowed);
        other keywords are added to ``web.url_policy``.
        """
        provider = MockProvider.named("mock", self.answer)

        manifest = parse_manifest(
            {
                "web": {
                    "search": {"provider": "mock", "mode": mode},
                    "pipeline": {"deadline_s": 3, **(pipeline or {})},
                    "url_policy": {
                        "allow_cidrs": [f"{LOOPBACK}/32"],
                        "ports": [self.sim.port],
                        "resolve": {h: [LOOPBACK] for h in HOSTS},
                        **url_policy,
                    },
                },
                "permissions": permissions or {"allow": ["WebSearch", "WebFetch"]},
            }
        )
        rt = Runtime(
            manifest,
            prompter=prompter or AutoApprovePrompter(),
            history=self.history,
            plugins=[ProviderPlugin(provider, name="test-mock-provider"), *plugins],
            load_entrypoints=False,
        )
        tool = rt.get_tool("WebSearch")
        assert isinstance(tool, WebSearch)
        tool.services = ClockedServices(manifest, cache_path or self.cache_path, self.clock)
        tool._now = lambda: datetime.fromtimestamp(self.clock(), UTC)  # type: ignore[method-assign]
        self.runtimes.append(rt)
        return rt

    def cache(self) -> Cache:
        """The test cache of the first runtime."""
        tool = self.runtimes[0].get_tool("WebSearch")
        assert isinstance(tool, WebSearch)
        assert isinstance(tool.services, ClockedServices)
        return tool.services.test_cache.cache


@pytest_asyncio.fixture
async def env(sim: SimWeb, tmp_path: Path) -> AsyncIterator[Web]:
    """Two tortoise pages on the simulated web and a provider returning them."""
    state = Web(sim, tmp_path)
    for rank, host in enumerate(("a.test", "b.test"), start=1):
        url = sim.add(host, "/p", Page(body=article(
            f"Tortoises {rank}",
            f"Page {rank}: a giant tortoise lifespan is about {100 + rank} years.",
            "Gardens and weather are unrelated here.",
        )))  # fmt: skip
        state.hits.append(SearchHit(title=f"Tortoises {rank}", url=url, snippet="tortoise facts"))
    yield state
    for rt in state.runtimes:
        await rt.aclose()


async def search(rt: Runtime, query: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    """Call WebSearch; return its text and structured output."""
    result = await rt.call_tool("WebSearch", {"query": query, **extra})
    assert result.ok, result.text
    assert result.output is not None
    return result.text, result.output


@pytest.mark.asyncio
async def test_excerpt_search_reads_pages_and_reports_progress(env: Web) -> None:
    """mode=excerpts fetches the pages, returns labelled passages and logs progress."""
    rt = env.runtime()
    text, out = await search(rt, "giant tortoise lifespan")
    assert MISS_RE.match(text.splitlines()[0])
    assert out["mode"] == "excerpts"
    assert [p["status"] for p in out["pages"]] == ["ok", "ok"]
    assert "about 101 years" in text
    assert f"[1] Tortoises 1 - {env.hits[0].url}" in text
    progress = [e.message for e in env.history.events if isinstance(e, ProgressEvent)]
    assert f"fetched {env.hits[0].url}" in progress


@pytest.mark.asyncio
async def test_repeat_is_an_exact_hit_with_the_same_answer(env: Web) -> None:
    """The same search again is served from the cache, says so, and keeps the excerpts."""
    rt = env.runtime()
    _, first = await search(rt, "giant tortoise lifespan")
    env.clock.now += 2 * 3600
    text, again = await search(rt, "Giant tortoise  lifespan")
    assert text.splitlines()[0] == "[cache: exact match · 2h old]"
    assert again["cache"] == {
        "status": "hit",
        "match": "exact",
        "matched_query": "giant tortoise lifespan",
        "age_s": 7200.0,
    }
    assert again["excerpts"] == first["excerpts"]
    assert env.calls == 1


@pytest.mark.asyncio
async def test_similar_query_is_a_similar_hit(env: Web) -> None:
    """A query whose words are all in an earlier one reuses it, quoting the earlier query."""
    rt = env.runtime(mode="results")
    await search(rt, "giant tortoise lifespan years")
    env.clock.now += 86_400 - 1
    text, out = await search(rt, "giant tortoise lifespan")
    assert text.splitlines()[0] == (
        '[cache: similar match to "giant tortoise lifespan years" · 23h old]'
    )
    assert out["cache"]["match"] == "similar"
    assert env.calls == 1


@pytest.mark.asyncio
async def test_answer_older_than_the_ttl_is_not_reused(env: Web) -> None:
    """After search_ttl_s the provider is asked again and the header says miss."""
    rt = env.runtime(mode="results")
    await search(rt, "giant tortoise lifespan")
    env.clock.now += 86_400 + 1
    text, out = await search(rt, "giant tortoise lifespan")
    assert MISS_RE.match(text.splitlines()[0])
    assert out["cache"]["status"] == "miss"
    assert env.calls == 2


@pytest.mark.asyncio
async def test_freshness_caps_the_age_of_a_hit(env: Web) -> None:
    """With freshness=pd an answer is reused at 30 minutes old but not at two hours."""
    rt = env.runtime(mode="results")
    await search(rt, "giant tortoise lifespan", freshness="pd")
    env.clock.now += 1800
    young, _ = await search(rt, "giant tortoise lifespan", freshness="pd")
    env.clock.now += 5400
    old, _ = await search(rt, "giant tortoise lifespan", freshness="pd")
    assert young.splitlines()[0] == "[cache: exact match · 30m old]"
    assert MISS_RE.match(old.splitlines()[0])
    assert env.calls == 2


@pytest.mark.asyncio
async def test_force_fresh_skips_the_read_but_stores(env: Web) -> None:
    """force_fresh asks the provider again, and its answer serves the next call."""
    rt = env.runtime(mode="results")
    await search(rt, "giant tortoise lifespan")
    env.clock.now += 3600
    forced, _ = await search(rt, "giant tortoise lifespan", force_fresh=True)
    env.clock.now += 60
    after, _ = await search(rt, "giant tortoise lifespan")
    assert MISS_RE.match(forced.splitlines()[0])
    assert after.splitlines()[0] == "[cache: exact match · 1m old]"
    assert env.calls == 2


@pytest.mark.asyncio
async def test_findings_follow_the_web_excerpts_unverified(env: Web) -> None:
    """A related finding is shown after the excerpts, labelled UNVERIFIED, and structured."""
    rt = env.runtime()
    env.cache().add_finding("giant tortoise lifespan", "Over 150 years.", None, ttl_s=86_400)
    text, out = await search(rt, "giant tortoise lifespan")
    assert text.index("UNVERIFIED model finding") > text.index("about 101 years")
    assert [(f["content"], f["verified"]) for f in out["findings"]] == [("Over 150 years.", False)]
    assert out["cache"]["status"] == "miss"


@pytest.mark.asyncio
async def test_finding_alone_is_served_as_a_finding_match(env: Web) -> None:
    """With no web results but a matching finding, the header says finding match."""
    env.hits.clear()
    rt = env.runtime(mode="results")
    source = env.sim.url("a.test", "/x")
    env.cache().add_finding("tortoise lifespan", "Over 150 years.", source, ttl_s=10 * 86_400)
    env.clock.now += 3 * 86_400 - 5000
    text, out = await search(rt, "tortoise lifespan")
    assert text.splitlines()[0] == '[cache: finding match to "tortoise lifespan" · 2d old]'
    assert out["cache"]["match"] == "finding"
    assert f"UNVERIFIED model finding (claimed source: {source})" in text


@pytest.mark.asyncio
async def test_cache_failure_is_a_warning_not_an_error(env: Web, tmp_path: Path) -> None:
    """A cache that cannot open leaves the search working, with cache_error warnings."""
    rt = env.runtime(mode="results", cache_path=tmp_path)  # a directory, not a database
    text, out = await search(rt, "giant tortoise lifespan")
    assert MISS_RE.match(text.splitlines()[0])
    assert out["results"]
    assert any(w.startswith("cache_error:") for w in out["warnings"])
    assert "Warning: cache_error:" in text


@pytest.mark.asyncio
async def test_budget_above_the_cap_is_the_cap(env: Web) -> None:
    """max_tokens above the manifest's cap is capped, so both calls share one cached answer."""
    rt = env.runtime()
    await search(rt, "giant tortoise lifespan", max_tokens=8000)
    text, _ = await search(rt, "giant tortoise lifespan", max_tokens=1500)
    assert text.splitlines()[0] == "[cache: exact match · 0s old]"
    assert env.calls == 1


@pytest.mark.asyncio
async def test_a_different_budget_is_a_different_search(env: Web) -> None:
    """An excerpt search with another max_tokens is not answered from the cache."""
    rt = env.runtime()
    await search(rt, "giant tortoise lifespan", max_tokens=1000)
    text, _ = await search(rt, "giant tortoise lifespan", max_tokens=500)
    assert MISS_RE.match(text.splitlines()[0])
    assert env.calls == 2


@pytest.mark.asyncio
async def test_domain_spellings_share_a_cache_entry(env: Web) -> None:
    """``*.Example.com`` and ``example.com`` are one filter, so the second call is a hit."""
    rt = env.runtime(mode="results")
    await search(rt, "giant tortoise lifespan", blocked_domains=["*.Example.com"])
    text, out = await search(rt, "giant tortoise lifespan", blocked_domains=["example.com"])
    assert text.splitlines()[0] == "[cache: exact match · 0s old]"
    assert out["cache"]["match"] == "exact"
    assert env.calls == 1


@pytest.mark.asyncio
async def test_locked_cache_does_not_block_the_loop(env: Web) -> None:
    """While another writer holds the lock, storing the answer waits off the event loop."""
    rt = env.runtime(mode="results")
    env.cache().find_findings("warm up")  # create the database file
    with competing_writer(env.cache_path):
        call = asyncio.ensure_future(search(rt, "giant tortoise lifespan"))
        ticks = await ticks_during(call)
        text, _ = await call
    assert MISS_RE.match(text.splitlines()[0])
    assert "cache_error" not in text
    # A blocked loop would not tick at all until the lock was released.
    assert ticks >= (HOLD_S / TICK_S) / 4


@pytest.mark.asyncio
@pytest.mark.parametrize("budget", [100, 150, 300, 1000])
async def test_max_tokens_bounds_the_whole_text_and_tokens_reports_it(
    env: Web, budget: int
) -> None:
    """The whole text the model reads, header and notes included, fits max_tokens."""
    rt = env.runtime()
    text, out = await search(rt, "giant tortoise lifespan", max_tokens=budget)
    assert estimate_tokens(text) <= budget
    assert out["tokens"] == estimate_tokens(text)
    assert text.startswith("[cache: miss")


@pytest.mark.asyncio
async def test_max_pages_per_host_limits_the_pages_read_of_one_host(env: Web) -> None:
    """With web.pipeline.max_pages_per_host = 1, a second result on the same host is not
    read (no page status) but stays among the results."""
    second = env.sim.add("a.test", "/q", Page(body=article("More", "Tortoise lifespan: 150.")))
    env.hits.insert(1, SearchHit(title="More tortoises", url=second, snippet="tortoise facts"))
    rt = env.runtime(pipeline={"max_pages_per_host": 1})
    _, out = await search(rt, "giant tortoise lifespan")
    assert [p["url"] for p in out["pages"]] == [env.hits[0].url, env.hits[2].url]
    assert second in [r["url"] for r in out["results"]]
    assert ("a.test", "/q") not in env.sim.seen


@pytest.mark.asyncio
async def test_excerpts_read_at_an_allowed_private_address_are_not_reused_by_a_stricter_one(
    env: Web,
) -> None:
    """An excerpt answer whose pages one manifest read at private addresses it allows is not
    served, from the same cache, to a manifest whose policy refuses those addresses."""
    await search(env.runtime(), "giant tortoise lifespan")
    text, out = await search(env.runtime(allow_cidrs=[]), "giant tortoise lifespan")
    assert MISS_RE.match(text.splitlines()[0])
    assert "about 101 years" not in text
    assert [p["status"] for p in out["pages"]] != ["ok", "ok"]
    assert env.calls == 2
