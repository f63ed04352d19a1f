"""Progress of a running call, relayed to the MCP client as progress notifications.

The runtime appends ``progress`` events to its history while a tool works (pages fetched by
an excerpt search, for example). :class:`ProgressRelay` is a history sink that forwards the
current call's progress events to the client that asked for progress (a ``progressToken``);
it keeps no events itself, so a long-running server does not accumulate its history in
memory. The JSONL history file, when configured, remains the record.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.session import ServerSession

from ..history import Event, ProgressEvent
from ..textcheck import terminal_safe

__all__ = ["ProgressRelay", "relaying"]

log = logging.getLogger(__name__)

_BUFFER = 64
"""Progress events waiting to be sent; more are dropped (progress is best effort)."""

_channel: contextvars.ContextVar[MemoryObjectSendStream[ProgressEvent] | None] = (
    contextvars.ContextVar("insomnia_mcp_progress", default=None)
)


class ProgressRelay:
    """A history sink that passes the current call's progress events to its MCP client."""

    def append(self, event: Event) -> None:
        """Queue *event* for the client if it is progress of a call being served."""
        if not isinstance(event, ProgressEvent):
            return
        channel = _channel.get()
        if channel is None:
            return
        try:
            channel.send_nowait(event)
        except (anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
            log.debug("progress event dropped: %s", event.message)


async def _forward(
    session: ServerSession, events: MemoryObjectReceiveStream[ProgressEvent]
) -> None:
    async with events:
        step = 0
        async for event in events:
            step += 1
            if event.done is not None:
                progress, total = float(event.done), event.total
            else:
                progress, total = float(step), None
            try:
                await session.report_progress(progress, total, terminal_safe(event.message))
            except Exception:  # the client went away: the call's result still matters
                log.debug("progress notification failed", exc_info=True)


@asynccontextmanager
async def relaying(session: ServerSession) -> AsyncIterator[None]:
    """Relay progress events appended inside this block to *session*'s request."""
    send, receive = anyio.create_memory_object_stream[ProgressEvent](_BUFFER)
    token = _channel.set(send)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_forward, session, receive)
            with send:
                yield
    finally:
        _channel.reset(token)
