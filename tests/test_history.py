"""History events: JSONL round trip and sinks."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import msgspec
import pytest

import insomnia_web
from insomnia_web import history
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


EVENTS: list[Event] = [
    ToolCallEvent(call_id="c", tool="WebFetch", input={"url": "https://a.example/"}),
    PermissionEvent(call_id="c", decision="allow", by="rule", rule="WebFetch"),
    ProgressEvent(call_id="c", message="fetched", done=1, total=2),
    ToolResultEvent(call_id="c", ok=True, text="page"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda event: type(event).__name__)
def test_an_events_type_is_the_tag_its_json_carries(event: Event) -> None:
    """``event.type`` (also on the class) is the ``type`` its JSON line carries, read without
    encoding it."""
    assert event.type == type(event).type == msgspec.json.decode(msgspec.json.encode(event))["type"]
    assert event.type == type(event).__struct_config__.tag


def test_the_event_types_are_public() -> None:
    """The event Structs, their union and ``decode_event`` are exported by ``insomnia_web``."""
    for name in history.__all__:
        if name.endswith("Event") or name in {"Event", "decode_event"}:
            assert getattr(insomnia_web, name) is getattr(history, name), name
            assert name in insomnia_web.__all__, name


def test_multi_history_fans_out() -> None:
    """MultiHistory sends each event to every sink; of_call filters by call id."""
    a, b = MemoryHistory(), MemoryHistory()
    multi = MultiHistory(a, b)
    multi.append(ProgressEvent(call_id="x", message="m"))
    multi.append(ProgressEvent(call_id="y", message="n"))
    assert a.events == b.events
    assert len(a.events) == 2
    assert [e.call_id for e in a.of_call("y")] == ["y"]


def _page_result(call_id: str, page: str) -> ToolResultEvent:
    """A WebFetch-like result: the page in the output and again in the rendered text."""
    return ToolResultEvent(
        call_id=call_id,
        ok=True,
        output={"url": "https://a.example/", "text": page, "warnings": ["short note"]},
        text=f"URL: https://a.example/\n<<<BEGIN>>>\n{page}\n<<<END>>>",
    )


def test_jsonl_stores_a_pages_text_once(tmp_path: Path) -> None:
    """The page text the output repeats is written once, and decodes back in place."""
    page = "Tea is brewed from leaves. " * 40
    event = _page_result("c", page)
    sink = JsonlHistory(tmp_path / "history.jsonl")
    sink.append(event)
    raw = sink.path.read_text()
    assert raw.count("Tea is brewed from leaves.") == 40
    assert '"$in_text"' in raw
    assert decode_event(raw.strip()) == event


def test_short_or_unrepeated_output_strings_are_kept_inline(tmp_path: Path) -> None:
    """Short strings, and long ones the text does not contain, are written as they are."""
    other = "x" * 300
    event = ToolResultEvent(
        call_id="c", ok=True, output={"text": other, "title": "Tea"}, text="Title: Tea"
    )
    sink = JsonlHistory(tmp_path / "history.jsonl")
    sink.append(event)
    raw = sink.path.read_text()
    assert other in raw
    assert '"$in_text"' not in raw
    assert decode_event(raw.strip()) == event


def test_history_rotates_at_its_size_cap(tmp_path: Path) -> None:
    """Past max_bytes the file moves to .1 (then .2 ...); backups beyond the count go."""
    path = tmp_path / "history.jsonl"
    sink = JsonlHistory(path, max_bytes=1000, backups=2)
    events = [
        ProgressEvent(call_id=f"c{i}", message="fetched page " + "p" * 100) for i in range(40)
    ]
    for event in events:
        sink.append(event)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["history.jsonl", "history.jsonl.1", "history.jsonl.2"]
    for name in files:
        assert (tmp_path / name).stat().st_size <= 1000
    kept = [
        decode_event(line)
        for name in ("history.jsonl.2", "history.jsonl.1", "history.jsonl")
        for line in (tmp_path / name).read_bytes().splitlines()
    ]
    assert kept == events[-len(kept) :]
    assert kept[-1] == events[-1]


def test_a_line_larger_than_the_cap_is_still_written(tmp_path: Path) -> None:
    """One event bigger than the cap goes whole into a fresh file; nothing is cut."""
    path = tmp_path / "history.jsonl"
    sink = JsonlHistory(path, max_bytes=100, backups=1)
    small = ProgressEvent(call_id="a", message="hi")
    big = ProgressEvent(call_id="b", message="m" * 500)
    sink.append(small)
    sink.append(big)
    assert decode_event(path.read_bytes().strip()) == big
    assert decode_event((tmp_path / "history.jsonl.1").read_bytes().strip()) == small


def test_the_manifest_sets_the_cap(tmp_path: Path) -> None:
    """web.history_max_mb and web.history_backups configure the runtime's JSONL sink."""
    from insomnia_web import Runtime, parse_manifest

    manifest = parse_manifest(
        {
            "web": {
                "history_path": str(tmp_path / "h.jsonl"),
                "history_max_mb": 0.5,
                "history_backups": 7,
            }
        }
    )
    runtime = Runtime(manifest, load_entrypoints=False)
    assert isinstance(runtime.history, MultiHistory)
    jsonl = runtime.history.sinks[-1]
    assert isinstance(jsonl, JsonlHistory)
    assert (jsonl.max_bytes, jsonl.backups) == (512 * 1024, 7)


