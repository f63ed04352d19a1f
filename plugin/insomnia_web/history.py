"""History events: what the host shows of every tool call, in order.

Events are a msgspec tagged union (the ``type`` field), so a history is JSONL-able and can be
decoded back with :func:`decode_event`. Nothing reaches the model that is not in a
``tool_result`` event.
"""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

import msgspec

from .errors import ErrorInfo

__all__ = [
    "Event",
    "HistorySink",
    "JsonlHistory",
    "MemoryHistory",
    "MultiHistory",
    "PermissionEvent",
    "ProgressEvent",
    "ToolCallEvent",
    "ToolResultEvent",
    "decode_event",
    "utcnow",
]


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class _Event(msgspec.Struct, kw_only=True, frozen=True, tag_field="type"):
    call_id: str
    at: datetime = msgspec.field(default_factory=utcnow)


class ToolCallEvent(_Event, tag="tool_call", frozen=True):
    """The model asked for a tool call (with its raw input)."""

    tool: str
    input: dict[str, Any]


class PermissionEvent(_Event, tag="permission", frozen=True):
    """The permission verdict of a call: who decided (a rule, the user, the default) and why."""

    decision: Literal["allow", "deny"]
    by: Literal["rule", "user", "default"]
    rule: str | None = None
    reason: str = ""


class ProgressEvent(_Event, tag="progress", frozen=True):
    """Progress of multi-step work, e.g. pages fetched by an excerpt search."""

    message: str
    done: int | None = None
    total: int | None = None


class ToolResultEvent(_Event, tag="tool_result", frozen=True):
    """The result the model receives: structured output or an error."""

    ok: bool
    output: dict[str, Any] | None = None
    error: ErrorInfo | None = None
    text: str = ""
    truncated: bool = False
    bytes: int = 0
    duration_ms: int = 0


Event = ToolCallEvent | PermissionEvent | ProgressEvent | ToolResultEvent

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def decode_event(line: bytes | str) -> Event:
    """Decode one JSONL line back into its event Struct."""
    return _decoder.decode(line)


class HistorySink(Protocol):
    """Where events go; the host's visible history. ``append`` must not block for long."""

    def append(self, event: Event) -> None: ...


class MemoryHistory:
    """Keeps events in a list (tests, embedding hosts)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def append(self, event: Event) -> None:
        """Record *event*."""
        self.events.append(event)

    def of_call(self, call_id: str) -> list[Event]:
        """The events of one call, in order."""
        return [e for e in self.events if e.call_id == call_id]


class JsonlHistory:
    """Appends one JSON object per line to a file (parent folders created)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.Lock()
        self._ready = False

    def problem(self) -> str | None:
        """Why events could not be written to the file, or None (checked without writing)."""
        path = self.path
        if path.exists():
            if path.is_dir():
                return f"{path} is a directory, not a file"
            return None if os.access(path, os.W_OK) else f"{path} is not writable"
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            return f"{parent} is not a directory, so {path} cannot be created"
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"{path} cannot be created: {parent} is not writable"
        return None

    def append(self, event: Event) -> None:
        """Write *event* as one line; a line is written whole or not at all."""
        line = _encoder.encode(event) + b"\n"
        with self._lock:
            if not self._ready:  # folders are made on the first event, not at start-up
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._ready = True
            with self.path.open("ab") as f:
                f.write(line)


class MultiHistory:
    """Sends every event to several sinks."""

    def __init__(self, *sinks: HistorySink) -> None:
        self.sinks = sinks

    def append(self, event: Event) -> None:
        """Record *event* in every sink."""
        for sink in self.sinks:
            sink.append(event)
