"""Bounded streaming decompression of response bodies (gzip, deflate, br).

Every ``feed`` call takes a *room* argument: the most output bytes it may return. The
decompressors never produce more than that, so a 50 KB bomb that would expand to 1 GiB
costs at most *room* bytes of memory and stops as soon as the caller's cap is reached.
"""

from __future__ import annotations

import zlib
from typing import Protocol

import brotli

from ..errors import ToolError

__all__ = ["ACCEPT_ENCODING", "Decoder", "make_decoder"]

ACCEPT_ENCODING = "gzip, deflate, br"
"""The only codings we ask for: the ones decompressed here with a bound."""


class Decoder(Protocol):
    """A bounded streaming decompressor."""

    def feed(self, data: bytes, room: int) -> bytes:
        """Decompress *data*, returning at most *room* bytes (the rest is not needed)."""
        ...

    def flush(self, room: int) -> bytes:
        """Return what is left at the end of the body, at most *room* bytes."""
        ...


def _decoding_error(coding: str, exc: Exception) -> ToolError:
    return ToolError("content_decoding_error", f"the {coding} response body is corrupt: {exc}")


class _Identity:
    def feed(self, data: bytes, room: int) -> bytes:
        return data[:room]

    def flush(self, room: int) -> bytes:
        return b""


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
            header = data[:2]
            wrapped = (
                len(header) == 2
                and header[0] & 0x0F == 8
                and (header[0] << 8 | header[1]) % 31 == 0
            )
            self._obj = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        return self._obj

    def feed(self, data: bytes, room: int) -> bytes:
        if not data:
            return b""
        out = bytearray()
        obj = self._start(data)
        try:
            while data and len(out) < room:
                out += obj.decompress(data, room - len(out))
                if obj.unconsumed_tail:
                    break  # room is exhausted; the rest is beyond the cap
                if obj.eof:
                    data = obj.unused_data
                    if self.coding != "gzip" or not data.strip(b"\0"):
                        break  # trailing garbage or padding after the stream
                    obj = self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
                else:
                    break
        except zlib.error as exc:
            raise _decoding_error(self.coding, exc) from exc
        return bytes(out)

    def flush(self, room: int) -> bytes:
        if self._obj is None:
            return b""
        try:
            return self._obj.flush(max(room, 1))[:room]
        except zlib.error as exc:
            raise _decoding_error(self.coding, exc) from exc


class _Brotli:
    def __init__(self) -> None:
        self._obj = brotli.Decompressor()

    def feed(self, data: bytes, room: int) -> bytes:
        if not data:
            return b""
        try:
            out: bytes = self._obj.process(data, output_buffer_limit=room)
        except brotli.error as exc:
            raise _decoding_error("br", exc) from exc
        return out[:room]

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
