"""A client that cancels a tool call stops it: the history ends it as cancelled."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import BlockingPortal

from insomnia_web.history import ToolResultEvent, decode_event

from .conftest import SLOW_PAGE_S, Connection, connect, server_params, text_of, write_manifest


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's folder: manifest, cache, history and the server's stderr."""
    return tmp_path_factory.mktemp("mcp_cancel")


@pytest.fixture(scope="module")
def conn(portal: BlockingPortal, workdir: Path, site_port: int) -> Iterator[Connection]:
    """One server allowed to fetch the loopback site, with a JSONL history."""
    manifest = write_manifest(workdir, site_port, allow=["WebFetch(domain:site.test)"])
    with connect(portal, server_params(manifest), workdir / "stderr.txt") as c:
        yield c


def _results(history: Path) -> list[ToolResultEvent]:
    lines = history.read_bytes().splitlines() if history.exists() else []
    events = [decode_event(line) for line in lines]
    return [e for e in events if isinstance(e, ToolResultEvent)]


def test_a_cancelled_call_is_recorded_as_cancelled_and_the_server_goes_on(
    conn: Connection, workdir: Path, site_port: int
) -> None:
    """Cancelling web_fetch of a slow page ends its history with cancelled, before the page."""
    url = f"http://site.test:{site_port}/slow"

    async def call_then_give_up() -> bool:
        with anyio.move_on_after(0.5) as scope:
            await conn.client.call_tool("web_fetch", {"url": url})
        return scope.cancelled_caught

    started = time.monotonic()
    assert conn.portal.call(call_then_give_up)
    history = workdir / "history.jsonl"
    while not _results(history) and time.monotonic() - started < SLOW_PAGE_S - 0.5:
        time.sleep(0.05)
    [ended] = _results(history)
    assert ended.error is not None
    assert ended.error.code == "cancelled"
    assert time.monotonic() - started < SLOW_PAGE_S
    page = conn.call("web_fetch", {"url": f"http://site.test:{site_port}/page"})
    assert not page.is_error, text_of(page)
