"""Bounded streaming decompression of response bodies (gzip, deflate, br).

``feed(data, room)`` yields the decompressed output of *data* in pieces of at most
:data:`PIECE` bytes and stops once *room* bytes have been produced. A 50 KB bomb that
would expand to 1 GiB therefore costs at most one piece beyond what the caller keeps, and
decompression stops as soon as the caller's cap is reached.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Protocol

import brotli

from ..errors import ToolError

__all__ = ["ACCEPT_ENCODING", "PIECE", "Decoder", "make_decoder"]

ACCEPT_ENCODING = "gzip, deflate, br"
"""The only codings we ask for: the ones decompressed here with a bound."""
PIECE = 256 * 1024
"""Largest piece of output produced at once."""


class Decoder(Protocol):
    """A bounded streaming decompressor."""

    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        """Decompress *data*, yielding pieces that add up to at most *room* bytes."""
        ...

    def flush(self, room: int) -> bytes:
        """Return what is left at the end of the body, at most *room* bytes."""
        ...


def _decoding_error(coding: str, exc: Exception) -> ToolError:
    return ToolError("content_decoding_error", f"the {coding} response body is corrupt: {exc}")


class _Identity:
    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        if data:
            yield data[:room]

    def flush(self, room: int) -> bytes:
        return b""


def _is_zlib_header(data: bytes) -> bool:
    """True if *data* starts with a zlib (RFC 1950) header rather than raw deflate."""
    return len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0


class _Zlib:
    """gzip (possibly several members) or deflate (zlib-wrapped or raw)."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._obj: zlib._Decompress | None = None
        if coding == "gzip":
            self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)

    def _start(self, data: bytes) -> zlib._Decompress:
        if self._obj is None:
            # RFC 9110 "deflate" is zlib-wrapped; some servers send a raw stream.
            wbits = zlib.MAX_WBITS if _is_zlib_header(data) else -zlib.MAX_WBITS
            self._obj = zlib.decompressobj(wbits)
        return self._obj

    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        if not data:
            return
        produced = 0
        obj = self._start(data)
        try:
            while produced < room:
                step = min(PIECE, room - produced)
                piece = obj.decompress(data, step)
                data = obj.unconsumed_tail  # input held back because the step was full
                produced += len(piece)
                if piece:
                    yield piece
                if obj.eof:
                    rest = obj.unused_data
                    if self.coding != "gzip" or not rest.strip(b"\0"):
                        return  # the end, or padding after it
                    data = rest  # another gzip member follows
                    obj = self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
                elif not data and len(piece) < step:
                    return  # input consumed and output drained
        except zlib.error as exc:
            raise _decoding_error(self.coding, exc) from exc

    def flush(self, room: int) -> bytes:
        if self._obj is None:
            return b""
        try:
            return self._obj.flush(max(min(room, PIECE), 1))[:room]
        except zlib.error as exc:
            raise _decoding_error(self.coding, exc) from exc


class _Brotli:
    def __init__(self) -> None:
        self._obj = brotli.Decompressor()

    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        # The output limit is approximate: brotli stops growing its buffer at the next
        # internal block (up to ~2x the limit). Pending output is drained with empty input.
        produced = 0
        pending = data
        try:
            while produced < room and (pending or not self._obj.is_finished()):
                piece: bytes = self._obj.process(pending, output_buffer_limit=min(PIECE, room))
                pending = b""
                piece = piece[: room - produced]
                if not piece:
                    return  # input consumed, nothing pending
                produced += len(piece)
                yield piece
        except brotli.error as exc:
            raise _decoding_error("br", exc) from exc

    def flush(self, room: int) -> bytes:
        return b""


def make_decoder(content_encoding: str | None) -> Decoder:
    """The decoder for a ``Content-Encoding`` value; unknown or stacked codings are refused."""
    coding = (content_encoding or "").strip().lower()
    if coding in ("", "identity"):
        return _Identity()
    if coding in ("gzip", "x-gzip"):
        return _Zlib("gzip")
    if coding == "deflate":
        return _Zlib("deflate")
    if coding == "br":
        return _Brotli()
    raise ToolError(
        "content_decoding_error",
        f"unsupported Content-Encoding {content_encoding!r} (we accept {ACCEPT_ENCODING})",
    )
