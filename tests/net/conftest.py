"""Fixtures of the network tests: loopback servers, a static resolver and a dial guard.

Nothing here leaves 127.0.0.1. Every test in this directory runs under ``dial_guard``: it
wraps the event loop's ``sock_connect`` and records any address that is not one of the
test servers started by the test; the test fails at teardown if there is one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from insomnia_web.config import FetchConfig, UrlPolicyConfig
from insomnia_web.net import SafeClient, StaticResolver
from tests.support import LOOPBACK, DialGuard, install_dial_guard, start_app

SITE = "site.test"

RawHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@pytest.fixture(autouse=True)
def dial_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[DialGuard]:
    """Fail the test if anything other than its own loopback servers is dialled."""
    guard = install_dial_guard(monkeypatch)
    yield guard
    guard.check()


@pytest_asyncio.fixture
async def serve_app(
    dial_guard: DialGuard,
) -> AsyncIterator[Callable[[web.Application], Awaitable[int]]]:
    """Start aiohttp applications on 127.0.0.1 (port 0); returns their ports."""
    runners: list[web.AppRunner] = []

    async def start(app: web.Application) -> int:
        runner, port = await start_app(app)
        runners.append(runner)
        dial_guard.allow(port)
        return port

    yield start
    for runner in runners:
        await runner.cleanup()


@pytest_asyncio.fixture
async def serve_raw(dial_guard: DialGuard) -> AsyncIterator[Callable[[RawHandler], Awaitable[int]]]:
    """Start raw TCP servers on 127.0.0.1 that run a handler per connection."""
    servers: list[asyncio.Server] = []
    writers: list[asyncio.StreamWriter] = []
    tasks: set[asyncio.Task[None]] = set()

    async def start(handler: RawHandler) -> int:
        async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writers.append(writer)
            task = asyncio.current_task()
            assert task is not None
            tasks.add(task)
            try:
                await handler(reader, writer)
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                writer.close()

        server = await asyncio.start_server(on_connect, LOOPBACK, 0)
        servers.append(server)
        port = int(server.sockets[0].getsockname()[1])
        dial_guard.allow(port)
        return port

    yield start
    for server in servers:
        server.close()
    for task in list(tasks):
        task.cancel()
    for writer in writers:
        writer.close()
    await asyncio.sleep(0)
    for server in servers:
        await server.wait_closed()


def policy_for(port: int, **overrides: Any) -> UrlPolicyConfig:
    """A policy that allows exactly 127.0.0.1:*port* (and nothing else private)."""
    values: dict[str, Any] = {"allow_cidrs": ["127.0.0.1/32"], "ports": [port]}
    values.update(overrides)
    return UrlPolicyConfig(**values)


@pytest_asyncio.fixture
async def make_client() -> AsyncIterator[Callable[..., SafeClient]]:
    """Build SafeClients for a test server port; ``site.test`` resolves to 127.0.0.1."""
    clients: list[SafeClient] = []

    def build(
        port: int,
        *,
        resolve: dict[str, list[str]] | None = None,
        policy: dict[str, Any] | None = None,
        resolver: Any = None,
        **fetch: Any,
    ) -> SafeClient:
        table = {SITE: [LOOPBACK], **(resolve or {})}
        client = SafeClient(
            FetchConfig(**fetch),
            policy_for(port, **(policy or {})),
            resolver=resolver if resolver is not None else StaticResolver(table),
        )
        clients.append(client)
        return client

    yield build
    for client in clients:
        await client.aclose()
