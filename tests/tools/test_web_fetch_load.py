"""Two hundred WebFetch calls at once through one runtime, most of them to hostile servers.

Slow, resetting and dripping servers, compression bombs, a gzip page padded with endless
zeros, 5 MB pages that are costly to extract, and small pages on a host of their own, all
on 127.0.0.1. The runtime must come out of it whole: no exception escapes ``call_tool``,
every call's history ends with exactly one terminal event, the small pages come back
within 2 s, and once the calls are over no task, connection or extraction is left.

The servers run in a process of their own, as real servers would: the event loop under
test does only the client's work.
"""

from __future__ import annotations

import asyncio
import gzip
import multiprocessing
import socket
import struct
import time
import zlib
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any

import pytest

from insomnia_web import MemoryHistory, Runtime, parse_manifest
from insomnia_web.extract import offload
from insomnia_web.history import ToolResultEvent
from insomnia_web.net.robots import ROBOTS_TIMEOUT_S
from insomnia_web.runtime import ToolResult
from insomnia_web.tools.web_base import WebTool
from tests.support import LOOPBACK

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]

CALLS = {
    "fast": 24,
    "failing": 10,
    "slow": 41,
    "reset": 30,
    "drip": 35,
    "bomb": 25,
    "padded": 25,
    "big": 10,
}
TIMEOUT_S = 1.5
FAST_WITHIN_S = 2.0


