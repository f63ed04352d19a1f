"""The end of a compressed body: reading stops there, and raw bytes are bounded too."""

from __future__ import annotations

import asyncio
import gzip
import time
import zlib
from collections.abc import Awaitable, Callable

import brotli
import pytest

from insomnia_web.errors import ToolError
from insomnia_web.net import SafeClient
from insomnia_web.net.decompress import MAX_GZIP_MEMBERS, make_decoder, raw_limit

from .conftest import SITE

RawHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
ServeRaw = Callable[[RawHandler], Awaitable[int]]
MakeClient = Callable[..., SafeClient]

PAGE = b"<html><title>t</title><body><p>the whole page</p></body></html>"
EMPTY_STORED_BLOCK = b"\x00\x00\x00\xff\xff"
"""A non-final deflate block holding nothing: endless input that never yields output."""
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def _compress(coding: str, data: bytes) -> bytes:
    if coding == "br":
        return bytes(brotli.compress(data))
    wbits = 16 + zlib.MAX_WBITS if coding == "gzip" else zlib.MAX_WBITS
    obj = zlib.compressobj(6, zlib.DEFLATED, wbits)
    return obj.compress(data) + obj.flush()


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_decoder_is_finished_at_the_end_of_the_stream(coding: str) -> None:
    """A decoder is finished once its stream ended (gzip: zeros follow), and ignores the rest."""
    decoder = make_decoder(coding)
    assert not decoder.finished
    out = b"".join(decoder.feed(_compress(coding, PAGE), 1 << 20))
    assert out == PAGE
    assert decoder.finished == (coding != "gzip")  # another gzip member could follow
    assert list(decoder.feed(bytes(64 * 1024), 1 << 20)) == []
    assert decoder.finished
    assert list(decoder.feed(b"more bytes", 1 << 20)) == []
    assert decoder.flush(1 << 20) == b""


def test_zeros_after_gzip_cost_nothing_per_chunk() -> None:
    """Zero padding fed after a gzip stream ends is dropped, not kept and copied per chunk."""
    decoder = make_decoder("gzip")
    assert b"".join(decoder.feed(gzip.compress(PAGE) + bytes(10), 1 << 20)) == PAGE
    assert decoder.finished
    zeros = bytes(256 * 1024)
    started = time.process_time()
    for _ in range(400):  # 100 MiB: quadratic copying would take minutes
        assert list(decoder.feed(zeros, 1 << 20)) == []
    assert time.process_time() - started < 2


def test_too_many_gzip_members_is_a_decoding_error() -> None:
    """More than MAX_GZIP_MEMBERS gzip members in one body is refused."""
    member = gzip.compress(b"x")
    decoder = make_decoder("gzip")
    with pytest.raises(ToolError) as info:
        list(decoder.feed(member * (MAX_GZIP_MEMBERS + 1), 1 << 20))
    assert info.value.code == "content_decoding_error"
    ok = make_decoder("gzip")
    assert b"".join(ok.feed(member * MAX_GZIP_MEMBERS, 1 << 20)) == b"x" * MAX_GZIP_MEMBERS


def test_raw_limit_leaves_room_for_incompressible_data() -> None:
    """The raw cap is above the decompressed cap by more than deflate's worst-case overhead."""
    limit = 1 << 20
    incompressible = bytes(range(256)) * (limit // 256)
    obj = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS, 9, zlib.Z_FILTERED)
    assert len(obj.compress(incompressible) + obj.flush()) < raw_limit(limit)
    assert raw_limit(0) > 0


async def _read_request(reader: asyncio.StreamReader) -> None:
    await reader.readuntil(b"\r\n\r\n")


@pytest.mark.asyncio
async def test_gzip_page_followed_by_endless_zeros_returns_the_page(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """A complete gzip page followed by endless zeros returns the page at once, not a timeout."""

    async def padded(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
            b"Connection: close\r\n\r\n" + gzip.compress(PAGE)
        )
        zeros = bytes(64 * 1024)
        while True:
            writer.write(zeros)
            await writer.drain()

    port = await serve_raw(padded)
    started = time.monotonic()
    result = await make_client(port).fetch(f"http://{SITE}:{port}/", timeout_s=5)
    assert result.body == PAGE
    assert not result.truncated
    assert time.monotonic() - started < 2


@pytest.mark.asyncio
async def test_compressed_body_yielding_nothing_stops_at_the_raw_cap(
    serve_raw: ServeRaw, make_client: MakeClient
) -> None:
    """Endless compressed input that decodes to nothing is cut at the raw-byte cap."""
    sent = 0

    async def empty_blocks(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal sent
        await _read_request(reader)
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
            b"Connection: close\r\n\r\n" + GZIP_HEADER
        )
        blocks = EMPTY_STORED_BLOCK * 10_000
        while True:
            writer.write(blocks)
            sent += len(blocks)
            await writer.drain()

    port = await serve_raw(empty_blocks)
    client = make_client(port)
    started = time.monotonic()
    result = await client.fetch(f"http://{SITE}:{port}/", max_bytes=100_000, timeout_s=10)
    assert result.truncated
    assert result.body == b""
    assert time.monotonic() - started < 5
    assert sent < raw_limit(100_000) + 4 * 1024 * 1024  # what the socket buffers held
