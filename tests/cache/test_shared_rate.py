"""Eight processes sharing one provider key and one store stay within the key's rate."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from insomnia_web.cache import open_store
from insomnia_web.config import CacheConfig
from insomnia_web.search.ratelimit import SharedBucket

from ..support import LOOPBACK, start_app
from ._searcher import search_many
from .backends import BACKENDS, backend_config

PROCESSES = 8
SEARCHES = 3
RATE_PER_S = 8.0


class FakeBrave:
    """Records when each search request arrives (on this process's monotonic clock)."""

    def __init__(self) -> None:
        self.arrivals: list[float] = []

    async def search(self, request: web.Request) -> web.Response:
        """The /res/v1/web/search endpoint: no results."""
        self.arrivals.append(time.monotonic())
        return web.json_response({"web": {"results": []}})


@pytest_asyncio.fixture
async def brave() -> AsyncIterator[tuple[FakeBrave, int]]:
    """A fake Brave API on loopback: its recorder and its port."""
    fake = FakeBrave()
    app = web.Application()
    app.router.add_get("/res/v1/web/search", fake.search)
    runner, port = await start_app(app)
    yield fake, port
    await runner.cleanup()


def brave_manifest(cfg: CacheConfig, port: int, rate_per_s: float) -> dict[str, Any]:
    """A manifest searching the fake Brave on *port* at *rate_per_s*, caching in *cfg*."""
    return {
        "web": {
            "cache": {"path": cfg.path, "url": cfg.url},
            "search": {
                "provider": "brave",
                "rate_limit_per_s": rate_per_s,
                "brave": {"base_url": f"http://{LOOPBACK}:{port}"},
            },
        }
    }


async def run_searchers(runs: list[tuple[dict[str, Any], int]]) -> list[int | None]:
    """Start one process per ``(manifest, searches)`` of *runs*, all with one API key, which
    search together once every one is ready; return their exit codes."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(len(runs))
    procs = [
        ctx.Process(target=search_many, args=(manifest, "one-key", worker, searches, barrier))
        for worker, (manifest, searches) in enumerate(runs)
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        await asyncio.to_thread(proc.join, 100)
    return [proc.exitcode for proc in procs]


def most_in_one_second(arrivals: list[float]) -> int:
    """The largest number of arrivals inside any window of one second."""
    times = sorted(arrivals)
    return max(sum(1 for t in times[i:] if t < start + 1.0) for i, start in enumerate(times))


@pytest.mark.asyncio
@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", BACKENDS)
async def test_eight_processes_share_one_rate(
    backend: str, tmp_path: Path, brave: tuple[FakeBrave, int]
) -> None:
    """The fake provider never sees more than the rate (within one request) in any second,
    and every finding each process wrote is read back."""
    fake, port = brave
    with backend_config(backend, tmp_path) as cfg:
        manifest = brave_manifest(cfg, port, RATE_PER_S)
        exits = await run_searchers([(manifest, SEARCHES)] * PROCESSES)
        assert exits == [0] * PROCESSES
        store = open_store(CacheConfig(path=cfg.path, url=cfg.url))
        try:
            found = {
                (w, n): await store.find_findings(f"worker {w} fact {n}", limit=50)
                for w in range(PROCESSES)
                for n in range(SEARCHES)
            }
            usage = await store.usage()
        finally:
            await store.aclose()
    total = PROCESSES * SEARCHES
    assert len(fake.arrivals) == total
    assert most_in_one_second(fake.arrivals) <= RATE_PER_S + 1
    # The whole run is spaced by the rate: 24 requests at 8/s take at least 23/8 s.
    assert max(fake.arrivals) - min(fake.arrivals) >= (total - 1) / RATE_PER_S - 0.1
    for (w, n), findings in found.items():
        assert any(f.query == f"worker {w} fact {n}" for f in findings)
    assert [u.month for u in usage] == [total]


@pytest.mark.asyncio
@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_slow_manifest_does_not_slow_the_others(
    backend: str, tmp_path: Path, brave: tuple[FakeBrave, int]
) -> None:
    """After a process whose manifest allows one request per 100 s took the key's slot,
    another process at 8 per second still sends its three searches within half a second."""
    fake, port = brave
    with backend_config(backend, tmp_path) as cfg:
        assert await run_searchers([(brave_manifest(cfg, port, 0.01), 1)]) == [0]
        assert await run_searchers([(brave_manifest(cfg, port, RATE_PER_S), 3)]) == [0]
    assert len(fake.arrivals) == 4
    assert fake.arrivals[-1] - fake.arrivals[1] < 0.5


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_a_process_with_many_searches_queued_takes_turns_with_another(
    store_config: CacheConfig,
) -> None:
    """A process with 40 searches queued on a key holds one turn at a time in the shared
    queue, so each search another process sends meanwhile waits at most about two turns
    (it waited behind all 40, past its deadline)."""
    rate = 10.0
    busy_store, other_store = open_store(store_config), open_store(store_config)
    busy, other = SharedBucket(busy_store, "brave:k"), SharedBucket(other_store, "brave:k")
    flood = [
        asyncio.create_task(busy.acquire(rate, deadline=time.monotonic() + 10)) for _ in range(40)
    ]
    try:
        await asyncio.sleep(0.2)
        waits = [await other.acquire(rate, deadline=time.monotonic() + 1) for _ in range(6)]
    finally:
        for task in flood:
            task.cancel()
        await asyncio.gather(*flood, return_exceptions=True)
        await busy_store.aclose()
        await other_store.aclose()
    assert max(waits) < 3 / rate
