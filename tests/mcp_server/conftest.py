"""Fixtures of the MCP tests: a loopback site, manifests, and SDK clients over stdio.

Each test module starts one server subprocess (start-up costs about two seconds) and talks
to it with the MCP SDK's own client. The client runs in a blocking portal (an event loop in
a helper thread), so module-scoped connections enter and leave their task groups in one task.
Nothing leaves 127.0.0.1: host names resolve through the manifest's static table.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import pytest
from aiohttp import web
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, ClientSession, StdioServerParameters, stdio_client, types
from mcp.client.session import ClientRequestContext, ElicitationFnT
from mcp.shared.dispatcher import ProgressFnT

from insomnia_web.mcp_server.listing import ERROR_META_KEY

REPO_ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
PAGE_TEXT = "Loopback pages answer quickly and never leave this machine."
PAGE_HTML = f"""<!doctype html>
<html><head><title>Loopback page</title></head>
<body><nav><a href="/">Home</a></nav>
<article><h1>Loopback page</h1><p>{PAGE_TEXT}</p>
<p>A second paragraph keeps the readability pass happy with enough text to call an article.
It talks about loopback interfaces, test servers and the MCP protocol in plain words.</p>
</article></body></html>"""
HOSTS = (
    "site.test",
    "once.test",
    "decline.test",
    "always.test",
    "modern.test",
    "forged.test",
    "swapped.test",
    "replay.test",
)


async def _page(request: web.Request) -> web.Response:
    return web.Response(text=PAGE_HTML, content_type="text/html", charset="utf-8")


SLOW_PAGE_S = 3.0
"""How long ``/slow`` takes to answer: longer than a test waits before cancelling it."""


async def _slow_page(request: web.Request) -> web.Response:
    await asyncio.sleep(SLOW_PAGE_S)
    return await _page(request)


async def _search(request: web.Request) -> web.Response:
    port = request.url.port
    results = [
        {
            "url": f"http://site.test:{port}/page",
            "title": "Loopback page",
            "content": "A page served by the test site.",
        }
    ]
    return web.json_response({"query": request.query.get("q", ""), "results": results})


@asynccontextmanager
async def _loopback_site() -> AsyncIterator[int]:
    app = web.Application()
    app.router.add_get("/page", _page)
    app.router.add_get("/slow", _slow_page)
    app.router.add_get("/search", _search)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        yield int(port)
    finally:
        await runner.cleanup()


@pytest.fixture(scope="module")
def portal() -> Iterator[BlockingPortal]:
    """An event loop in a helper thread for the module's clients and site."""
    with start_blocking_portal() as p:
        yield p


@pytest.fixture(scope="module")
def site_port(portal: BlockingPortal) -> Iterator[int]:
    """The port of a loopback site serving ``/page`` (HTML), ``/slow`` (the same, late) and
    ``/search`` (SearXNG JSON)."""
    with portal.wrap_async_context_manager(_loopback_site()) as port:
        yield port


def write_manifest(folder: Path, port: int, *, allow: list[str], history: bool = True) -> Path:
    """A manifest for the loopback site: its hosts resolve to 127.0.0.1; *allow* rules."""
    resolve = ", ".join(f'"{h}" = ["{LOOPBACK}"]' for h in (*HOSTS, "blocked.test"))
    resolve = resolve.replace('"blocked.test" = ["127.0.0.1"]', '"blocked.test" = ["10.0.0.1"]')
    rules = ", ".join(f'"{r}"' for r in allow)
    history_line = f'history_path = "{folder / "history.jsonl"}"' if history else ""
    text = f"""
[web]
{history_line}

[web.search]
provider = "searxng"
mode = "results"
rate_limit_per_s = 100.0

[web.search.searxng]
base_url = "http://{LOOPBACK}:{port}"

[web.url_policy]
ports = [80, 443, {port}]
allow_cidrs = ["{LOOPBACK}/32"]
resolve = {{ {resolve} }}

[web.cache]
path = "{folder / "cache.sqlite3"}"

[permissions]
default = "ask"
allow = [{rules}]
"""
    path = folder / "insomnia.toml"
    path.write_text(text, encoding="utf-8")
    return path


