"""Which calls need a question before they run (asked up front on 2026-07-28 connections)."""

from __future__ import annotations

import pytest

from insomnia_web.config import Manifest, PermissionsConfig
from insomnia_web.prompts import Answer, PromptRequest
from insomnia_web.runtime import Runtime

from . import fixture_tools


class Always:
    """A prompter that answers "always" and counts the questions."""

    def __init__(self) -> None:
        self.asked = 0

    async def ask(self, request: PromptRequest) -> Answer:
        """Allow always."""
        self.asked += 1
        return "always"


def _runtime(allow: list[str] | None = None, prompter: Always | None = None) -> Runtime:
    manifest = Manifest(permissions=PermissionsConfig(default="ask", allow=allow or []))
    return Runtime(manifest, prompter=prompter, plugins=[fixture_tools], load_entrypoints=False)


def test_asked_call_yields_the_question() -> None:
    """A call the policy asks about yields the runtime's question, hosts and summary included."""
    request = _runtime().pending_prompt("EchoNote", {"text": "hi", "host": "a.example"})
    assert request is not None
    assert request.call.domains == ("a.example",)
    assert request.call.summary == "echo 'hi'"
    assert request.reason == "no rule matched; default is ask"


def test_allowed_call_needs_no_question() -> None:
    """A call an allow rule covers needs no question."""
    runtime = _runtime(allow=["EchoNote(domain:a.example)"])
    assert runtime.pending_prompt("EchoNote", {"text": "hi", "host": "a.example"}) is None


@pytest.mark.parametrize(
    "args",
    [{"text": ""}, {"text": "hi", "colour": "red"}, {"text": "unconfigured"}],
)
def test_calls_that_fail_before_the_prompt_need_no_question(args: dict[str, str]) -> None:
    """Invalid input and a failed preflight are reported without asking anyone."""
    assert _runtime().pending_prompt("EchoNote", args) is None


def test_unknown_tool_needs_no_question() -> None:
    """An unknown tool is an error, not a question."""
    assert _runtime().pending_prompt("NoSuchTool", {}) is None


@pytest.mark.asyncio
async def test_always_granted_host_needs_no_question() -> None:
    """After "always" for a host, calls to that host need no question; other hosts still do."""
    prompter = Always()
    runtime = _runtime(prompter=prompter)
    result = await runtime.call_tool("EchoNote", {"text": "hi", "host": "a.example"})
    assert result.ok
    assert prompter.asked == 1
    assert runtime.pending_prompt("EchoNote", {"text": "x", "host": "a.example"}) is None
    assert runtime.pending_prompt("EchoNote", {"text": "x", "host": "b.example"}) is not None


@pytest.mark.asyncio
async def test_always_granted_tool_needs_no_question() -> None:
    """After "always" for a call without hosts, the tool needs no question for such calls."""
    runtime = _runtime(prompter=Always())
    await runtime.call_tool("EchoNote", {"text": "hi"})
    assert runtime.pending_prompt("EchoNote", {"text": "again"}) is None