def head(length: int | None = None, *, encoding: str | None = None) -> bytes:
    """A response head for an HTML body (closing the connection after it)."""
    lines = ["HTTP/1.1 200 OK", "Content-Type: text/html; charset=utf-8", "Connection: close"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    if encoding:
        lines.append(f"Content-Encoding: {encoding}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def big_page(target: int) -> bytes:
    """About *target* bytes of forum-like HTML: hundreds of thousands of elements."""
    post = (
        "<article class='post'><p>Reply says <b>something</b> with <a href='/t'>a link</a>."
        "</p><ul><li>one</li><li>two</li></ul></article>"
    )
    body = "<html><head><title>Big</title></head><body>" + post * (target // len(post))
    return (body + "</body></html>").encode()


def gzip_zeros(size: int) -> bytes:
    """*size* zero bytes, gzip-compressed (about a thousandth of that)."""
    obj = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = bytes(1 << 20)
    return b"".join(obj.compress(chunk) for _ in range(size >> 20)) + obj.flush()


SMALL = b"<html><head><title>Fast</title></head><body><p>A fast page.</p></body></html>"
PADDED = gzip.compress(SMALL)
BODIES: dict[str, bytes] = {}
"""The large bodies, built in the server process only."""


async def until_closed(reader: asyncio.StreamReader) -> None:
    """Wait until the client hangs up (or the server is shut down)."""
    while await reader.read(65536):
        pass


async def fast(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(head(len(SMALL)) + SMALL)
    await writer.drain()
    await until_closed(reader)


async def failing(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    body = b"<html><body><p>Internal error</p></body></html>"
    writer.write(head(len(body)).replace(b"200 OK", b"500 Internal Server Error") + body)
    await writer.drain()
    await until_closed(reader)


async def slow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await until_closed(reader)  # never answers


async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(head(100_000) + b"<html><body><p>cut")
    await writer.drain()
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


async def drip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(head() + b"<html><body><p>")
    while True:
        writer.write(b"d")
        await writer.drain()
        await asyncio.sleep(0.1)


async def bomb(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(head(len(BODIES["bomb"]), encoding="gzip") + BODIES["bomb"])
    await writer.drain()
    await until_closed(reader)


async def padded(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(head(encoding="gzip") + PADDED)
    zeros = bytes(65536)
    while True:
        writer.write(zeros)
        await writer.drain()


async def big(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(head(len(BODIES["big"])) + BODIES["big"])
    await writer.drain()
    await until_closed(reader)


HANDLERS: dict[str, Handler] = {
    "fast": fast,
    "failing": failing,
    "slow": slow,
    "reset": reset,
    "drip": drip,
    "bomb": bomb,
    "padded": padded,
    "big": big,
}


class Server:
    """A raw HTTP server on 127.0.0.1 that counts the connections it has open."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.open = 0
        self.served = 0
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.on_connect, LOOPBACK, 0, backlog=512)
        return int(self.server.sockets[0].getsockname()[1])

    async def on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.tasks.add(task)
        self.open += 1
        self.served += 1
        try:
            request = await reader.readuntil(b"\r\n\r\n")
            if request.startswith(b"GET /robots.txt ") and self.handler not in (slow, drip):
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
                await until_closed(reader)
                return
            await self.handler(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
            writer.close()
            self.tasks.discard(task)

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.server.wait_closed()


async def serve(conn: Connection) -> None:
    """Run every server; answer ``"open"`` with the open connections per kind, stop on EOF."""
    BODIES["big"] = big_page(5_000_000)
    BODIES["bomb"] = gzip_zeros(256 << 20)
    servers = {kind: Server(handler) for kind, handler in HANDLERS.items()}
    conn.send({kind: await server.start() for kind, server in servers.items()})
    try:
        while True:
            try:
                command = await asyncio.to_thread(conn.recv)
            except EOFError:
                break
            if command == "open":
                conn.send({kind: server.open for kind, server in servers.items()})
    finally:
        for server in servers.values():
            await server.stop()


def server_main(conn: Connection) -> None:
    """The server process."""
    asyncio.run(serve(conn))


class ServerProcess:
    """The servers' process, seen from the test."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=server_main, args=(child,), daemon=True)
        self.process.start()
        child.close()

    async def ask(self, command: str | None = None) -> dict[str, int]:
        if command is not None:
            self.conn.send(command)
        if not await asyncio.to_thread(self.conn.poll, 60):
            raise AssertionError("the server process did not answer")
        answer: dict[str, int] = self.conn.recv()
        return answer

    def stop(self) -> None:
        self.conn.close()
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def manifest_for(ports: dict[str, int]) -> Any:
    return parse_manifest(
        {
            "web": {
                "url_policy": {
                    "resolve": {f"{kind}.test": [LOOPBACK] for kind in ports},
                    "allow_cidrs": [f"{LOOPBACK}/32"],
                    "ports": sorted(ports.values()),
                },
                # Politeness is not under test: no per-host rate (24 pages of one host at
                # once), while each host's robots.txt is still read through the same client.
                "fetch": {"timeout_s": TIMEOUT_S, "host_rate_limit_per_s": 1000, "host_burst": 100},
                "cache": {"enabled": False},
            },
            "permissions": {"allow": ["WebFetch"]},
        }
    )


async def wait_until(condition: Callable[[], bool], within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


@pytest.mark.asyncio
@pytest.mark.timeout(120)
async def test_two_hundred_hostile_fetches_leave_the_runtime_whole() -> None:
    """200 concurrent fetches: typed results, closed histories, fast pages fast, nothing left."""
    servers = ServerProcess()
    ports = await servers.ask()
    history = MemoryHistory()
    runtime = Runtime(manifest_for(ports), history=history, load_entrypoints=False)
    tool = runtime.get_tool("WebFetch")
    assert isinstance(tool, WebTool)
    calls: list[tuple[str, str]] = []
    for kind, count in CALLS.items():
        calls += [(kind, f"http://{kind}.test:{ports[kind]}/{kind}/{i}") for i in range(count)]
    calls.sort(key=lambda call: call[1][::-1])  # interleave the kinds
    try:
        results = await asyncio.gather(
            *(
                runtime.call_tool("WebFetch", {"url": url}, call_id=f"c{n}")
                for n, (_, url) in enumerate(calls)
            ),
            return_exceptions=True,
        )
        escaped = [r for r in results if not isinstance(r, ToolResult)]
        assert not escaped, escaped[:3]
        by_kind: dict[str, list[ToolResult]] = {}
        for n, ((kind, _), result) in enumerate(zip(calls, results, strict=True)):
            assert isinstance(result, ToolResult)
            ends = [e for e in history.of_call(f"c{n}") if isinstance(e, ToolResultEvent)]
            assert len(ends) == 1, (kind, ends)
            if not result.ok:
                assert result.error is not None
                assert result.error.code != "internal_error", (kind, result.text)
            by_kind.setdefault(kind, []).append(result)

        for result in by_kind["fast"] + by_kind["padded"]:
            assert result.ok, result.text
            assert result.duration_ms < FAST_WITHIN_S * 1000, result.duration_ms
        codes = {kind: {r.error.code for r in rs if r.error} for kind, rs in by_kind.items()}
        assert codes["failing"] == {"http_error"}
        assert codes["slow"] == {"timeout"}
        assert codes["drip"] == {"timeout"}
        assert codes["reset"] <= {"connection_error", "protocol_error", "timeout"}
        assert codes["fast"] == codes["padded"] == set()
        assert codes["bomb"] <= {"unsupported_content", "timeout"}
        assert codes["big"] <= {"timeout"}

        # Nothing left: no request holds a slot, no server sees an open connection, no
        # conversion is running. (A robots.txt read shared by a host's calls may outlive
        # them, never its own deadline.)
        slots = tool.services.client.slots
        assert await wait_until(lambda: slots.open == 0, ROBOTS_TIMEOUT_S + 1), slots.open
        for _ in range(100):
            still_open = {kind: n for kind, n in (await servers.ask("open")).items() if n}
            if not still_open:
                break
            await asyncio.sleep(0.05)
        assert not still_open
        assert await wait_until(lambda: offload.running_extractions() == 0, 5)
    finally:
        await runtime.aclose()
        servers.stop()
    await asyncio.sleep(0)
    assert asyncio.all_tasks() == {asyncio.current_task()}
