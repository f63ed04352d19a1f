"""Asking the person behind an MCP client to allow a call (MCP elicitation).

The runtime asks its :class:`~insomnia_web.prompts.Prompter` when a call's permission is
``ask``. Over MCP the question becomes a form elicitation showing exactly what the call will
fetch, search or store, with three choices: allow once, always allow (this tool on these
domains, for the rest of the session), or deny.

- Handshake-era clients (protocol 2025-xx) get an ``elicitation/create`` request while the
  tool call waits.
- 2026-07-28 clients cannot receive server requests: the call first answers with an
  ``InputRequiredResult`` carrying the same form, and the client's retry brings the answer.
  The result's ``request_state`` seals the question to the call (tool, arguments, question
  text) and to this one asking: an answer is taken only from a retry that echoes the seal of
  that same call, once, so an answer nobody asked for, one sent back with other arguments,
  or one sent again, is asked again.
- A client that declared no elicitation capability cannot be asked: the call is refused with
  ``permission_denied``, whose hint names the rule to add to ``[permissions] allow``.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from mcp import types
from mcp.server.session import ServerSession

from ..prompts import Answer, PromptRequest
from ..textcheck import terminal_line, terminal_safe

__all__ = [
    "PERMISSION_INPUT_KEY",
    "CallScope",
    "ElicitationPrompter",
    "QuestionSeal",
    "answer_from",
    "can_elicit",
    "elicitation_form",
]

log = logging.getLogger(__name__)

PERMISSION_INPUT_KEY = "permission"
"""The key of the permission question in an ``InputRequiredResult``."""


@dataclass(frozen=True, kw_only=True)
class CallScope:
    """How the prompter can reach the person during one ``tools/call``."""

    session: ServerSession
    request_id: types.RequestId | None
    can_elicit: bool
    answer: Answer | None = None
    """An answer the client already gave (the retry of an ``InputRequiredResult``)."""


_scope: contextvars.ContextVar[CallScope | None] = contextvars.ContextVar(
    "insomnia_mcp_call_scope", default=None
)


def can_elicit(capabilities: types.ClientCapabilities | None) -> bool:
    """True if the client declared form elicitation (an empty ``elicitation`` means form)."""
    if capabilities is None or capabilities.elicitation is None:
        return False
    cap = capabilities.elicitation
    return cap.form is not None or cap.url is None


def elicitation_form(request: PromptRequest) -> tuple[str, dict[str, Any]]:
    """The message and requested schema that ask a person about *request*.

    The summary is one line, and the message shows line breaks there, bidi marks and
    terminal controls anywhere as escapes: a summary is often made of the model's input, and
    a client may show the message on a terminal.
    """
    call = request.call
    lines = [f"{call.tool} wants to {terminal_line(call.summary or 'run')}."]
    if call.hosts_unknown:
        lines.append("Hosts: unknown (it may contact any host)")
    elif call.domains:
        lines.append(f"Hosts: {', '.join(call.domains)}")
    if request.prompt:
        lines.append(request.prompt)
    lines.append(f"Why asked: {request.reason}")
    scope = ", ".join(call.domains) if call.domains else "any input"
    choices: list[dict[str, str]] = [{"const": "once", "title": "Allow once"}]
    if not call.hosts_unknown:  # "always" could not say for which hosts: never offered
        choices.append(
            {"const": "always", "title": f"Always allow {call.tool} for {scope} this session"}
        )
    choices.append({"const": "deny", "title": "Deny"})
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "decision": {"type": "string", "title": "Allow this call?", "oneOf": choices}
        },
        "required": ["decision"],
    }
    return terminal_safe("\n".join(lines)), schema


def answer_from(result: types.ElicitResult | None) -> Answer:
    """Map an elicitation result to an answer; anything but an accepted allow is a denial."""
    if result is None or result.action != "accept" or not result.content:
        return "deny"
    decision = result.content.get("decision")
    if decision == "once":
        return "once"
    if decision == "always":
        return "always"
    return "deny"


class ElicitationPrompter:
    """A :class:`~insomnia_web.prompts.Prompter` that asks through the current MCP client."""

    @staticmethod
    def scoped(scope: CallScope) -> contextvars.Token[CallScope | None]:
        """Make *scope* the way to ask during the current call (reset with :meth:`reset`)."""
        return _scope.set(scope)

    @staticmethod
    def reset(token: contextvars.Token[CallScope | None]) -> None:
        """Leave the scope entered with :meth:`scoped`."""
        _scope.reset(token)

    async def ask(self, request: PromptRequest) -> Answer:
        """The client's answer, or ``"unavailable"`` when there is no way to ask."""
        scope = _scope.get()
        if scope is None:
            return "unavailable"
        if scope.answer is not None:
            return scope.answer
        if not scope.can_elicit or not scope.session.can_send_request:
            return "unavailable"
        message, schema = elicitation_form(request)
        try:
            result = await scope.session.elicit_form(
                message, schema, related_request_id=scope.request_id
            )
        except Exception as exc:  # a client error or a malformed answer is a denial
            log.warning("elicitation failed (%s); denying %s", exc, request.call.tool)
            return "deny"
        return answer_from(result)


class QuestionSeal:
    """Seals a question sent in an ``InputRequiredResult`` to the call it asks about, once.

    The seal is a fresh random nonce and an HMAC, under a key of this server process, of the
    nonce, the tool, its arguments and the question's text; the client echoes it in
    ``request_state`` and cannot make one for another call. The nonce is spent by the retry
    that brings the answer: an "allow once" sent again with the same seal (a client that
    replays its retry) is not an answer, and the call is asked again. At most
    :data:`MAX_OPEN` questions wait for their answer; past that the oldest is forgotten (its
    answer, if it ever comes, is asked again).
    """

    MAX_OPEN = 256

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)
        self._open: dict[str, None] = {}

    def seal(self, tool: str, args: Mapping[str, Any], message: str) -> str:
        """A new ``request_state`` for the question *message* about *tool* with *args*."""
        nonce = secrets.token_hex(16)
        self._open[nonce] = None
        while len(self._open) > self.MAX_OPEN:
            del self._open[next(iter(self._open))]
        return f"{nonce}.{self._mac(nonce, tool, args, message)}"

    def take(self, state: object, tool: str, args: Mapping[str, Any], message: str) -> bool:
        """Whether a retry's ``request_state`` is an unspent seal of this very question
        (compared in constant time); a matching seal is spent."""
        if not isinstance(state, str):
            return False
        nonce, _, mac = state.partition(".")
        if nonce not in self._open:
            return False
        if not hmac.compare_digest(mac, self._mac(nonce, tool, args, message)):
            return False
        del self._open[nonce]
        return True

    def _mac(self, nonce: str, tool: str, args: Mapping[str, Any], message: str) -> str:
        body = msgspec.json.encode([nonce, tool, args, message], order="sorted")
        return hmac.new(self._key, body, hashlib.sha256).hexdigest()
