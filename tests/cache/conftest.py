"""Fixtures of the cache tests: a controllable clock, a cache file, a store of each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from insomnia_web.cache import Cache, CacheStore, open_store
from insomnia_web.config import CacheConfig

from .backends import BACKENDS, backend_config


class FakeClock:
    """A clock that only moves when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:  # 2027-01-15T08:00Z
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


@pytest.fixture(params=BACKENDS)
def store_config(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CacheConfig]:
    """The configuration of a new, empty store, once per backend (SQLite, PostgreSQL)."""
    with backend_config(request.param, tmp_path) as cfg:
        yield cfg


@pytest_asyncio.fixture
async def store(store_config: CacheConfig, clock: FakeClock) -> AsyncIterator[CacheStore]:
    """A store of each backend on the fake clock, closed after the test."""
    opened = open_store(store_config, clock=clock)
    yield opened
    await opened.aclose()
