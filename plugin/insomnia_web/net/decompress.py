"""Bounded streaming decompression of response bodies (gzip, deflate, br).

``feed(data, room)`` yields the decompressed output of *data* in pieces of at most
:data:`PIECE` bytes and stops once *room* bytes have been produced. A 50 KB bomb that
would expand to 1 GiB therefore costs at most one piece beyond what the caller keeps, and
decompression stops as soon as the caller's cap is reached.

A decoder is ``finished`` once its stream has ended (for gzip: the last member, then
nothing or zero padding); what follows is dropped, and the caller stops reading. A body
may hold at most :data:`MAX_GZIP_MEMBERS` gzip members, and :func:`raw_limit` bounds the
compressed bytes worth reading for a given decompressed cap, so input that decodes to
little or nothing (empty deflate blocks, padding) cannot be sent forever.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Protocol

import brotli

from ..errors import ToolError

__all__ = ["ACCEPT_ENCODING", "MAX_GZIP_MEMBERS", "PIECE", "Decoder", "make_decoder", "raw_limit"]

ACCEPT_ENCODING = "gzip, deflate, br"
"""The only codings we ask for: the ones decompressed here with a bound."""
PIECE = 256 * 1024
"""Largest piece of output produced at once."""
MAX_GZIP_MEMBERS = 128
"""Most gzip members in one body (a server may flush one per write; more is an attack)."""


def raw_limit(limit: int) -> int:
    """The most raw (compressed) bytes worth reading for at most *limit* decoded bytes.

    Compression never expands data by more than a few bytes per 16 KiB block, so a body
    longer than this decodes past *limit* or is not a real compressed stream.
    """
    return limit + limit // 64 + 64 * 1024


class Decoder(Protocol):
    """A bounded streaming decompressor."""

    @property
    def finished(self) -> bool:
        """Whether the stream has ended; later input is ignored."""
        ...

    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        """Decompress *data*, yielding pieces that add up to at most *room* bytes."""
        ...

    def flush(self, room: int) -> bytes:
        """Return what is left at the end of the body, at most *room* bytes."""
        ...


def _decoding_error(coding: str, exc: Exception) -> ToolError:
    return ToolError("content_decoding_error", f"the {coding} response body is corrupt: {exc}")


class _Identity:
    finished = False

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
        self.finished = False
        self._members = 0
        self._between = False  # a gzip member ended with the input: another may follow
        self._obj: zlib._Decompress | None = None
        if coding == "gzip":
            self._obj = self._member()

    def _member(self) -> zlib._Decompress:
        self._members += 1
        if self._members > MAX_GZIP_MEMBERS:
            raise ToolError(
                "content_decoding_error",
                f"the gzip response body has more than {MAX_GZIP_MEMBERS} members",
            )
        return zlib.decompressobj(16 + zlib.MAX_WBITS)

    def _start(self, data: bytes) -> zlib._Decompress:
        if self._obj is None:
            # RFC 9110 "deflate" is zlib-wrapped; some servers send a raw stream.
            wbits = zlib.MAX_WBITS if _is_zlib_header(data) else -zlib.MAX_WBITS
            self._obj = zlib.decompressobj(wbits)
        return self._obj

    def _after_end(self, rest: bytes) -> bytes:
        """What to decode after a stream ended: the next gzip member, or nothing."""
        if self.coding != "gzip" or (rest and rest.count(0) == len(rest)):
            self.finished = True  # the end, or zero padding after it
            return b""
        self._between = not rest
        if rest:
            self._obj = self._member()
        return rest

    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        if not data or self.finished:
            return
        if self._between:
            data = self._after_end(data)
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
                    data = self._after_end(obj.unused_data)
                    if not data:
                        return
                    obj = self._start(data)
                elif not data and len(piece) < step:
                    return  # input consumed and output drained
        except zlib.error as exc:
            raise _decoding_error(self.coding, exc) from exc

    def flush(self, room: int) -> bytes:
        if self._obj is None or self.finished or self._between:
            return b""
        try:
            return self._obj.flush(max(min(room, PIECE), 1))[:room]
        except zlib.error as exc:
            raise _decoding_error(self.coding, exc) from exc


class _Brotli:
    def __init__(self) -> None:
        self._obj = brotli.Decompressor()

    @property
    def finished(self) -> bool:
        return bool(self._obj.is_finished())

    def feed(self, data: bytes, room: int) -> Iterator[bytes]:
        if self.finished:
            return
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
