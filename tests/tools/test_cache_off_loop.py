"""Cache work runs off the event loop: a busy database never stalls other coroutines."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from insomnia_web.runtime import Runtime

from .conftest import Site
from .test_save_finding import FACT, PAGE, cache_of

HOLD_S = 0.5
TICK_S = 0.01


@contextmanager
def competing_writer(path: Path) -> Iterator[None]:
    """Another connection holds the database's write lock for :data:`HOLD_S` seconds."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(HOLD_S, conn.commit)
    timer.start()
    try:
        yield
    finally:
        timer.join()
        conn.close()


async def ticks_during(call: asyncio.Future[object] | asyncio.Task[object]) -> int:
    """How often a ticker coroutine ran while *call* was pending."""
    ticks = 0
    while not call.done():
        await asyncio.sleep(TICK_S)
        ticks += 1
    return ticks


@pytest.mark.asyncio
@pytest.mark.parametrize("tool", ["SaveFinding", "WebFetch"])
async def test_locked_cache_does_not_block_the_loop(
    runtime: Runtime, site: Site, tool: str
) -> None:
    """While another writer holds the lock, the tool waits in a thread and the loop runs on."""
    site.set("/new", PAGE)
    args = {
        "SaveFinding": {"query": "python 3.12 release", "content": FACT},
        "WebFetch": {"url": site.url("/new")},
    }[tool]
    cache_of(runtime).find_findings("warm up")  # create the database file
    with competing_writer(cache_of(runtime).path):
        call = asyncio.ensure_future(runtime.call_tool(tool, args))
        ticks = await ticks_during(call)
        result = await call
    assert result.ok, result.text
    # A blocked loop would not tick at all until the lock was released.
    assert ticks >= (HOLD_S / TICK_S) / 4
