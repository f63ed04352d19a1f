"""A writer process for the concurrency test (importable by spawned processes)."""

from __future__ import annotations

from multiprocessing.synchronize import Barrier

from insomnia_web.cache import Cache


def write_many(path: str, worker: int, puts: int, barrier: Barrier) -> None:
    """Wait for the other writer, then create the cache and store *puts* rows in it."""
    with Cache(path) as cache:
        barrier.wait()
        for n in range(puts):
            if n % 2:
                cache.add_finding(f"worker {worker} fact {n}", "content", ttl_s=3600)
            else:
                cache.put_search(f"worker {worker} query {n}", {"n": n}, "mock", b"{}")
