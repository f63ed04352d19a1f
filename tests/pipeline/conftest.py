"""Fixtures of the pipeline tests: a simulated web on 127.0.0.1 and a recording context.

One aiohttp server answers for every fake host name (``a.test``, ``b.test``, ...); the
manifest's ``url_policy.resolve`` maps those names to 127.0.0.1. Each page is described by a
:class:`Page` (body, delay, status, or hang forever); the server records every request and
the most requests it served at once per host.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Literal

import pytest
import pytest_asyncio
from aiohttp import web

from insomnia_web.config import FetchConfig, UrlPolicyConfig
from insomnia_web.net import SafeClient
from tests.support import LOOPBACK, start_app

HOSTS = ("a.test", "b.test", "c.test", "d.test", "e.test")


def article(title: str, *paragraphs: str) -> str:
    """A small HTML article page."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1>"
        f"{body}</article></body></html>"
    )


@dataclass
class Page:
    """How the simulated web answers one path on one host."""

    body: str | bytes = ""
    status: int = 200
    content_type: str | None = "text/html; charset=utf-8"
    """``None`` sends no Content-Type at all."""
    delay_s: float = 0.0
    hang: bool = False
    location: str | None = None


@dataclass
class SimWeb:
    """The simulated web: pages by (host, path), the requests seen, the port."""

    pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    seen: list[tuple[str, str]] = field(default_factory=list)
    active: Counter[str] = field(default_factory=Counter)
    peak: Counter[str] = field(default_factory=Counter)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    port: int = 0

    def add(self, host: str, path: str, page: Page) -> str:
        """Serve *page* at http://host:port/path; return that URL."""
        self.pages[(host, path)] = page
        return self.url(host, path)

    def url(self, host: str, path: str) -> str:
        """The URL of *path* on *host* at the server's port."""
        return f"http://{host}:{self.port}{path}"

    def policy(self, **overrides: object) -> UrlPolicyConfig:
        """A URL policy that reaches exactly this server under the fake host names."""
        values: dict[str, object] = {
            "allow_cidrs": [f"{LOOPBACK}/32"],
            "ports": [self.port],
            "resolve": {h: [LOOPBACK] for h in HOSTS},
        }
        values.update(overrides)
        return UrlPolicyConfig(**values)  # type: ignore[arg-type]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer from the page table, after the page's delay (or never, for a hang)."""
        host = (request.host or "").split(":")[0]
        self.seen.append((host, request.path))
        page = self.pages.get((host, request.path))
        if page is None:
            return web.Response(status=404, text="not found")
        self.active[host] += 1
        self.peak[host] = max(self.peak[host], self.active[host])
        try:
            if page.hang:
                await self.release.wait()
            if page.delay_s:
                await asyncio.sleep(page.delay_s)
        finally:
            self.active[host] -= 1
        headers = {}
        if page.content_type is not None:
            headers["Content-Type"] = page.content_type
        if page.location:
            headers["Location"] = page.location
        body = page.body.encode() if isinstance(page.body, str) else page.body
        return web.Response(status=page.status, body=body, headers=headers)

    async def drop_default_type(self, request: web.Request, response: web.StreamResponse) -> None:
        """Send no Content-Type for a page without one (aiohttp would label it octet-stream)."""
        page = self.pages.get(((request.host or "").split(":")[0], request.path))
        if page is not None and page.content_type is None:
            response.headers.popall("Content-Type", None)


@pytest_asyncio.fixture
async def sim() -> AsyncIterator[SimWeb]:
    """A simulated web on 127.0.0.1; hanging handlers are released at teardown."""
    state = SimWeb()
    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", state.handle)
    app.on_response_prepare.append(state.drop_default_type)
    runner, state.port = await start_app(app, shutdown_timeout=0.1)
    yield state
    state.release.set()
    await runner.cleanup()


@pytest_asyncio.fixture
async def client(sim: SimWeb) -> AsyncIterator[SafeClient]:
    """A SafeClient whose policy reaches the simulated web."""
    c = SafeClient(FetchConfig(timeout_s=5), sim.policy())
    yield c
    await c.aclose()


class RecordingContext:
    """A tool context that records progress events and denies WebFetch on chosen hosts."""

    def __init__(self, deny: tuple[str, ...] = ()) -> None:
        self.deny = set(deny)
        self.events: list[tuple[str, int | None, int | None]] = []

    def progress(self, message: str, done: int | None = None, total: int | None = None) -> None:
        """Record one progress event."""
        self.events.append((message, done, total))

    def permission_for(self, tool: str, host: str) -> Literal["allow", "ask", "deny"]:
        """Deny the configured hosts, allow the rest."""
        return "deny" if host in self.deny else "allow"

    async def approve_page(self, tool: str, url: str, host: str) -> Literal["allow", "ask", "deny"]:
        """Nobody approves in advance: the probe's verdict."""
        return self.permission_for(tool, host)


@pytest.fixture
def ctx() -> RecordingContext:
    """A recording context that denies nothing."""
    return RecordingContext()
