"""Wall time of concurrent WebSearch calls under the local rate limit.

Run: ``python bench/ratelimit.py [--searches N] [--rates 5,1000]``. Starts a SearXNG-compatible
fake provider on 127.0.0.1, then for each rate runs N concurrent ``WebSearch`` calls
(``mode="results"``) through the runtime and the real SafeClient. With burst 1, N calls at
rate R should take about ``(N - 1) / R`` seconds: ten at 5/s about 1.8 s, at 1000/s almost 0.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from aiohttp import web

from insomnia_web import AutoApprovePrompter, Runtime, parse_manifest
from insomnia_web.search.ratelimit import reset_buckets


async def _search(request: web.Request) -> web.Response:
    """A SearXNG-style answer with one result per query."""
    query = request.query.get("q", "")
    result = {"url": f"https://example.com/{query}", "title": query, "content": "snippet"}
    return web.json_response({"query": query, "results": [result]})


async def _serve() -> tuple[web.AppRunner, str]:
    app = web.Application()
    app.router.add_get("/search", _search)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.Server)
    port = server.sockets[0].getsockname()[1]
    return runner, f"http://127.0.0.1:{port}"


async def _run(origin: str, rate: float, searches: int) -> tuple[float, int]:
    """Seconds for *searches* concurrent calls at *rate*, and how many succeeded."""
    reset_buckets()
    manifest = parse_manifest(
        {
            "web": {
                "cache": {"enabled": False},
                "search": {
                    "provider": "searxng",
                    "mode": "results",
                    "rate_limit_per_s": rate,
                    "timeout_s": 30,
                    "searxng": {"base_url": origin},
                },
            },
            "permissions": {"allow": ["WebSearch"]},
        }
    )
    async with Runtime(manifest, prompter=AutoApprovePrompter(), load_entrypoints=False) as runtime:
        started = time.perf_counter()
        results = await asyncio.gather(
            *(runtime.call_tool("WebSearch", {"query": f"q{i}"}) for i in range(searches))
        )
        elapsed = time.perf_counter() - started
    return elapsed, sum(r.ok for r in results)


async def _main(searches: int, rates: list[float]) -> None:
    runner, origin = await _serve()
    try:
        rows = [(rate, *await _run(origin, rate, searches)) for rate in rates]
    finally:
        await runner.cleanup()
    fastest = min(row[1] for row in rows)
    print(f"{searches} concurrent WebSearch calls (results mode) against a local fake provider")
    print(f"{'rate/s':>8} {'ok':>4} {'wall s':>8} {'expected s':>11} {'x fastest':>10}")
    for rate, elapsed, ok in rows:
        expected = (searches - 1) / rate
        print(f"{rate:>8g} {ok:>4} {elapsed:>8.3f} {expected:>11.3f} {elapsed / fastest:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--searches", type=int, default=10)
    parser.add_argument("--rates", default="5,1000", help="comma-separated requests per second")
    args = parser.parse_args()
    asyncio.run(_main(args.searches, [float(r) for r in args.rates.split(",")]))


if __name__ == "__main__":
    main()