def server_params(manifest: Path, *, fixture_tools: bool = False) -> StdioServerParameters:
    """Launch ``insomnia-web mcp`` (or the fixture-plugin server) with no installed plugins."""
    path = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "INSOMNIA_PLUGINS": "", "PYTHONPATH": path}
    if fixture_tools:
        args = ["-m", "tests.mcp_server.serve_fixture", str(manifest)]
    else:
        args = ["-m", "insomnia_web.cli", "mcp", "--manifest", str(manifest)]
    return StdioServerParameters(command=sys.executable, args=args, env=env, cwd=REPO_ROOT)


@dataclass
class Elicitor:
    """A scripted person: answers elicitations in order and remembers what was asked."""

    answers: list[types.ElicitResult | types.ErrorData] = field(default_factory=list)
    asked: list[types.ElicitRequestFormParams] = field(default_factory=list)

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        """Record the request and give the next scripted answer (decline when none is left)."""
        assert isinstance(params, types.ElicitRequestFormParams)
        self.asked.append(params)
        if not self.answers:
            return types.ElicitResult(action="decline")
        return self.answers.pop(0)

    def will(self, decision: str) -> None:
        """Accept the next question with *decision* (once, always or deny)."""
        self.answers.append(types.ElicitResult(action="accept", content={"decision": decision}))


@dataclass
class Connection:
    """A connected SDK client; each method runs in the portal and waits for the answer."""

    portal: BlockingPortal
    client: ClientSession | Client
    protocol_version: str
    server_info: types.Implementation | None
    instructions: str | None = None

    def list_tools(self) -> list[types.Tool]:
        """``tools/list``."""
        return self.portal.call(self.client.list_tools).tools

    def call(
        self, name: str, args: dict[str, Any], progress: ProgressFnT | None = None
    ) -> types.CallToolResult:
        """``tools/call``, validated by the SDK client against the output schema."""
        result = self.portal.call(
            partial(self.client.call_tool, name, args, progress_callback=progress)
        )
        assert isinstance(result, types.CallToolResult)
        return result


@asynccontextmanager
async def _open(
    params: StdioServerParameters,
    errlog: TextIO,
    elicitation: ElicitationFnT | None,
    modern: bool,
) -> AsyncIterator[tuple[ClientSession | Client, str, types.Implementation | None, str | None]]:
    if modern:
        transport = stdio_client(params, errlog=errlog)
        async with Client(transport, elicitation_callback=elicitation, mode="auto") as client:
            yield client, client.protocol_version, client.server_info, client.instructions
        return
    async with (
        stdio_client(params, errlog=errlog) as (read, write),
        ClientSession(read, write, elicitation_callback=elicitation) as session,
    ):
        init = await session.initialize()
        yield session, init.protocol_version, init.server_info, init.instructions


@pytest.fixture(scope="module")
def elicitor() -> Elicitor:
    """The scripted person behind the client."""
    return Elicitor()


@pytest.fixture
def fresh_script(elicitor: Elicitor) -> None:
    """Each test scripts its own answers and sees only its own questions."""
    elicitor.answers.clear()
    elicitor.asked.clear()


@contextmanager
def connect(
    portal: BlockingPortal,
    params: StdioServerParameters,
    errlog_path: Path,
    *,
    elicitation: ElicitationFnT | None = None,
    modern: bool = False,
) -> Iterator[Connection]:
    """Start the server and connect: the handshake era, or 2026-07-28 with *modern*.

    If the server cannot start, the error shows what it wrote to stderr.
    """
    with ExitStack() as stack:
        errlog = stack.enter_context(errlog_path.open("w", encoding="utf-8"))
        opening = portal.wrap_async_context_manager(_open(params, errlog, elicitation, modern))
        try:
            client, version, info, instructions = stack.enter_context(opening)
        except Exception as exc:
            errlog.flush()
            stderr = errlog_path.read_text(encoding="utf-8")[-4000:]
            raise RuntimeError(f"MCP server did not start; its stderr:\n{stderr}") from exc
        yield Connection(portal, client, version, info, instructions)


def text_of(result: types.CallToolResult) -> str:
    """The text content of a result (one text block)."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def error_of(result: types.CallToolResult) -> dict[str, Any]:
    """The typed error of an isError result (in ``_meta``; errors carry no structured output)."""
    assert result.is_error
    assert result.structured_content is None
    assert result.meta is not None
    error = result.meta[ERROR_META_KEY]
    assert isinstance(error, dict)
    return error
