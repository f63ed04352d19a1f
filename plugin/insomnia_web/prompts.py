"""Prompters: how a runtime asks a person about a call whose permission is ``ask``.

A prompter answers ``"once"`` (allow this call), ``"always"`` (allow this tool on these
domains for the rest of the session), ``"deny"`` (the person refused) or ``"unavailable"``
(nobody can be asked here: no terminal, a client without elicitation; the call is denied by
policy). It must show exactly what will be fetched, searched or stored.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import ClassVar, Literal, Protocol, TextIO

import msgspec

from .permissions import ToolCall
from .textcheck import terminal_line, terminal_safe

__all__ = [
    "ANSWERS",
    "Answer",
    "AutoApprovePrompter",
    "DenyPrompter",
    "PromptRequest",
    "Prompter",
    "TerminalPrompter",
    "format_request",
    "read_line",
]

Answer = Literal["once", "always", "deny", "unavailable"]


class PromptRequest(msgspec.Struct, frozen=True, kw_only=True):
    """What a prompter shows: the call, what it will touch, and why it asks."""

    call: ToolCall
    reason: str
    rule: str | None = None
    prompt: str | None = None


class Prompter(Protocol):
    """Asks a person to allow a call.

    A prompter may set ``approves_every_ask = True`` when its person approved every question
    in advance (``--yes``): then a probe that would ask (an excerpt page, a redirect hop)
    is allowed without a prompt.
    """

    async def ask(self, request: PromptRequest) -> Answer:
        """Answer *request*; any answer outside :data:`Answer` refuses the call."""
        ...


class AutoApprovePrompter:
    """Allows every asked call once (``--yes``), excerpt pages and redirect hops included."""

    approves_every_ask: ClassVar[bool] = True

    async def ask(self, request: PromptRequest) -> Answer:
        """Always ``"once"``."""
        return "once"


class DenyPrompter:
    """Nobody can be asked (no terminal, no ``--yes``): every asked call is denied."""

    async def ask(self, request: PromptRequest) -> Answer:
        """Always ``"unavailable"``."""
        return "unavailable"


ANSWERS: dict[str, Answer] = {
    "o": "once",
    "once": "once",
    "y": "once",
    "yes": "once",
    "a": "always",
    "always": "always",
    "d": "deny",
    "deny": "deny",
    "n": "deny",
    "no": "deny",
}
"""The replies a terminal prompt understands; anything else asks again."""


def format_request(request: PromptRequest, *, always_lasts: str = "this session") -> str:
    """The text a terminal shows for *request*; *always_lasts* says how long "always" lasts."""
    call = request.call
    lines = [f"{call.tool} wants to {terminal_line(call.summary)}"]  # one line, as it is
    if call.hosts_unknown:
        lines.append("  hosts: unknown (it may contact any host)")
    elif call.domains:
        lines.append(f"  hosts: {', '.join(call.domains)}")
    if request.prompt:
        lines.append(f"  {request.prompt}")
    lines.append(f"  why asked: {request.reason}")
    if call.hosts_unknown:  # an "always" could not say for which hosts: never offered
        lines.append("Allow? [o]nce / [d]eny: ")
        return "\n".join(lines)
    scope = "this domain" if call.domains else "this tool"
    lines.append(f"Allow? [o]nce / [a]lways for {scope}, {always_lasts} / [d]eny: ")
    return "\n".join(lines)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


async def read_line(stream: TextIO) -> str | None:
    """One line from *stream* without a blocking thread (``None`` at end of input).

    The event loop watches the file descriptor, so Ctrl-C (which cancels the task) ends the
    wait at once; a thread blocked in ``readline`` would keep the process alive until the
    person pressed Enter. Falls back to a thread on loops that cannot watch descriptors.
    """
    loop = asyncio.get_running_loop()
    fd = stream.fileno()
    done: asyncio.Future[str | None] = loop.create_future()
    buffer = bytearray()

    def readable() -> None:
        try:
            chunk = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError as exc:
            if not done.done():
                done.set_exception(exc)
            return
        buffer.extend(chunk)
        if (not chunk or b"\n" in buffer) and not done.done():
            done.set_result(buffer.decode(errors="replace") if buffer else None)

    try:
        loop.add_reader(fd, readable)
    except NotImplementedError:  # pragma: no cover - loops without add_reader (Windows)
        line = await asyncio.to_thread(stream.readline)
        return line or None
    try:
        return await done
    finally:
        loop.remove_reader(fd)


class TerminalPrompter:
    """Asks a person on a terminal: o(nce), a(lways), d(eny); anything else asks again.

    It asks only when both *stdin* and *stderr* are terminals; otherwise nobody can be
    asked and the answer is ``"unavailable"``. Concurrent calls are asked one at a time.
    End of input (Ctrl-D) denies. *always_lasts* is how the prompt describes the reach of
    "always" (a CLI says "until this process exits").
    """

    def __init__(
        self,
        stdin: TextIO | None = None,
        stderr: TextIO | None = None,
        *,
        always_lasts: str = "this session",
    ) -> None:
        self.stdin = stdin or sys.stdin
        self.stderr = stderr or sys.stderr
        self.always_lasts = always_lasts
        self._turn = asyncio.Lock()  # one question at a time on one terminal

    def _write(self, text: str) -> None:
        self.stderr.write(terminal_safe(text))
        self.stderr.flush()

    async def ask(self, request: PromptRequest) -> Answer:
        """Show the request and read replies until one is understood."""
        if not (_is_terminal(self.stdin) and _is_terminal(self.stderr)):
            return "unavailable"
        async with self._turn:
            return await self._ask(request)

    async def _ask(self, request: PromptRequest) -> Answer:
        self._write(format_request(request, always_lasts=self.always_lasts))
        while True:
            reply = await read_line(self.stdin)
            if reply is None:
                self._write("\n")
                return "deny"
            answer = ANSWERS.get(reply.strip().lower())
            if answer is not None:
                return answer
            self._write("Please answer o (once), a (always) or d (deny): ")
