"""Event-loop stall while a large page is extracted with ``convert_async``.

A ticker coroutine sleeps 1 ms in a loop and records the longest gap between its wake-ups
while a ~5 MB HTML page is converted. The page is extracted in a worker thread and in a
worker process (forced with the cost threshold), so the table shows why large pages go to a
process. Target: the longest gap stays under 50 ms.

    python bench/loop_stall.py [--mb 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from insomnia_web.extract import convert_async, shutdown_workers
from insomnia_web.extract.offload import process_threshold_s


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


async def measure(html: str) -> tuple[float, float]:
    """Return (longest loop gap in ms, wall time of the conversion in s)."""
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
    await convert_async(html, "text/html", timeout_s=120)
    wall = time.perf_counter() - start
    done.set()
    await task
    return longest * 1000, wall


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
    args = parser.parse_args()
    asyncio.run(main_async(args.mb, args.runs))


if __name__ == "__main__":
    main()
