"""Prompters: how a runtime asks a person about a call whose permission is ``ask``.

A prompter answers ``"once"`` (allow this call), ``"always"`` (allow this tool on these
domains for the rest of the session), ``"deny"`` (the person refused) or ``"unavailable"``
(nobody can be asked here: no terminal, a client without elicitation; the call is denied by
policy). It must show exactly what will be fetched, searched or stored.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Literal, Protocol, TextIO

import msgspec

from .permissions import ToolCall

__all__ = [
    "Answer",
    "AutoApprovePrompter",
    "DenyPrompter",
    "PromptRequest",
    "Prompter",
    "TerminalPrompter",
]

Answer = Literal["once", "always", "deny", "unavailable"]


class PromptRequest(msgspec.Struct, frozen=True, kw_only=True):
    """What a prompter shows: the call, what it will touch, and why it asks."""

    call: ToolCall
    reason: str
    rule: str | None = None
    prompt: str | None = None


class Prompter(Protocol):
    """Asks a person to allow a call."""

    async def ask(self, request: PromptRequest) -> Answer: ...


class AutoApprovePrompter:
    """Allows every asked call once (``--yes``)."""

    async def ask(self, request: PromptRequest) -> Answer:
        """Always ``"once"``."""
        return "once"


class DenyPrompter:
    """Nobody can be asked (no terminal, no ``--yes``): every asked call is denied."""

    async def ask(self, request: PromptRequest) -> Answer:
        """Always ``"unavailable"``."""
        return "unavailable"


def format_request(request: PromptRequest) -> str:
    """The text a terminal shows for *request*."""
    call = request.call
    lines = [f"{call.tool} wants to {call.summary}"]
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
    lines.append(f"Allow? [o]nce / [a]lways for {scope} this session / [d]eny: ")
    return "\n".join(lines)


class TerminalPrompter:
    """Asks on a terminal; anything but o/once or a/always denies."""

    def __init__(self, stdin: TextIO | None = None, stderr: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stderr = stderr or sys.stderr

    def _ask_blocking(self, text: str) -> Answer:
        self.stderr.write(text)
        self.stderr.flush()
        reply = self.stdin.readline().strip().lower()
        if reply in ("o", "once", "y", "yes"):
            return "once"
        if reply in ("a", "always"):
            return "always"
        return "deny"

    async def ask(self, request: PromptRequest) -> Answer:
        """Show the request and read one line (off the event loop)."""
        return await asyncio.to_thread(self._ask_blocking, format_request(request))
