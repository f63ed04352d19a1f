"""WebFetch against header bytes no aiohttp server sends: a raw server on 127.0.0.1."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import msgspec
import pytest
import pytest_asyncio

from insomnia_web.runtime import Runtime
from tests.support import LOOPBACK

from .conftest import SITE, manifest_for

NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nfine"

Answer = Callable[[bytes], bytes]
"""The whole response for a request path."""
RawSite = Callable[[Answer], Awaitable[tuple[Runtime, int]]]


async def _answer(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, answer: Answer
) -> None:
    """Read one request's head and write the response *answer* gives for its path."""
    path = (await reader.readline()).split(b" ")[1]
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    writer.write(answer(path))
    await writer.drain()
    writer.close()


@pytest_asyncio.fixture
async def raw_site(tmp_path: Path) -> AsyncIterator[RawSite]:
    """Start a raw server answering with *answer*; return a runtime for it and its port."""
    servers: list[asyncio.Server] = []
    runtimes: list[Runtime] = []

    async def start(answer: Answer) -> tuple[Runtime, int]:
        server = await asyncio.start_server(lambda r, w: _answer(r, w, answer), LOOPBACK, 0)
        servers.append(server)
        port = int(server.sockets[0].getsockname()[1])
        runtime = Runtime(manifest_for(port, tmp_path / "cache.sqlite3"), load_entrypoints=False)
        runtimes.append(runtime)
        return runtime, port

    yield start
    for runtime in runtimes:
        await runtime.aclose()
    for server in servers:
        server.close()
        await server.wait_closed()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "response",
    [
        b"HTTP/1.1 302 Found\r\nLocation: /r?\xff\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 302 Found\r\nLocation: /page?\xff\xfe\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/x\xff\r\nContent-Length: 4\r\n\r\nfine",
        b"HTTP/1.1 200 OK\r\nContent-Type: image/x\xff\r\nContent-Length: 4\r\n\r\nfine",
    ],
)
async def test_header_bytes_that_are_not_utf8_give_a_result(
    raw_site: RawSite, response: bytes
) -> None:
    """A Location or Content-Type holding bytes that are not UTF-8 ends in a result whose
    text encodes, never in an exception out of call_tool."""

    def answer(path: bytes) -> bytes:
        if path == b"/robots.txt":
            return NOT_FOUND
        return PAGE if path.startswith(b"/page") else response

    runtime, port = await raw_site(answer)
    result = await runtime.call_tool("WebFetch", {"url": f"http://{SITE}:{port}/r", "mode": "raw"})
    msgspec.json.encode(result)
    assert result.error is None or result.error.code != "internal_error", result.text
