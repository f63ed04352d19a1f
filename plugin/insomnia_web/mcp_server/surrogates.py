"""Tool calls whose JSON escapes a lone surrogate (``"\\ud800"``) still get an answer.

JSON allows such escapes, but they are not Unicode text: the MCP SDK's parser rejects the
whole line, and the client waits forever for a reply. :class:`SurrogateSafeStream` wraps the
transport's read stream: a ``tools/call`` line refused for that reason is parsed again (the
standard library accepts the escapes), every lone surrogate becomes U+FFFD, and the first
field that held one is named in the request's ``_meta`` under :data:`INVALID_FIELD_KEY`. The
server then answers ``invalid_input`` naming that field, as :meth:`Runtime.call_tool` does for
a Python caller. A ``tools/call`` line refused for an integer too long for the parser (JSON
allows any number of digits) is read the same way, that integer standing as one past the
64-bit range, which the runtime refuses as ``invalid_input`` naming its field. Any other
unreadable line is passed on unchanged.
"""

from __future__ import annotations

import json
import re
from types import TracebackType
from typing import Any, Self

import anyio
import pydantic
from mcp import types
from mcp.shared.message import SessionMessage

from ..textcheck import first_surrogate_field, replace_surrogates

__all__ = [
    "INVALID_FIELD_KEY",
    "SurrogateSafeStream",
    "first_surrogate_field",
    "replace_surrogates",
]

INVALID_FIELD_KEY = "insomnia-web/invalid-field"
"""``_meta`` key naming the argument that held a lone surrogate (set by the wrapper only)."""

_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_OUT_OF_RANGE = "number out of range"
_MAX_DIGITS = 4000
"""Integers of more digits are read as :data:`_TOO_BIG` (Python cannot read past 4300)."""
_TOO_BIG = 2**64


def _bounded_int(text: str) -> int:
    """*text* as an integer, or one past the 64-bit range when it has too many digits."""
    return int(text) if len(text) <= _MAX_DIGITS else _TOO_BIG


def _refused_line(exc: Exception) -> tuple[str, bool] | None:
    """The line the SDK's parser refused, and whether for a number out of range; None when
    the line holds neither a surrogate escape nor such a number."""
    if not isinstance(exc, pydantic.ValidationError):
        return None
    errors = exc.errors()
    line = errors[0].get("input") if errors else None
    if not isinstance(line, str):
        return None
    huge = _OUT_OF_RANGE in str(errors[0].get("msg", ""))
    return (line, huge) if huge or _ESCAPE.search(line) else None


Item = SessionMessage | Exception


def _repaired(exc: Exception) -> SessionMessage | None:
    """The ``tools/call`` request of a line refused for a lone surrogate (marked) or a too
    long integer; else None."""
    refused = _refused_line(exc)
    if refused is None:
        return None
    line, huge = refused
    try:
        data = json.loads(line, parse_int=_bounded_int)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("method") != "tools/call":
        return None
    params = data.get("params")
    if not isinstance(params, dict):
        return None
    field = first_surrogate_field(params.get("arguments"))
    if field is None and not huge:
        return None
    clean = replace_surrogates(data)
    if field is not None:
        meta = clean["params"].get("_meta")
        clean["params"]["_meta"] = {
            **(meta if isinstance(meta, dict) else {}),
            INVALID_FIELD_KEY: field,
        }
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(clean, by_name=False))
    except pydantic.ValidationError:
        return None


class SurrogateSafeStream:
    """A transport read stream that repairs tool calls with lone surrogates or too long
    integers (see above)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    @property
    def last_context(self) -> Any:
        """The sender's context, as the wrapped stream reports it."""
        return getattr(self.inner, "last_context", None)

    async def receive(self) -> Item:
        """The next message, repaired when it is a tool call with a lone surrogate."""
        item: Item = await self.inner.receive()
        if isinstance(item, Exception):
            return _repaired(item) or item
        return item

    async def aclose(self) -> None:
        """Close the wrapped stream."""
        await self.inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Item:
        try:
            return await self.receive()
        except anyio.EndOfStream as exc:
            raise StopAsyncIteration from exc

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None
