"""Event-loop stalls: a large page extracted with ``convert_async``, and the first excerpt
search that builds the ``static`` reranker.

A ticker coroutine sleeps 1 ms in a loop and records the longest gap between its wake-ups.

1. While a ~5 MB HTML page is converted: the page is extracted in a worker thread and in a
   worker process (forced with the cost threshold), so the table shows why large pages go to
   a process. Target: the longest gap stays under 50 ms.
2. While the first excerpt search of a process runs with ``web.pipeline.rerank = "static"``
   (needs the ``rerank`` extra): a ``MockProvider`` returns three article pages served on
   127.0.0.1. Row ``on the loop`` builds the reranker the way it was built before, in the
   search, on the event loop; row ``worker thread`` as it is built now; row ``none`` is the
   same search without a reranker, whose own first-call costs (imports) both rows share.
   Each row runs in a fresh process, so every row loads its modules (and the model) cold.

    python bench/loop_stall.py [--mb 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable
from typing import Any

from aiohttp import web

from insomnia_web import Runtime, parse_manifest
from insomnia_web.extract import convert_async, shutdown_workers
from insomnia_web.extract.offload import process_threshold_s
from insomnia_web.rank.rerank import Reranker
from insomnia_web.search.base import SearchHit, SearchRequest
from insomnia_web.testing import MockProvider, ProviderPlugin
from insomnia_web.tools.services import WebServices

LOOPBACK = "127.0.0.1"
HOSTS = ("p1.test", "p2.test", "p3.test")


def make_page(target_bytes: int) -> str:
    """A forum-like page of about *target_bytes*: nested posts, links, lists and tables."""
    head = "<html><head><title>Big thread | Example Forum</title></head><body>"
    nav = "<nav><ul>" + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(40))
    parts = [head, nav, "</ul></nav><main><h1>Big thread</h1>"]
    size = sum(map(len, parts))
    n = 0
    while size < target_bytes:
        post = (
            f"<article class='post' id='p{n}'><header><a href='/u/{n}'>user{n}</a>"
            f"<time>2024-01-{n % 28 + 1:02d}</time></header><div class='body'>"
            f"<p>Reply number {n} says something about the topic, with <b>bold</b> words and "
            f"<a href='/t/{n}'>a link</a> in the middle of a fairly long sentence.</p>"
            f"<ul><li>point one of {n}</li><li>point two of {n}</li></ul>"
            f"<table><tr><th>key</th><th>value</th></tr><tr><td>n</td><td>{n}</td></tr></table>"
            f"</div><footer><button>Like</button><button>Reply</button></footer></article>"
        )
        parts.append(post)
        size += len(post)
        n += 1
    parts.append("</main><footer>Copyright Example</footer></body></html>")
    return "".join(parts)


async def longest_stall(work: Awaitable[Any]) -> tuple[float, float]:
    """Return (longest loop gap in ms, wall time in s) while *work* runs."""
    longest = 0.0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    start = time.perf_counter()
    await work
    wall = time.perf_counter() - start
    done.set()
    await task
    return longest * 1000, wall


async def measure(html: str) -> tuple[float, float]:
    """Return (longest loop gap in ms, wall time of the conversion in s)."""
    return await longest_stall(convert_async(html, "text/html", timeout_s=120))


def article(n: int) -> str:
    """A small article page about tortoises."""
    text = f"Page {n}: a giant tortoise can live for more than {100 + n} years in the wild. " * 8
    head = f"<html><head><title>Tortoises {n}</title></head>"
    return f"{head}<body><article><p>{text}</p></article></body></html>"


async def first_search(where: str) -> tuple[float, float]:
    """The longest loop gap (ms) and wall time (s) of the process's first excerpt search with
    the ``static`` reranker built on the event loop (``where="loop"``, as before) or in a
    worker thread (``"thread"``, as now), or without a reranker (``"none"``)."""
    if where == "loop":

        async def on_the_loop(self: WebServices, cls: type[Reranker], *, wait_s: float) -> Any:
            return cls()  # what WebServices.reranker did: __init__ on the event loop

        WebServices.reranker = on_the_loop  # type: ignore[method-assign]

    async def page(request: web.Request) -> web.Response:
        """The article of the host the request names."""
        n = HOSTS.index(request.host.partition(":")[0])
        return web.Response(text=article(n), content_type="text/html")

    app = web.Application()
    app.router.add_get("/", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0)
    await site.start()
    port = runner.addresses[0][1]

    def answer(request: SearchRequest) -> list[SearchHit]:
        return [
            SearchHit(title=f"Tortoises {n}", url=f"http://{h}:{port}/")
            for n, h in enumerate(HOSTS)
        ]

    manifest = parse_manifest(
        {
            "web": {
                "search": {"provider": "sim"},
                "pipeline": {"rerank": "none" if where == "none" else "static"},
                "cache": {"enabled": False},
                "url_policy": {
                    "allow_cidrs": [f"{LOOPBACK}/32"],
                    "ports": [port],
                    "resolve": {h: [LOOPBACK] for h in HOSTS},
                },
            },
            "permissions": {"allow": ["WebSearch", "WebFetch"]},
        }
    )
    provider = ProviderPlugin(MockProvider.named("sim", answer), name="bench-sim-provider")
    try:
        async with Runtime(manifest, plugins=[provider], load_entrypoints=False) as runtime:
            call = runtime.call_tool("WebSearch", {"query": "tortoise lifespan"})
            stall, wall = await longest_stall(call)
    finally:
        await runner.cleanup()
        shutdown_workers()
    return stall, wall


def rerank_table(runs: int) -> None:
    """Print the first-search table, each run of each row in a fresh process."""
    print(f"\nfirst excerpt search with the static reranker, {runs} fresh processes each")
    print(f"{'reranker built':<16}{'max stall ms':>14}{'median stall ms':>18}{'wall s':>10}")
    for where, label in (("none", "none"), ("loop", "on the loop"), ("thread", "worker thread")):
        stalls, walls = [], []
        for _ in range(runs):
            run = subprocess.run(
                [sys.executable, __file__, "--first-search", where],
                capture_output=True,
                text=True,
                check=True,
            )
            stall, wall = map(float, run.stdout.split())
            stalls.append(stall)
            walls.append(wall)
        stalls.sort()
        print(
            f"{label:<16}{max(stalls):>14.1f}{stalls[len(stalls) // 2]:>18.1f}"
            f"{sum(walls) / len(walls):>10.2f}"
        )


async def main_async(mb: float, runs: int) -> None:
    """Print the stall table."""
    html = make_page(int(mb * 1024 * 1024))
    print(f"page: {len(html) / 1e6:.1f} MB of HTML, {runs} runs each")
    print(f"{'worker':<10}{'max stall ms':>16}{'median stall ms':>18}{'wall s':>10}")
    default = process_threshold_s()
    for label, threshold in (("thread", float("inf")), ("process", 0.0)):
        process_threshold_s(threshold)
        if label == "process":
            await measure("<p>warm-up</p>" * 20000)  # start the worker before timing
        stalls, walls = [], []
        for _ in range(runs):
            stall, wall = await measure(html)
            stalls.append(stall)
            walls.append(wall)
        stalls.sort()
        print(
            f"{label:<10}{max(stalls):>16.1f}{stalls[len(stalls) // 2]:>18.1f}"
            f"{sum(walls) / len(walls):>10.2f}"
        )
    process_threshold_s(default)
    print(f"default: documents expected to take >= {default:g} s go to a worker process")
    shutdown_workers()


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=5.0, help="page size in MB")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--first-search", choices=("none", "loop", "thread"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.first_search:  # one row of the first-search table, in this fresh process
        stall, wall = asyncio.run(first_search(args.first_search))
        print(f"{stall:.3f} {wall:.4f}")
        return
    asyncio.run(main_async(args.mb, args.runs))
    rerank_table(args.runs)


if __name__ == "__main__":
    main()
