"""The end of a call that does not finish: cancelled, interrupted, or broken from inside.

Every call leaves exactly one terminal ``tool_result`` event, written before a cancellation
propagates; a cancellation that was not asked of the caller's task never escapes
:meth:`Runtime.call_tool`.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest

from insomnia_web import (
    Manifest,
    MemoryHistory,
    PromptRequest,
    Runtime,
    Tool,
    ToolContext,
    ToolOutput,
    hookimpl,
    parse_manifest,
)
from insomnia_web.history import ToolResultEvent, decode_event
from insomnia_web.prompts import Answer
from insomnia_web.tools.base import CallSubject, ToolAnnotations


class WaitIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """What the fixture tool does."""

    how: str = "hang"


class WaitOut(msgspec.Struct, kw_only=True):
    """Never produced by the cases here."""

    text: str


class Halt(BaseException):
    """A plugin's exception that is not an ``Exception`` (a bug, not a stop request)."""


class WaitTool(Tool[WaitIn, WaitOut]):
    """A tool that hangs, raises ``KeyboardInterrupt`` or awaits a cancelled future."""

    name: ClassVar[str] = "Wait"
    input_type = WaitIn
    output_type = WaitOut
    annotations = ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=False
    )
    started: asyncio.Event | None = None

    def description(self) -> str:
        return "Wait."

    def subject(self, args: WaitIn, ctx: ToolContext) -> CallSubject:
        return CallSubject(domains=("wait.example",), summary=f"wait ({args.how})")

    async def run(self, args: WaitIn, ctx: ToolContext) -> ToolOutput[WaitOut]:
        if WaitTool.started is not None:
            WaitTool.started.set()
        if args.how == "interrupt":
            raise KeyboardInterrupt
        if args.how == "halt":  # a plugin's own BaseException subclass
            raise Halt("stop everything")
        if args.how == "broken":  # a future cancelled by someone else, e.g. a pool shut down
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            future.cancel()
            await future
        await asyncio.sleep(3600)
        raise AssertionError("not reached")


class WaitPlugin:
    """Registers WaitTool."""

    __name__ = "wait-plugin"

    @hookimpl
    def register_tools(self, register: Callable[[Tool[Any, Any]], None]) -> None:
        register(WaitTool(Manifest()))


class HangingPrompter:
    """A person who never answers."""

    async def ask(self, request: PromptRequest) -> Answer:
        await asyncio.sleep(3600)
        return "deny"


def make_runtime(permissions: dict[str, Any], prompter: Any = None) -> Runtime:
    return Runtime(
        parse_manifest({"permissions": permissions}),
        prompter=prompter,
        plugins=[WaitPlugin()],
        load_entrypoints=False,
        history=MemoryHistory(),
    )


def terminal_events(runtime: Runtime, call_id: str) -> list[ToolResultEvent]:
    assert isinstance(runtime.history, MemoryHistory)
    return [e for e in runtime.history.of_call(call_id) if isinstance(e, ToolResultEvent)]


def assert_cancelled(runtime: Runtime, call_id: str) -> ToolResultEvent:
    ends = terminal_events(runtime, call_id)
    assert len(ends) == 1, ends
    end = ends[0]
    assert not end.ok
    assert end.error is not None
    assert end.error.code == "cancelled"
    assert end.error.retryable
    return end


@pytest.mark.asyncio
async def test_host_timeout_around_call_tool_leaves_one_cancelled_result() -> None:
    """A host's ``asyncio.timeout`` around ``call_tool`` ends the history with ``cancelled``."""
    runtime = make_runtime({"allow": ["Wait"]})
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await runtime.call_tool("Wait", {}, call_id="c1")
    end = assert_cancelled(runtime, "c1")
    assert end.duration_ms >= 40


@pytest.mark.asyncio
async def test_cancelled_task_records_before_the_cancellation_propagates() -> None:
    """Cancelling the caller's task writes the terminal event, then re-raises CancelledError."""
    runtime = make_runtime({"allow": ["Wait"]})
    WaitTool.started = asyncio.Event()
    try:
        task = asyncio.create_task(runtime.call_tool("Wait", {}, call_id="c2"))
        await WaitTool.started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        WaitTool.started = None
    assert_cancelled(runtime, "c2")


@pytest.mark.asyncio
async def test_cancelled_while_the_person_is_asked() -> None:
    """A call cancelled while its prompt is open still closes its history once."""
    runtime = make_runtime({"default": "ask"}, prompter=HangingPrompter())
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await runtime.call_tool("Wait", {}, call_id="c3")
    assert_cancelled(runtime, "c3")


@pytest.mark.asyncio
async def test_keyboard_interrupt_is_recorded_and_propagates() -> None:
    """Ctrl-C inside a tool is recorded as ``cancelled`` and still reaches the host."""
    runtime = make_runtime({"allow": ["Wait"]})
    with pytest.raises(KeyboardInterrupt):
        await runtime.call_tool("Wait", {"how": "interrupt"}, call_id="c4")
    end = assert_cancelled(runtime, "c4")
    assert "interrupted" in end.error.message if end.error else False


@pytest.mark.asyncio
async def test_a_cancellation_nobody_asked_for_does_not_escape() -> None:
    """A cancelled future inside a tool, with the caller not cancelled, is a retryable result."""
    runtime = make_runtime({"allow": ["Wait"]})
    result = await runtime.call_tool("Wait", {"how": "broken"}, call_id="c5")
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "internal_error"
    assert result.error.retryable
    ends = terminal_events(runtime, "c5")
    assert len(ends) == 1
    assert ends[0].error == result.error


@pytest.mark.asyncio
async def test_a_plugins_own_base_exception_is_a_failed_call() -> None:
    """A ``BaseException`` subclass that is not Ctrl-C, ``SystemExit`` or a cancellation is
    a tool bug: the call fails with internal_error and the agent loop goes on."""
    runtime = make_runtime({"allow": ["Wait"]})
    result = await runtime.call_tool("Wait", {"how": "halt"}, call_id="c6")
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "internal_error"
    assert len(terminal_events(runtime, "c6")) == 1


_CTRL_C = """
import asyncio, os, signal, sys
from tests.test_runtime_cancel import make_runtime
from insomnia_web.history import JsonlHistory

runtime = make_runtime({"allow": ["Wait"]})
runtime.history = JsonlHistory(sys.argv[1])

async def main():
    asyncio.get_running_loop().call_later(0.2, os.kill, os.getpid(), signal.SIGINT)
    await runtime.call_tool("Wait", {}, call_id="c6")

try:
    asyncio.run(main())
except KeyboardInterrupt:
    sys.exit(3)
"""


def test_ctrl_c_under_asyncio_run_closes_the_history(tmp_path: Path) -> None:
    """Ctrl-C under ``asyncio.run`` leaves one ``cancelled`` event, then stops the program."""
    path = tmp_path / "history.jsonl"
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-c", _CTRL_C, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=root,
    )
    assert proc.returncode == 3, proc.stderr[-2000:]
    events = [decode_event(line) for line in path.read_bytes().splitlines()]
    ends = [e for e in events if isinstance(e, ToolResultEvent)]
    assert len(ends) == 1
    assert ends[0].error is not None
    assert ends[0].error.code == "cancelled"
