"""SQLite and PostgreSQL side by side: cache hit latency, and eight processes on one key.

Run: ``python bench/shared_store.py --postgres postgresql://user@127.0.0.1:5432/db``
(or set ``INSOMNIA_WEB_BENCH_POSTGRES``; without a server only the SQLite rows run). The
PostgreSQL tables are created in a fresh schema of that database and dropped afterwards.

1. **Hit latency**: ``get_search`` through the store interface, exact and similar hits on
   ~1000 stored searches; median and p99 in milliseconds (and the synchronous SQLite
   cache underneath, for reference). PostgreSQL's table statistics are collected after
   loading, as autovacuum would, so its planner uses the full-text index.
2. **One key, eight processes**: eight processes search as fast as they may for
   ``--seconds`` through one Brave key limited to 1 request/s, against a fake Brave server
   on loopback. A call whose slot is beyond its 5 s deadline fails with ``rate_limited``
   and its process sleeps ``retry_after_s``, as a model is told to. The baseline row is
   the old behaviour: a bucket per process (the cache off). Columns: requests the provider
   saw per second (overall, and the most in any one second), calls that went straight
   through, calls that waited for their slot, calls refused with ``rate_limited`` (their
   slot lay beyond the deadline) and calls that failed otherwise (a timeout).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' store helpers

from tests.cache.backends import scratch_schema

from insomnia_web import ToolError
from insomnia_web.cache import Cache, CacheStore, open_store
from insomnia_web.config import CacheConfig, parse_manifest
from insomnia_web.search.base import SearchRequest
from insomnia_web.search.brave import BraveProvider
from insomnia_web.tools.services import WebServices

PROCESSES = 8
RATE_PER_S = 1.0
DEADLINE_S = 5.0
WAITED_S = 0.05  # a call slower than this waited for its slot
TOPICS = ["python", "rust", "asyncio", "sqlite", "http", "tls", "dns", "json", "unicode", "wal"]
WORDS = ["tutorial", "release", "date", "error", "example", "performance", "guide", "api"]
PARAMS: dict[str, object] = {"provider": "brave", "mode": "excerpts", "count": 5, "offset": 0}
PAYLOAD = b'{"results": [' + b'{"title": "t", "url": "https://e.com/"},' * 10 + b"{}]}"


def _query(n: int) -> str:
    """A distinct four-word query for row *n* (the same scheme as bench/cache.py)."""
    return f"{TOPICS[n % 10]} {WORDS[n // 10 % 8]} {WORDS[(n // 80 + 1) % 8]} v{n}"


def _similar(n: int) -> str:
    """Row *n*'s query with its words in another order."""
    return " ".join(reversed(_query(n).split()))


def _p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


@contextmanager
def _configs(pg_url: str | None) -> Iterator[list[tuple[str, CacheConfig]]]:
    with tempfile.TemporaryDirectory() as tmp:
        configs = [("SQLite", CacheConfig(path=str(Path(tmp) / "cache.sqlite3")))]
        if pg_url is None:
            yield configs
            return
        with scratch_schema(pg_url) as url:
            yield [*configs, ("PostgreSQL", CacheConfig(path=configs[0][1].path, url=url))]


# -- 1. hit latency --------------------------------------------------------------------


async def _timed(calls: int, op: Callable[[int], Awaitable[object]]) -> list[float]:
    out = []
    for i in range(calls):
        start = time.perf_counter_ns()
        hit = await op(i)
        out.append((time.perf_counter_ns() - start) / 1e6)
        assert hit is not None
    return out


async def _latency(
    store: CacheStore, cfg: CacheConfig, rows: int, calls: int
) -> dict[str, list[float]]:
    for n in range(rows):
        await store.put_search(_query(n), PARAMS, "brave", PAYLOAD)
    if cfg.url:  # table statistics, as autovacuum keeps them (else no index for text search)
        import psycopg

        with psycopg.connect(cfg.url, autocommit=True) as conn:
            conn.execute("ANALYZE searches")
    await store.get_search(_query(0), PARAMS, max_age_s=3600)  # warm the connection
    exact = await _timed(
        calls, lambda i: store.get_search(_query(i % rows), PARAMS, max_age_s=3600)
    )
    similar = await _timed(
        calls, lambda i: store.get_search(_similar(i % rows), PARAMS, max_age_s=3600)
    )
    return {"exact": exact, "similar": similar}


def _sync_latency(path: str, rows: int, calls: int) -> list[float]:
    with Cache(path) as cache:
        out = []
        for i in range(calls):
            start = time.perf_counter_ns()
            cache.get_search(_query(i % rows), PARAMS, max_age_s=3600)
            out.append((time.perf_counter_ns() - start) / 1e6)
        return out


# -- 2. one key, eight processes ---------------------------------------------------------


