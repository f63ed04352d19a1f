"""Fixtures of the search tests: loopback servers, a dial guard, runtimes from manifests.

Nothing here leaves 127.0.0.1: every test runs under ``dial_guard``, which fails the test
if anything other than 127.0.0.1 is dialled (aioresponses answers before
any dial). The process-wide rate-limit buckets are reset around each test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from insomnia_web import AutoApprovePrompter, Runtime, parse_manifest
from insomnia_web.search.ratelimit import reset_buckets
from tests.support import LOOPBACK, DialGuard, install_dial_guard, start_app

BRAVE_ORIGIN = "https://api.search.brave.com"
BRAVE_ENDPOINT = BRAVE_ORIGIN + "/res/v1/web/search"
BRAVE_KEY = "test-key-5d1c0ffee"
"""A fake API key; tests assert it never appears in errors or text."""


@pytest.fixture(autouse=True)
def fresh_buckets() -> Iterator[None]:
    """Each test starts with empty rate-limit buckets."""
    reset_buckets()
    yield
    reset_buckets()


@pytest.fixture(autouse=True)
def dial_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[DialGuard]:
    """Fail the test if it dials anything but 127.0.0.1 (its own loopback servers)."""
    guard = install_dial_guard(monkeypatch, any_loopback_port=True)
    yield guard
    guard.check()


@pytest_asyncio.fixture
async def serve_app() -> AsyncIterator[Callable[[web.Application], Awaitable[str]]]:
    """Start aiohttp applications on 127.0.0.1 (port 0); returns their origins."""
    runners: list[web.AppRunner] = []

    async def start(app: web.Application) -> str:
        runner, port = await start_app(app)
        runners.append(runner)
        return f"http://{LOOPBACK}:{port}"

    yield start
    for runner in runners:
        await runner.cleanup()


def manifest_data(search: dict[str, Any] | None = None, **web: Any) -> dict[str, Any]:
    """A manifest mapping allowing WebSearch, with *search* merged into ``web.search``."""
    return {
        "web": {"cache": {"enabled": False}, "search": dict(search or {}), **web},
        "permissions": {"allow": ["WebSearch"]},
    }


@pytest_asyncio.fixture
async def make_runtime() -> AsyncIterator[Callable[..., Runtime]]:
    """Build runtimes from manifest mappings (auto-approving, no entry points); closed after."""
    runtimes: list[Runtime] = []

    def build(data: dict[str, Any], *, plugins: tuple[object, ...] = ()) -> Runtime:
        runtime = Runtime(
            parse_manifest(data),
            prompter=AutoApprovePrompter(),
            plugins=plugins,
            load_entrypoints=False,
        )
        runtimes.append(runtime)
        return runtime

    yield build
    for runtime in runtimes:
        await runtime.aclose()
