"""Latency of the local cache's operations, in process, on a file with ~1000 rows per store.

Run: ``python bench/cache.py [--rows N] [--calls N]``. Prints median and p99 per operation in
milliseconds, and each median as a multiple of the exact-hit median.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from insomnia_web.cache import Cache, Snapshot

TOPICS = ["python", "rust", "asyncio", "sqlite", "http", "tls", "dns", "json", "unicode", "wal"]
WORDS = ["tutorial", "release", "date", "error", "example", "performance", "guide", "api"]
PARAMS: dict[str, object] = {"provider": "brave", "mode": "excerpts", "count": 5, "offset": 0}


def _query(n: int) -> str:
    """A distinct three-to-four word query for row *n*."""
    return f"{TOPICS[n % 10]} {WORDS[n // 10 % 8]} {WORDS[(n // 80 + 1) % 8]} v{n}"


def _time(calls: int, op: Callable[[int], object]) -> list[float]:
    """Milliseconds of each of *calls* runs of ``op(i)``."""
    out = []
    for i in range(calls):
        start = time.perf_counter_ns()
        op(i)
        out.append((time.perf_counter_ns() - start) / 1e6)
    return out


def _p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=1000)
    args = parser.parse_args()
    rows, calls = args.rows, args.calls
    payload = b'{"results": [' + b'{"title": "t", "url": "https://e.com/"},' * 10 + b"{}]}"
    page = "Lorem ipsum dolor sit amet. " * 700  # ~20 kB of text

    with tempfile.TemporaryDirectory() as tmp, Cache(Path(tmp) / "cache.sqlite3") as cache:
        put = _time(rows, lambda n: cache.put_search(_query(n), PARAMS, "brave", payload))
        for n in range(rows):
            cache.put_snapshot(
                Snapshot(url=f"https://e.com/{n}", final_url=f"https://e.com/{n}/",
                         mode="readable", text=f"{n} {page}", status=200,
                         fetched_at=time.time())
            )  # fmt: skip
        for n in range(rows):
            cache.add_finding(_query(n), f"fact {n} about {_query(n)}", ttl_s=3600)

        def exact(i: int) -> None:
            assert cache.get_search(_query(i % rows), PARAMS, max_age_s=3600) is not None

        def similar(i: int) -> None:
            words = _query(i % rows).split()
            query = "what is the " + " ".join(reversed(words)) + "?"
            hit = cache.get_search(query, PARAMS, max_age_s=3600)
            assert hit is not None
            assert hit.match == "similar"

        def miss(i: int) -> None:
            assert cache.get_search(f"python tutorial v{rows + i}", PARAMS, max_age_s=3600) is None

        results = {
            "get_search exact hit": _time(calls, exact),
            "get_search similar hit": _time(calls, similar),
            "get_search miss": _time(calls, miss),
            "put_search": put,
            "get_latest_snapshot (20 kB)": _time(
                calls,
                lambda i: cache.get_latest_snapshot(
                    f"https://e.com/{i % rows}/", "readable", max_age_s=3600
                ),
            ),
            "find_findings": _time(calls, lambda i: cache.find_findings(_query(i % rows))),
        }
        stats = cache.stats()

    base = statistics.median(results["get_search exact hit"])
    print(f"cache with {stats.searches} searches, {stats.pages} pages, {stats.findings} findings;")
    print(f"SQLite {stats.sqlite_version}, FTS5 {'on' if stats.fts5 else 'off'}\n")
    print(f"{'operation':<30} {'calls':>6} {'median ms':>10} {'p99 ms':>8} {'x exact':>8}")
    for name, samples in results.items():
        median = statistics.median(samples)
        print(
            f"{name:<30} {len(samples):>6} {median:>10.3f} {_p99(samples):>8.3f} "
            f"{median / base:>8.1f}"
        )


if __name__ == "__main__":
    main()
