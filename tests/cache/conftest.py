"""Fixtures of the cache tests: a controllable clock and a cache in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from insomnia_web.cache import Cache


class FakeClock:
    """A clock that only moves when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock starting at a fixed time."""
    return FakeClock()


@pytest.fixture
def cache_path(tmp_path: Path) -> Path:
    """Where the test cache lives (its parent directory does not exist yet)."""
    return tmp_path / "cache-dir" / "cache.sqlite3"


@pytest.fixture
def cache(cache_path: Path, clock: FakeClock) -> Iterator[Cache]:
    """A cache on the fake clock, closed after the test."""
    with Cache(cache_path, clock=clock) as c:
        yield c
