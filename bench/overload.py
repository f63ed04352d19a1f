"""Extraction under overload: what timed-out conversions leave behind.

Two cases, each run ``--runs`` times:

- ``16 x 240 KB``: sixteen forum-like pages of 240 KB converted at once with a 3 s
  deadline. Reported: how the calls ended, the wall time until all had, this process's
  CPU time in the 2 s *after* they all ended (work nobody waits for any more), and the
  longest event-loop stall over the whole run.
- ``6 x 5 MB``: six 5 MB pages at once, 3 s deadline: how each call ended. Anything but
  the page or a ``timeout`` (a ``CancelledError``, a broken pool) is a failure of the
  offloading, not of the page.

    python bench/overload.py [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import statistics
import time
from typing import Any

from insomnia_web.errors import ToolError
from insomnia_web.extract import convert_async, shutdown_workers
from insomnia_web.extract.model import Extracted
from loop_stall import make_page


def outcome(result: Any) -> str:
    """A short name for how one conversion ended."""
    if isinstance(result, Extracted):
        return "ok"
    if isinstance(result, ToolError):
        return result.code
    return type(result).__name__


async def burst(
    html: str, calls: int, timeout_s: float
) -> tuple[collections.Counter[str], float, float, float]:
    """Run *calls* conversions at once; (outcomes, wall s, CPU s after, longest stall ms)."""
    longest = 0.0
    stop = False

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not stop:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    tick = asyncio.create_task(ticker())
    started = time.perf_counter()
    tasks = [convert_async(html, "text/html", timeout_s=timeout_s) for _ in range(calls)]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - started
    cpu = time.process_time()
    await asyncio.sleep(2)
    after = time.process_time() - cpu
    stop = True
    await tick
    shutdown_workers()
    return collections.Counter(map(outcome, results)), wall, after, longest * 1000


async def main_async(runs: int) -> None:
    """Print one table per case."""
    cases = (("16 x 240 KB", make_page(240 * 1024), 16), ("6 x 5 MB", make_page(5 << 20), 6))
    print(f"{'case':<13}{'outcomes':<34}{'wall s':>8}{'CPU after s':>13}{'stall ms':>10}")
    for label, html, calls in cases:
        rows = [await burst(html, calls, timeout_s=3.0) for _ in range(runs)]
        for outcomes, wall, after, stall in rows:
            shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
            print(f"{label:<13}{shown:<34}{wall:>8.2f}{after:>13.2f}{stall:>10.0f}")
        print(
            f"{label:<13}{'median':<34}{statistics.median(r[1] for r in rows):>8.2f}"
            f"{statistics.median(r[2] for r in rows):>13.2f}"
            f"{statistics.median(r[3] for r in rows):>10.0f}"
        )


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main_async(args.runs))


if __name__ == "__main__":
    main()
