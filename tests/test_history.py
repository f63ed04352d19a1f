"""History events: JSONL round trip and sinks."""

from __future__ import annotations

from pathlib import Path

from insomnia_web.errors import ToolError
from insomnia_web.history import (
    Event,
    JsonlHistory,
    MemoryHistory,
    MultiHistory,
    PermissionEvent,
    ProgressEvent,
    ToolCallEvent,
    ToolResultEvent,
    decode_event,
)


def test_jsonl_round_trip(tmp_path: Path) -> None:
    """Every event kind written as JSONL decodes back to an equal event."""
    sink = JsonlHistory(tmp_path / "sub" / "history.jsonl")
    written: list[Event] = [
        ToolCallEvent(call_id="c", tool="WebFetch", input={"url": "https://a.example/"}),
        PermissionEvent(call_id="c", decision="allow", by="rule", rule="WebFetch"),
        ProgressEvent(call_id="c", message="fetched", done=1, total=2),
        ToolResultEvent(call_id="c", ok=False, error=ToolError("timeout", "slow").info()),
    ]
    for event in written:
        sink.append(event)
    lines = sink.path.read_bytes().splitlines()
    assert [decode_event(line) for line in lines] == written
    assert b'"type":"tool_call"' in lines[0]


def test_multi_history_fans_out() -> None:
    """MultiHistory sends each event to every sink; of_call filters by call id."""
    a, b = MemoryHistory(), MemoryHistory()
    multi = MultiHistory(a, b)
    multi.append(ProgressEvent(call_id="x", message="m"))
    multi.append(ProgressEvent(call_id="y", message="n"))
    assert a.events == b.events
    assert len(a.events) == 2
    assert [e.call_id for e in a.of_call("y")] == ["y"]