def test_history_files_are_private_to_their_owner(tmp_path: Path) -> None:
    """A history file (and each rotated one) is created readable by its owner only, and a
    folder made for it is private too, whatever the umask."""
    old = os.umask(0o022)
    try:
        sink = JsonlHistory(tmp_path / "made" / "history.jsonl", max_bytes=300, backups=1)
        for i in range(6):
            sink.append(ToolCallEvent(call_id=f"c{i}", tool="WebSearch", input={"query": "q" * 99}))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "made").stat().st_mode) == 0o700
    for name in ("history.jsonl", "history.jsonl.1"):
        assert stat.S_IMODE((tmp_path / "made" / name).stat().st_mode) == 0o600


def test_a_history_file_every_user_may_write_is_refused(tmp_path: Path) -> None:
    """A history file that every user may write (one someone else planted in a shared
    folder, or a link to one) is a problem at start-up, and no event is appended to it:
    every query, URL and page read went to a file others could read and rewrite."""
    planted = tmp_path / "history.jsonl"
    planted.touch()
    planted.chmod(0o666)
    link = tmp_path / "link.jsonl"
    link.symlink_to(planted)
    for path in (planted, link):
        sink = JsonlHistory(path)
        assert "every user" in (sink.problem() or "")
        with pytest.raises(PermissionError, match="every user"):
            sink.append(ToolCallEvent(call_id="c", tool="WebSearch", input={"query": "q"}))
    assert planted.read_bytes() == b""


def test_a_link_another_user_made_at_the_history_path_is_refused(tmp_path: Path) -> None:
    """A link another user put at the history path is not followed: history lines, web
    text among them, were appended to the file of the user's own that it names."""
    if os.geteuid() != 0:
        pytest.skip("giving a link to another user needs root")
    target = tmp_path / ".bashrc"
    target.write_bytes(b"")
    link = tmp_path / "history.jsonl"
    link.symlink_to(target)
    os.lchown(link, 4242, -1)
    sink = JsonlHistory(link)
    assert "link made by another user" in (sink.problem() or "")
    with pytest.raises(PermissionError, match="link made by another user"):
        sink.append(ToolCallEvent(call_id="c", tool="WebSearch", input={"query": "q"}))
    assert target.read_bytes() == b""


def test_a_history_folder_every_user_may_write_in_is_refused(tmp_path: Path) -> None:
    """A history file is not made or appended to in a folder every user may write in: one of
    them could move it away between the check and the write and put a link in its place."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    sink = JsonlHistory(shared / "history.jsonl")
    assert f"{shared} every user may write in it" in (sink.problem() or "")
    with pytest.raises(PermissionError, match="every user may write in it"):
        sink.append(ToolCallEvent(call_id="c", tool="WebSearch", input={"query": "q"}))
    assert list(shared.iterdir()) == []
    later = JsonlHistory(shared / "made" / "history.jsonl")
    assert f"{shared} every user may write in it" in (later.problem() or "")
