"""Connection slots: a slow host cannot take every connection, and waiting is not fetching.

Each host (and port) has at most ``max_connections_per_host`` requests open at once, all
hosts together ``max_connections``. Time spent waiting for a slot has its own bound and
does not use up the fetch's own deadline.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web

from insomnia_web.errors import ToolTimeout
from insomnia_web.net import SafeClient
from insomnia_web.net.slots import ConnectionSlots

Serve = Callable[[web.Application], Awaitable[int]]
MakeClient = Callable[..., SafeClient]

DRIP, FAST = "drip.test", "fast.test"
HOSTS = {DRIP: ["127.0.0.1"], FAST: ["127.0.0.1"]}


def app_with(delay_s: float) -> tuple[web.Application, list[int]]:
    """An app whose / answers after *delay_s*; the list holds the peak of open requests."""
    peak = [0, 0]

    async def index(request: web.Request) -> web.Response:
        peak[1] += 1
        peak[0] = max(peak)
        try:
            await asyncio.sleep(delay_s)
        finally:
            peak[1] -= 1
        return web.Response(text="ok", content_type="text/plain")

    app = web.Application()
    app.router.add_get("/", index)
    return app, peak


async def drip(request: web.Request) -> web.StreamResponse:
    """Headers at once, then a byte every 100 ms for ever."""
    resp = web.StreamResponse(headers={"Content-Type": "text/plain"})
    await resp.prepare(request)
    while True:
        await resp.write(b"d")
        await asyncio.sleep(0.1)


@pytest.mark.asyncio
async def test_drip_servers_cannot_starve_a_fast_host(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """A hundred dripping fetches hold only their host's slots; a fast host stays fast."""
    drip_app = web.Application()
    drip_app.router.add_get("/", drip)
    fast_app, _ = app_with(0.0)
    drip_port, fast_port = await serve_app(drip_app), await serve_app(fast_app)
    client = make_client(drip_port, resolve=HOSTS, policy={"ports": [drip_port, fast_port]})
    slow = [
        asyncio.create_task(client.fetch(f"http://{DRIP}:{drip_port}/", timeout_s=3))
        for _ in range(100)
    ]
    await asyncio.sleep(0.3)  # the drips have taken what they can

    async def timed() -> float:
        started = time.monotonic()
        result = await client.fetch(f"http://{FAST}:{fast_port}/", timeout_s=2)
        assert result.body == b"ok"
        return time.monotonic() - started

    took = await asyncio.gather(*(timed() for _ in range(20)))
    assert max(took) < 1.5
    for task in slow:
        task.cancel()
    await asyncio.gather(*slow, return_exceptions=True)


@pytest.mark.asyncio
async def test_per_host_limit_holds_and_queue_time_is_not_fetch_time(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """Two at a time per host; the two that waited still get their whole deadline."""
    app, peak = app_with(0.3)
    port = await serve_app(app)
    client = make_client(port, resolve=HOSTS)
    client.slots = ConnectionSlots(total=64, per_host=2)
    started = time.monotonic()
    results = await asyncio.gather(
        *(client.fetch(f"http://{FAST}:{port}/", timeout_s=0.5) for _ in range(4))
    )
    assert [r.body for r in results] == [b"ok"] * 4
    assert time.monotonic() - started >= 0.55  # the second pair waited for the first
    assert peak[0] == 2
    assert max(r.queued_s for r in results) >= 0.25


@pytest.mark.asyncio
async def test_waiting_too_long_for_a_slot_is_a_queue_timeout(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """A fetch that waits longer than its queue bound fails with ``timeout`` phase ``queue``."""
    app, _ = app_with(0.4)
    port = await serve_app(app)
    client = make_client(port, resolve=HOSTS)
    client.slots = ConnectionSlots(total=64, per_host=1)
    url = f"http://{FAST}:{port}/"
    results = await asyncio.gather(
        *(client.fetch(url, timeout_s=0.5) for _ in range(3)), return_exceptions=True
    )
    assert [r.body for r in results[:2] if not isinstance(r, BaseException)] == [b"ok"] * 2
    late = results[2]
    assert isinstance(late, ToolTimeout)
    assert late.phase == "queue"
    assert late.retryable


@pytest.mark.asyncio
async def test_total_limit_spans_hosts() -> None:
    """The total bound counts every host; a cancelled waiter gives its place back."""
    slots = ConnectionSlots(total=2, per_host=2)
    a = await slots.acquire(("a", 80))
    b = await slots.acquire(("b", 80))
    waiting = asyncio.create_task(slots.acquire(("c", 80)))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    a()
    c = await asyncio.wait_for(slots.acquire(("c", 80)), 1)
    b()
    c()
    assert slots.open == 0
    assert slots.hosts == 0
    with pytest.raises(ValueError, match="at least 1"):
        ConnectionSlots(total=0, per_host=1)
