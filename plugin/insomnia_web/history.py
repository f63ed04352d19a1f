"""History events: what the host shows of every tool call, in order.

Events are a msgspec tagged union (the ``type`` field), so a history is JSONL-able and can be
decoded back with :func:`decode_event`. A host tells them apart by class (``isinstance``,
``match``) or by ``event.type``, the tag their JSON carries (``"tool_call"``), a class
attribute typed as a ``Literal`` so that ``if event.type == "tool_result":`` narrows
:data:`Event` for a type checker. Nothing reaches the model that is not in a
``tool_result`` event.

The JSONL file (:class:`JsonlHistory`) stores a page's text once: a ``tool_result``'s output
repeats the page text that its ``text`` already holds, so each long output string found
verbatim in ``text`` is written as ``{"$in_text": [start, end]}`` and
:func:`decode_event` puts it back. The file has a size cap: past it, it is rotated like a
log (``history.jsonl`` -> ``history.jsonl.1`` -> ... up to ``backups`` files; the oldest
goes), under an exclusive lock so that several processes appending to it rotate once.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Literal, Protocol

import msgspec

from .errors import ErrorInfo
from .manifest_path import expand_home
from .ownfiles import not_own, not_own_folder, not_own_stat

try:  # POSIX: processes sharing one history file take turns to append and rotate
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process per history file
    fcntl = None  # type: ignore[assignment]

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
    "compact_event",
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

    type: ClassVar[Literal["tool_call"]] = "tool_call"

    tool: str
    input: dict[str, Any]


class PermissionEvent(_Event, tag="permission", frozen=True):
    """The permission verdict of a call: who decided (a rule, the user, the default) and why."""

    type: ClassVar[Literal["permission"]] = "permission"

    decision: Literal["allow", "deny"]
    by: Literal["rule", "user", "default"]
    rule: str | None = None
    reason: str = ""


class ProgressEvent(_Event, tag="progress", frozen=True):
    """Progress of multi-step work, e.g. pages fetched by an excerpt search."""

    type: ClassVar[Literal["progress"]] = "progress"

    message: str
    done: int | None = None
    total: int | None = None


class ToolResultEvent(_Event, tag="tool_result", frozen=True):
    """The result the model receives: structured output or an error."""

    type: ClassVar[Literal["tool_result"]] = "tool_result"

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


MIN_SHARED_CHARS = 200
"""Output strings at least this long are stored as a reference into the event's text."""
_REF = "$in_text"


def _share(value: Any, text: str) -> Any:
    if isinstance(value, str) and len(value) >= MIN_SHARED_CHARS:
        at = text.find(value)
        return {_REF: [at, at + len(value)]} if at != -1 else value
    if isinstance(value, dict):
        return {k: _share(v, text) for k, v in value.items()}
    if isinstance(value, list):
        return [_share(v, text) for v in value]
    return value


def _unshare(value: Any, text: str) -> Any:
    if isinstance(value, dict):
        span = value.get(_REF)
        if len(value) == 1 and isinstance(span, list) and len(span) == 2:
            return text[span[0] : span[1]]
        return {k: _unshare(v, text) for k, v in value.items()}
    if isinstance(value, list):
        return [_unshare(v, text) for v in value]
    return value


def compact_event(event: Event) -> Event:
    """*event* with the long output strings its text repeats replaced by references."""
    if isinstance(event, ToolResultEvent) and event.output and event.text:
        return msgspec.structs.replace(event, output=_share(event.output, event.text))
    return event


def decode_event(line: bytes | str) -> Event:
    """Decode one JSONL line back into its event Struct (shared text put back in place)."""
    event = _decoder.decode(line)
    if isinstance(event, ToolResultEvent) and event.output and event.text:
        return msgspec.structs.replace(event, output=_unshare(event.output, event.text))
    return event


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


def _open_private(path: Path) -> BinaryIO:
    """*path* open for appending; created readable and writable by its owner only.

    A file (or a link) someone else made, or one every user may write, is refused with
    ``PermissionError``: in a shared folder it could be theirs to read, or a link to a file
    of the user's own that history lines must not be appended to. So is a file in a folder
    someone else may write in (:func:`~.ownfiles.not_own_folder`): they could swap the file
    for a link between the check and the open."""
    problem = not_own_folder(path.parent) or not_own(path)
    if problem is not None:
        raise PermissionError(f"{path} {problem}")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    problem = not_own_stat(os.fstat(fd))  # the file opened, should it have changed since
    if problem is not None:
        os.close(fd)
        raise PermissionError(f"{path} {problem}")
    return os.fdopen(fd, "ab")


class JsonlHistory:
    """Appends one JSON object per line to a file (parent folders created).

    The history holds every query, URL and page text: a file it creates is readable by its
    owner only (``0600``), and so is the folder it makes for it (``0700``); a file another
    user owns or every user may write, and a link another user made, are not written to.

    *max_bytes* caps the file (None: no cap): a line that would take it past the cap first
    rotates it to ``<path>.1`` (``.1`` to ``.2`` and so on, *backups* files kept). A single
    line larger than the cap is still written, to a fresh file.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, max_bytes: int | None = None, backups: int = 3
    ) -> None:
        self.path = expand_home(os.fspath(path))
        self.max_bytes = max_bytes
        self.backups = backups
        self._lock = threading.Lock()
        self._ready = False

    def problem(self) -> str | None:
        """Why events could not be written to the file, or None (checked without writing)."""
        path = self.path
        folder = not_own_folder(path.parent)
        if folder is not None:
            return f"{path} cannot be used: {folder}"
        if path.exists():
            if path.is_dir():
                return f"{path} is a directory, not a file"
            theirs = not_own(path)
            if theirs is not None:
                return f"{path} {theirs}"
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
        line = _encoder.encode(compact_event(event)) + b"\n"
        with self._lock:
            if not self._ready:  # folders are made on the first event, not at start-up
                self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                self._ready = True
            with self._locked() as f:
                if (
                    self.max_bytes is not None
                    and f.tell() > 0
                    and (f.tell() + len(line) > self.max_bytes)
                ):
                    self._rotate()
                    with _open_private(self.path) as fresh:
                        fresh.write(line)
                    return
                f.write(line)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[BinaryIO]:
        """The current file, open for appending under an exclusive lock (re-opened when
        another process rotated it meanwhile)."""
        while True:
            f = _open_private(self.path)
            try:
                if fcntl is not None:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                try:
                    current = os.stat(self.path).st_ino == os.fstat(f.fileno()).st_ino
                except FileNotFoundError:
                    current = False
                if current:
                    f.seek(0, os.SEEK_END)
                    yield f
                    return
            finally:
                f.close()  # closing releases the lock

    def _rotate(self) -> None:
        """``path.(n-1)`` -> ``path.n`` ... ``path`` -> ``path.1``; the oldest is dropped."""
        if self.backups <= 0:
            self.path.unlink(missing_ok=True)
            return
        for n in range(self.backups, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{n}")
            newer = self.path if n == 1 else self.path.with_name(f"{self.path.name}.{n - 1}")
            if newer.exists():
                os.replace(newer, older)


class MultiHistory:
    """Sends every event to several sinks."""

    def __init__(self, *sinks: HistorySink) -> None:
        self.sinks = sinks

    def append(self, event: Event) -> None:
        """Record *event* in every sink."""
        for sink in self.sinks:
            sink.append(event)