async def _search_loop(manifest: dict[str, Any], seconds: float, barrier: Barrier) -> list[int]:
    services = WebServices(parse_manifest(manifest))
    ok = waited = failed = other = 0
    try:
        provider = services.provider(BraveProvider)
        await asyncio.to_thread(barrier.wait)  # every process starts searching now
        until = time.time() + seconds
        n = 0
        while time.time() < until:
            n += 1
            start = time.monotonic()
            try:
                request = SearchRequest(query=f"q{os.getpid()} {n}", timeout_s=DEADLINE_S)
                await provider.search(request, services.client)
            except ToolError as exc:
                if exc.code != "rate_limited":
                    other += 1
                    print(f"bench: a search failed: {exc.code}: {exc.message}", file=sys.stderr)
                    continue
                failed += 1
                await asyncio.sleep(min(exc.retry_after_s or 1.0, max(until - time.time(), 0)))
                continue
            if time.monotonic() - start > WAITED_S:
                waited += 1
            else:
                ok += 1
    finally:
        await services.aclose()
    return [ok, waited, failed, other]


def _worker(manifest: dict[str, Any], seconds: float, barrier: Barrier, out: Any) -> None:
    os.environ["BRAVE_SEARCH_API_KEY"] = "bench-one-key"
    os.environ["INSOMNIA_PLUGINS"] = ""
    out.put(asyncio.run(_search_loop(manifest, seconds, barrier)))


async def _throughput(cache: dict[str, Any], seconds: float) -> dict[str, float]:
    arrivals: list[float] = []

    async def search(request: web.Request) -> web.Response:
        arrivals.append(time.monotonic())
        return web.json_response({"web": {"results": []}})

    app = web.Application()
    app.router.add_get("/res/v1/web/search", search)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    manifest = {
        "web": {
            "cache": cache,
            "search": {
                "provider": "brave",
                "rate_limit_per_s": RATE_PER_S,
                "timeout_s": DEADLINE_S,
                "brave": {"base_url": f"http://127.0.0.1:{port}"},
            },
        }
    }
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(PROCESSES)
    queue = ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(manifest, seconds, barrier, queue))
        for _ in range(PROCESSES)
    ]
    for proc in procs:
        proc.start()
    results = [await asyncio.to_thread(queue.get, True, seconds + 120) for _ in procs]
    for proc in procs:
        await asyncio.to_thread(proc.join, 30)
    await runner.cleanup()
    times = sorted(arrivals)
    span = max(times[-1] - times[0], 1e-9) if len(times) > 1 else 1.0
    window = max(sum(1 for t in times[i:] if t < s + 1.0) for i, s in enumerate(times))
    return {
        "per_s": (len(times) - 1) / span if len(times) > 1 else 0.0,
        "max_1s": window,
        "requests": len(times),
        "ok": sum(r[0] for r in results),
        "waited": sum(r[1] for r in results),
        "failed": sum(r[2] for r in results),
        "other": sum(r[3] for r in results),
    }


async def _main(args: argparse.Namespace) -> None:
    pg_url = args.postgres or os.environ.get("INSOMNIA_WEB_BENCH_POSTGRES")
    with _configs(pg_url) as configs:
        print(f"Cache hit latency, {args.rows} stored searches, {args.calls} lookups (ms)")
        print(f"{'store':<28} {'exact med':>10} {'exact p99':>10} {'similar med':>12} "
              f"{'similar p99':>12}")  # fmt: skip
        for name, cfg in configs:
            store = open_store(cfg)
            try:
                lat = await _latency(store, cfg, args.rows, args.calls)
            finally:
                await store.aclose()
            e, s = lat["exact"], lat["similar"]
            print(f"{name + ' (async store)':<28} {statistics.median(e):>10.3f} "
                  f"{_p99(e):>10.3f} {statistics.median(s):>12.3f} {_p99(s):>12.3f}")  # fmt: skip
            if name == "SQLite":
                sync = _sync_latency(cfg.path, args.rows, args.calls)
                print(f"{'SQLite (sync Cache)':<28} {statistics.median(sync):>10.3f} "
                      f"{_p99(sync):>10.3f}")  # fmt: skip
        if pg_url is None:
            print("PostgreSQL: skipped (pass --postgres URL or set INSOMNIA_WEB_BENCH_POSTGRES)")

        print()
        print(f"{PROCESSES} processes, one key at {RATE_PER_S:g} request/s, {args.seconds:g} s, "
              f"deadline {DEADLINE_S:g} s")  # fmt: skip
        print(f"{'budget':<28} {'seen/s':>7} {'max in 1s':>10} {'requests':>9} {'direct':>7} "
              f"{'waited':>7} {'limited':>8} {'other':>6}")  # fmt: skip
        rows: list[tuple[str, dict[str, Any]]] = [("per process (cache off)", {"enabled": False})]
        rows += [(f"shared: {name}", {"path": c.path, "url": c.url}) for name, c in configs]
        for label, cache in rows:
            r = await _throughput(cache, args.seconds)
            print(f"{label:<28} {r['per_s']:>7.2f} {r['max_1s']:>10} {r['requests']:>9} "
                  f"{r['ok']:>7} {r['waited']:>7} {r['failed']:>8} {r['other']:>6}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure against")
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=15.0)
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
