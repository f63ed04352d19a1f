"""Bounded time and memory: bombs, endless and dripping bodies, lying lengths, huge headers."""

from __future__ import annotations

import asyncio
import gzip
import time
import zlib
from collections.abc import Awaitable, Callable

import brotli
import pytest
from aiohttp import web

from insomnia_web.errors import ToolError, ToolTimeout
from insomnia_web.net import SafeClient

from .conftest import SITE

Serve = Callable[[web.Application], Awaitable[int]]
RawHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
ServeRaw = Callable[[RawHandler], Awaitable[int]]
MakeClient = Callable[..., SafeClient]

MiB = 1024 * 1024
BOMB_SIZE = 50 * MiB


def _zeros_compressed(coding: str) -> bytes:
    """50 MB of zeros compressed with *coding*, built without materialising 50 MB at once."""
    chunk = bytes(MiB)
    if coding == "br":
        comp = brotli.Compressor(quality=5)
        parts: list[bytes] = [comp.process(chunk) for _ in range(BOMB_SIZE // MiB)]
        tail: bytes = comp.finish()
        return b"".join(parts) + tail
    wbits = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}[coding]
    obj = zlib.compressobj(9, zlib.DEFLATED, wbits)
    parts = [obj.compress(chunk) for _ in range(BOMB_SIZE // MiB)]
    return b"".join(parts) + obj.flush()


def static_app(body: bytes, headers: dict[str, str], status: int = 200) -> web.Application:
    """An app whose / answers *body* with *headers*."""

    async def index(request: web.Request) -> web.Response:
        return web.Response(body=body, headers=headers, status=status)

    app = web.Application()
    app.router.add_get("/", index)
    return app


async def read_request(reader: asyncio.StreamReader) -> None:
    """Consume one HTTP request head."""
    await reader.readuntil(b"\r\n\r\n")


@pytest.mark.asyncio
@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
async def test_compression_bomb_is_cut_at_the_cap(
    serve_app: Serve, make_client: MakeClient, coding: str
) -> None:
    """A 50 MB bomb is decompressed only up to max_bytes and reported as truncated."""
    bomb = _zeros_compressed(coding)
    assert len(bomb) < MiB
    port = await serve_app(static_app(bomb, {"Content-Encoding": coding}))
    result = await make_client(port).fetch(f"http://{SITE}:{port}/", max_bytes=64 * 1024)
    assert result.truncated
    assert result.bytes_read == len(result.body) == 64 * 1024
    assert result.body == bytes(64 * 1024)


@pytest.mark.asyncio
@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
async def test_compressed_body_within_cap_is_decoded(
    serve_app: Serve, make_client: MakeClient, coding: str
) -> None:
    """A compressed body under the cap comes back whole and decompressed."""
    text = b"hello world " * 1000
    data = {
        "gzip": gzip.compress(text),
        "deflate": zlib.compress(text),
        "br": brotli.compress(text),
    }[coding]
    port = await serve_app(static_app(data, {"Content-Encoding": coding}))
    result = await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert result.body == text
    assert not result.truncated


@pytest.mark.asyncio
async def test_raw_deflate_and_multi_member_gzip(serve_app: Serve, make_client: MakeClient) -> None:
    """Raw deflate streams and concatenated gzip members decode fully."""
    obj = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    raw = obj.compress(b"raw deflate") + obj.flush()
    port = await serve_app(static_app(raw, {"Content-Encoding": "deflate"}))
    assert (await make_client(port).fetch(f"http://{SITE}:{port}/")).body == b"raw deflate"
    members = gzip.compress(b"one ") + gzip.compress(b"two")
    port2 = await serve_app(static_app(members, {"Content-Encoding": "gzip"}))
    assert (await make_client(port2).fetch(f"http://{SITE}:{port2}/")).body == b"one two"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("body", "coding"),
    [
        (b"not gzip at all", "gzip"),
        (b"not brotli data at all", "br"),
        (b"abc", "zstd"),
        (b"abc", "gzip, br"),
    ],
)
async def test_bad_or_unknown_coding_is_a_decoding_error(
    serve_app: Serve, make_client: MakeClient, body: bytes, coding: str
) -> None:
    """Corrupt compressed data, unknown and stacked codings fail as content_decoding_error."""
    port = await serve_app(static_app(body, {"Content-Encoding": coding}))
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert info.value.code == "content_decoding_error"


@pytest.mark.asyncio
async def test_plain_body_over_cap_is_truncated(serve_app: Serve, make_client: MakeClient) -> None:
    """An uncompressed body over max_bytes is cut there, and a body exactly at it is not."""
    port = await serve_app(static_app(b"x" * 5000, {}))
    client = make_client(port)
    cut = await client.fetch(f"http://{SITE}:{port}/", max_bytes=4096)
    assert cut.truncated
    assert cut.body == b"x" * 4096
    exact = await client.fetch(f"http://{SITE}:{port}/", max_bytes=5000)
    assert not exact.truncated
    assert len(exact.body) == 5000


@pytest.mark.asyncio
async def test_declared_length_over_cap(serve_app: Serve, make_client: MakeClient) -> None:
    """A Content-Length over the cap is response_too_large unless truncation is allowed."""
    port = await serve_app(static_app(b"y" * 10_000, {}))
    client = make_client(port)
    with pytest.raises(ToolError) as info:
        await client.fetch(f"http://{SITE}:{port}/", max_bytes=2048, allow_truncate=False)
    assert info.value.code == "response_too_large"
    assert info.value.details["content_length"] == 10_000
    cut = await client.fetch(f"http://{SITE}:{port}/", max_bytes=2048, allow_truncate=True)
    assert cut.truncated
    assert len(cut.body) == 2048


@pytest.mark.asyncio
async def test_endless_chunked_body_is_cut(serve_raw: ServeRaw, make_client: MakeClient) -> None:
    """An endless chunked body is read only up to max_bytes."""

    async def endless(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"4000\r\n" + b"z" * 0x4000 + b"\r\n"
        while True:
            writer.write(chunk)
            await writer.drain()

    port = await serve_raw(endless)
    started = time.monotonic()
    result = await make_client(port).fetch(f"http://{SITE}:{port}/", max_bytes=MiB, timeout_s=10)
    assert result.truncated
    assert len(result.body) == MiB
    assert time.monotonic() - started < 10


@pytest.mark.asyncio
async def test_dripping_server_hits_the_total_deadline(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """A server sending a byte at a time slowly fails with the total deadline, in bounded time."""

    async def drip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        for _ in range(1000):
            writer.write(b"d")
            await writer.drain()
            await asyncio.sleep(0.1)

    port = await serve_raw(drip)
    started = time.monotonic()
    with pytest.raises(ToolTimeout) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=0.5)
    assert info.value.code == "timeout"
    assert info.value.phase == "total"
    assert time.monotonic() - started < 0.5 * 3


@pytest.mark.asyncio
async def test_silent_server_hits_the_total_deadline(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """A server that accepts and never answers fails with the total deadline."""

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(30)

    port = await serve_raw(silent)
    with pytest.raises(ToolTimeout) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=0.3)
    assert info.value.phase == "total"


@pytest.mark.asyncio
async def test_slow_connect_is_a_connect_timeout(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection that cannot be opened within connect_timeout_s fails with phase=connect."""
    import aiohappyeyeballs

    async def never(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(30)
        raise AssertionError("unreachable")

    monkeypatch.setattr(aiohappyeyeballs, "start_connection", never)
    with pytest.raises(ToolTimeout) as info:
        await make_client(8080, connect_timeout_s=0.2).fetch(f"http://{SITE}:8080/", timeout_s=5)
    assert info.value.phase == "connect"


@pytest.mark.asyncio
async def test_content_length_longer_than_body(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """A body that ends before its Content-Length is a protocol_error."""

    async def short(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")
        await writer.drain()
        writer.close()

    port = await serve_raw(short)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert info.value.code == "protocol_error"


@pytest.mark.asyncio
async def test_content_length_shorter_than_body(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """Extra bytes after Content-Length never enter the body (a malformed reply at worst)."""

    async def long(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello and more trailing junk")
        await writer.drain()
        await asyncio.sleep(5)

    port = await serve_raw(long)
    client = make_client(port)
    outcome: ToolError | bytes
    try:
        outcome = (await client.fetch(f"http://{SITE}:{port}/", timeout_s=3)).body
    except ToolError as exc:  # the junk arrived with the body and was parsed as a response
        outcome = exc
    if isinstance(outcome, ToolError):
        assert outcome.code == "protocol_error"
    else:
        assert outcome == b"hello"


@pytest.mark.asyncio
async def test_content_length_shorter_than_late_body(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """Bytes sent after the declared body are never read into it."""

    async def long(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        await writer.drain()
        await asyncio.sleep(0.2)
        writer.write(b"and more trailing junk")
        await writer.drain()
        await asyncio.sleep(5)

    port = await serve_raw(long)
    result = await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=3)
    assert result.body == b"hello"


@pytest.mark.asyncio
async def test_reset_mid_body(serve_raw: ServeRaw, make_client: MakeClient) -> None:
    """A reset in the middle of a chunked body fails as a protocol or connection error."""

    async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        await writer.drain()
        sock = writer.get_extra_info("socket")
        import socket
        import struct

        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    port = await serve_raw(reset)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert info.value.code in ("protocol_error", "connection_error")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "head",
    [
        b"HTTP/1.1 200 OK\r\nX-Huge: " + b"h" * 20_000 + b"\r\n\r\n",
        b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-N%d: v\r\n" % i for i in range(500)) + b"\r\n",
        b"HTTP/1.1 200 OK\r\n" + b"X-Line: " + b"l" * 9000 + b"\r\n\r\n",
        b"NOT-HTTP garbage\r\n\r\n",
    ],
)
async def test_oversized_or_malformed_headers(
    serve_raw: ServeRaw, make_client: MakeClient, head: bytes
) -> None:
    """Huge, numerous or malformed response headers fail as protocol_error."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(head)
        await writer.drain()
        await asyncio.sleep(5)

    port = await serve_raw(answer)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=3)
    assert info.value.code == "protocol_error", info.value.message


@pytest.mark.asyncio
async def test_endless_headers_are_bounded(serve_raw: ServeRaw, make_client: MakeClient) -> None:
    """A server that never stops sending header lines is cut off by the header limits."""

    async def endless(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\n")
        n = 0
        while True:
            writer.write(b"X-%d: %s\r\n" % (n, b"v" * 100))
            n += 1
            await writer.drain()

    port = await serve_raw(endless)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=5)
    assert info.value.code == "protocol_error"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "response",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
        b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n",
    ],
)
async def test_malformed_framing_is_protocol_error(
    serve_raw: ServeRaw, make_client: MakeClient, response: bytes
) -> None:
    """Bad, negative, overflowing, duplicate or conflicting lengths and bad chunks are refused."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(response)
        await writer.drain()

    port = await serve_raw(answer)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=3)
    assert info.value.code == "protocol_error"
    assert "\n" not in info.value.message
