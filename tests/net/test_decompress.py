"""Bounded decompressors: output comes in small pieces and stops at the room given."""

from __future__ import annotations

import zlib

import brotli
import pytest

from insomnia_web.errors import ToolError
from insomnia_web.net.decompress import PIECE, make_decoder

MiB = 1024 * 1024


def _bomb(coding: str, size: int) -> bytes:
    zeros = bytes(size)
    if coding == "br":
        return bytes(brotli.compress(zeros, quality=5))
    wbits = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}[coding]
    obj = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return obj.compress(zeros) + obj.flush()


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_feed_stops_at_room_in_small_pieces(coding: str) -> None:
    """A bomb fed at once yields small pieces (brotli: about PIECE) adding up to the room."""
    decoder = make_decoder(coding)
    pieces = list(decoder.feed(_bomb(coding, 16 * MiB), 3 * MiB + 5))
    assert all(len(p) <= 2 * PIECE for p in pieces)
    assert sum(len(p) for p in pieces) == 3 * MiB + 5


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_feed_in_chunks_reassembles(coding: str) -> None:
    """Feeding a stream in small chunks gives back the whole original."""
    original = b"".join(b"line %d\n" % i for i in range(20000))
    if coding == "br":
        data = brotli.compress(original)
    else:
        wbits = 16 + zlib.MAX_WBITS if coding == "gzip" else zlib.MAX_WBITS
        obj = zlib.compressobj(6, zlib.DEFLATED, wbits)
        data = obj.compress(original) + obj.flush()
    decoder = make_decoder(coding)
    out = bytearray()
    for i in range(0, len(data), 1000):
        for piece in decoder.feed(data[i : i + 1000], 10 * MiB):
            out += piece
    out += decoder.flush(10 * MiB)
    assert bytes(out) == original


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_bomb_fully_drained_under_large_room(coding: str) -> None:
    """With room to spare, one feed of a bomb yields all of its output, nothing held back."""
    pieces = list(make_decoder(coding).feed(_bomb(coding, 8 * MiB), 64 * MiB))
    assert sum(len(p) for p in pieces) == 8 * MiB


def test_identity_and_unknown() -> None:
    """identity passes bytes through (cut at room); unknown codings are refused."""
    assert list(make_decoder("identity").feed(b"abcdef", 4)) == [b"abcd"]
    assert list(make_decoder(None).feed(b"", 4)) == []
    with pytest.raises(ToolError) as info:
        make_decoder("compress")
    assert info.value.code == "content_decoding_error"
