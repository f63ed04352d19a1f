"""PDF reading: time per document, and the event-loop stall it causes, thread vs process.

A ticker coroutine sleeps 1 ms in a loop and records the longest gap between its wake-ups
while a generated text PDF (40 lines a page) is read with pypdf: in a worker thread, and in
a worker process as WebFetch does (``convert_pdf_async``). pypdf is pure Python, so in a
thread it competes for the GIL with the loop, and a thread cannot be stopped at the
deadline; a process can (its pool is replaced). The table shows what the process costs in
wall time and what it saves in loop gaps. Target: the longest gap with the process stays
under 50 ms.

    python bench/pdf.py [--pages 10,100,300] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pdfs import make_pdf

from insomnia_web.extract.offload import convert_pdf_async, shutdown_workers
from insomnia_web.extract.pdf import extract_pdf

MAX_CHARS = 10_000_000


async def _stall(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """(wall seconds of *work*, longest gap in ms between 1 ms ticks meanwhile)."""
    gap = 0.0
    done = False

    async def ticker() -> None:
        nonlocal gap
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gap = max(gap, now - last)
            last = now

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    await work()
    wall = time.perf_counter() - started
    done = True
    await tick
    return wall, gap * 1000


async def main(pages: list[int], runs: int) -> None:
    """Print one row per document size and way of running."""
    await convert_pdf_async(make_pdf([["warm up"]]), max_chars=MAX_CHARS, timeout_s=60)
    print("| pages | bytes | how | wall s (median) | longest loop gap ms (median, max) |")
    print("|---:|---:|---|---:|---:|")
    for n in pages:
        doc = make_pdf(
            [[f"Line {i} of page {p}: tea is brewed." for i in range(40)] for p in range(n)]
        )
        ways: dict[str, Callable[[], Awaitable[object]]] = {
            "thread": lambda d=doc: asyncio.to_thread(extract_pdf, d, max_chars=MAX_CHARS),
            "process": lambda d=doc: convert_pdf_async(d, max_chars=MAX_CHARS, timeout_s=120),
        }
        for how, work in ways.items():
            rows = [await _stall(work) for _ in range(runs)]
            walls = [w for w, _ in rows]
            gaps = [g for _, g in rows]
            print(
                f"| {n} | {len(doc)} | {how} | {statistics.median(walls):.3f} | "
                f"{statistics.median(gaps):.1f}, {max(gaps):.1f} |"
            )
    shutdown_workers()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="10,100,300")
    parser.add_argument("--runs", type=int, default=3)
    ns = parser.parse_args()
    asyncio.run(main([int(p) for p in ns.pages.split(",")], ns.runs))
