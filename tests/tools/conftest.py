"""Fixtures of the tool tests: a loopback site whose pages tests change, and runtimes for it.

Nothing here leaves 127.0.0.1: ``site.test`` and ``other.test`` are mapped to it by the
manifest's ``web.url_policy.resolve`` table, and every test runs under a dial guard that
fails the test if anything else is dialled. The cache lives in the test's ``tmp_path``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import pytest_asyncio
from aiohttp import web

from insomnia_web.config import Manifest
from insomnia_web.prompts import Prompter
from insomnia_web.runtime import Runtime
from tests.support import LOOPBACK, DialGuard, install_dial_guard, start_app

SITE = "site.test"
OTHER = "other.test"


class Page(msgspec.Struct, kw_only=True):
    """What the site answers for one path."""

    body: bytes = b""
    content_type: str | None = "text/html; charset=utf-8"
    status: int = 200
    headers: dict[str, str] = msgspec.field(default_factory=dict)


class Site:
    """A loopback HTTP server whose pages a test sets (and changes) by path."""

    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.port = 0
        self.hits: dict[str, int] = {}
        self.host_headers: list[str] = []

    def set(
        self,
        path: str,
        body: bytes | str,
        content_type: str | None = "text/html; charset=utf-8",
        **kw: Any,
    ) -> None:
        """Serve *body* at *path* (``content_type=None`` sends no Content-Type at all)."""
        data = body.encode() if isinstance(body, str) else body
        self.pages[path] = Page(body=data, content_type=content_type, **kw)

    def url(self, path: str = "/", host: str = SITE) -> str:
        """The URL of *path* on *host* (which the manifest maps to 127.0.0.1)."""
        return f"http://{host}:{self.port}{path}"

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer from :attr:`pages`; 404 for an unknown path."""
        self.hits[request.path] = self.hits.get(request.path, 0) + 1
        self.host_headers.append(request.headers.get("Host", ""))
        page = self.pages.get(request.path)
        if page is None:
            return web.Response(status=404, text="not found")
        resp = web.Response(body=page.body, status=page.status, headers=page.headers)
        if page.content_type:
            resp.headers["Content-Type"] = page.content_type
        return resp


@pytest.fixture(autouse=True)
def dial_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[DialGuard]:
    """Fail the test if anything other than 127.0.0.1 is dialled."""
    guard = install_dial_guard(monkeypatch, any_loopback_port=True)
    yield guard
    guard.check()


@pytest_asyncio.fixture
async def site() -> AsyncIterator[Site]:
    """A running :class:`Site` on 127.0.0.1 (port chosen by the system)."""
    s = Site()
    app = web.Application()
    app.router.add_get("/{tail:.*}", s.handle)

    async def drop_default_type(request: web.Request, response: web.StreamResponse) -> None:
        # aiohttp labels bytes application/octet-stream; a page without a type sends none.
        page = s.pages.get(request.path)
        if page is not None and page.content_type is None:
            response.headers.popall("Content-Type", None)

    app.on_response_prepare.append(drop_default_type)
    runner, s.port = await start_app(app)
    yield s
    await runner.cleanup()


def manifest_for(port: int, cache_path: Path, **web: Any) -> Manifest:
    """A manifest for the site: both test hosts map to 127.0.0.1, WebFetch is allowed on
    ``site.test`` only, SaveFinding is allowed, anything else asks (the default).

    Keyword arguments replace or extend ``[web]`` tables (``fetch={"max_output_chars": 500}``)
    or, with ``permissions=``, the permission table.
    """
    permissions = web.pop("permissions", None) or {
        "allow": [f"WebFetch(domain:{SITE})", "SaveFinding"]
    }
    tables: dict[str, Any] = {
        "url_policy": {
            "resolve": {SITE: [LOOPBACK], OTHER: [LOOPBACK]},
            "allow_cidrs": [f"{LOOPBACK}/32"],
            "ports": [port],
        },
        "cache": {"path": str(cache_path)},
    }
    for name, values in web.items():
        tables[name] = {**tables.get(name, {}), **values}
    return msgspec.convert({"web": tables, "permissions": permissions}, Manifest)


MakeRuntime = Callable[..., Runtime]


@pytest_asyncio.fixture
async def make_runtime(site: Site, tmp_path: Path) -> AsyncIterator[MakeRuntime]:
    """Build runtimes for the site (see :func:`manifest_for`); closed after the test."""
    runtimes: list[Runtime] = []

    def build(*, prompter: Prompter | None = None, **web: Any) -> Runtime:
        manifest = manifest_for(site.port, tmp_path / "cache.sqlite3", **web)
        runtime = Runtime(manifest, prompter=prompter, load_entrypoints=False)
        runtimes.append(runtime)
        return runtime

    yield build
    for runtime in runtimes:
        await runtime.aclose()


@pytest_asyncio.fixture
async def runtime(make_runtime: MakeRuntime) -> Runtime:
    """A runtime with the default test manifest."""
    return make_runtime()
