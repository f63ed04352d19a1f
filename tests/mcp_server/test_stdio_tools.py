"""``insomnia-web mcp`` over stdio, seen by the SDK's own client (no elicitation support)."""

from __future__ import annotations

import importlib.metadata
import json
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import jsonschema
import pytest
from anyio.from_thread import BlockingPortal
from mcp import StdioServerParameters, types

from insomnia_web.config import load_manifest
from insomnia_web.history import ToolCallEvent, ToolResultEvent, decode_event
from insomnia_web.mcp_server.listing import ERROR_META_KEY
from insomnia_web.runtime import Runtime

from .conftest import (
    PAGE_TEXT,
    Connection,
    connect,
    error_of,
    server_params,
    text_of,
    write_manifest,
)

EXPECTED = {"web_search": "WebSearch", "web_fetch": "WebFetch", "save_finding": "SaveFinding"}
ALLOW = ["WebSearch", "SaveFinding", "WebFetch(domain:site.test)", "WebFetch(domain:blocked.test)"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's folder: manifest, cache, history and the server's stderr."""
    return tmp_path_factory.mktemp("mcp_tools")


@pytest.fixture(scope="module")
def manifest_path(workdir: Path, site_port: int) -> Path:
    """A manifest allowing the loopback hosts; every other fetch is asked (and refused)."""
    return write_manifest(workdir, site_port, allow=ALLOW)


@pytest.fixture(scope="module")
def conn(portal: BlockingPortal, manifest_path: Path, workdir: Path) -> Iterator[Connection]:
    """One server process and one handshake-era client for the whole module."""
    with connect(portal, server_params(manifest_path), workdir / "stderr.txt") as c:
        yield c


@pytest.fixture(scope="module")
def tools(conn: Connection) -> dict[str, types.Tool]:
    """The listed tools by name."""
    return {t.name: t for t in conn.list_tools()}


@pytest.fixture(scope="module")
def runtime(manifest_path: Path) -> Runtime:
    """A runtime on the same manifest, to compare listings with (never called)."""
    return Runtime(load_manifest(manifest_path), load_entrypoints=False)


def structured(result: types.CallToolResult) -> dict[str, Any]:
    """The structured content of a result, as a dict."""
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def test_server_declares_name_title_and_version(conn: Connection) -> None:
    """The server introduces itself as insomnia-web with the installed package version."""
    info = conn.server_info
    assert info is not None
    assert info.name == "insomnia-web"
    assert info.version == importlib.metadata.version("insomnia-web")
    assert info.title


def test_server_sends_instructions_naming_its_tools(conn: Connection) -> None:
    """The handshake carries instructions that name the MCP tools and the untrusted text rule."""
    assert conn.instructions
    for name in EXPECTED:
        assert name in conn.instructions
    for runtime_name in EXPECTED.values():
        assert runtime_name not in conn.instructions
    assert "UNTRUSTED WEB CONTENT" in conn.instructions


def test_lists_exactly_the_three_web_tools(tools: dict[str, types.Tool]) -> None:
    """The tool list holds web_search, web_fetch and save_finding, nothing else."""
    assert set(tools) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_listing_carries_the_runtime_schemas(
    tools: dict[str, types.Tool], runtime: Runtime, name: str
) -> None:
    """Schemas and title are the tool's own; the description names the MCP tools."""
    tool = runtime.get_tool(EXPECTED[name])
    listed = tools[name]
    assert listed.input_schema == tool.input_schema()
    assert listed.output_schema == tool.output_schema()
    jsonschema.Draft202012Validator.check_schema(listed.input_schema)
    jsonschema.Draft202012Validator.check_schema(listed.output_schema)
    assert listed.title == tool.title
    renamed = {runtime_name: public for public, runtime_name in EXPECTED.items()}
    expected = tool.description()
    for runtime_name, public in renamed.items():
        expected = expected.replace(runtime_name, public)
    assert listed.description == expected
    assert listed.description is not None
    assert not any(runtime_name in listed.description for runtime_name in renamed)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_annotations_match_the_tool(
    tools: dict[str, types.Tool], runtime: Runtime, name: str
) -> None:
    """readOnly, destructive, idempotent and openWorld hints come from tool.annotations."""
    hints = runtime.get_tool(EXPECTED[name]).annotations
    listed = tools[name].annotations
    assert listed is not None
    assert listed.read_only_hint is hints.read_only
    assert listed.destructive_hint is hints.destructive
    assert listed.idempotent_hint is hints.idempotent
    assert listed.open_world_hint is hints.open_world


def test_save_finding_is_the_only_writer(tools: dict[str, types.Tool]) -> None:
    """Only save_finding writes; the fetch and search tools reach the open web."""
    hints = {name: t.annotations for name, t in tools.items()}
    assert hints["save_finding"] is not None
    assert hints["save_finding"].read_only_hint is False
    assert hints["web_fetch"] is not None
    assert hints["web_fetch"].open_world_hint is True


def test_web_fetch_returns_schema_valid_structured_content(
    conn: Connection, tools: dict[str, types.Tool], site_port: int
) -> None:
    """Fetching the loopback page gives its text and output that matches the schema."""
    url = f"http://site.test:{site_port}/page"
    result = conn.call("web_fetch", {"url": url})
    assert result.is_error is False, text_of(result)
    out = structured(result)
    jsonschema.validate(out, tools["web_fetch"].output_schema or {})
    assert out["status"] == 200
    assert PAGE_TEXT in out["text"]
    assert PAGE_TEXT in text_of(result)


def test_web_search_returns_schema_valid_structured_content(
    conn: Connection, tools: dict[str, types.Tool], site_port: int
) -> None:
    """A results-mode search against the loopback SearXNG matches the output schema."""
    result = conn.call("web_search", {"query": "loopback page", "mode": "results"})
    assert result.is_error is False, text_of(result)
    out = structured(result)
    jsonschema.validate(out, tools["web_search"].output_schema or {})
    assert [r["url"] for r in out["results"]] == [f"http://site.test:{site_port}/page"]


def test_save_finding_returns_schema_valid_structured_content(
    conn: Connection, tools: dict[str, types.Tool]
) -> None:
    """Saving a finding returns its id, unverified, matching the output schema."""
    args = {"query": "what do loopback pages do", "content": "They answer quickly."}
    result = conn.call("save_finding", args)
    assert result.is_error is False, text_of(result)
    out = structured(result)
    jsonschema.validate(out, tools["save_finding"].output_schema or {})
    assert out["verified"] is False


def test_invalid_input_is_an_error_result_naming_the_field(conn: Connection) -> None:
    """A count out of range is an isError result with invalid_input naming $.count."""
    result = conn.call("web_search", {"query": "x", "count": 99})
    error = error_of(result)
    assert error["code"] == "invalid_input"
    assert "$.count" in error["message"]
    assert error["hint"]


def test_error_text_is_the_runtime_rendering(conn: Connection) -> None:
    """The text of an error result starts with the code and carries the hint."""
    result = conn.call("web_search", {"query": "x", "count": 99})
    error = error_of(result)
    text = text_of(result)
    assert text.startswith("Error [invalid_input]: ")
    assert f"Hint: {error['hint']}" in text


def test_error_payload_has_every_field(conn: Connection) -> None:
    """The structured error carries code, message, hint, retryable and retry_after_s."""
    error = error_of(conn.call("web_search", {"query": "x", "count": 99}))
    assert {"code", "message", "hint", "retryable", "retry_after_s"} <= set(error)
    assert error["retryable"] is False


def test_blocked_address_is_an_error_result(conn: Connection) -> None:
    """A host resolving to a private address is refused with blocked_address and a hint."""
    result = conn.call("web_fetch", {"url": "http://blocked.test/"})
    error = error_of(result)
    assert error["code"] == "blocked_address"
    assert "do not retry" in error["hint"]


def test_ask_without_elicitation_is_permission_denied(conn: Connection) -> None:
    """A client that cannot be asked gets permission_denied naming the rule to add, in the
    hint and, for the client to show its user, as the remedy (which the text leaves out)."""
    result = conn.call("web_fetch", {"url": "https://example.com/"})
    error = error_of(result)
    assert error["code"] == "permission_denied"
    assert "WebFetch(domain:example.com)" in error["hint"]
    assert "[permissions] allow" in error["hint"]
    remedy = "Add WebFetch(domain:example.com) to [permissions] allow in the manifest."
    assert error["remedy"] == remedy
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert remedy not in text.text


def test_unknown_tool_is_an_error_result(conn: Connection) -> None:
    """Calling a tool that is not listed is an invalid_input error listing the real names."""
    result = conn.call("WebFetch", {"url": "http://site.test/"})
    error = error_of(result)
    assert error["code"] == "invalid_input"
    assert "web_fetch" in error["message"]


def test_history_is_written_as_jsonl(conn: Connection, workdir: Path) -> None:
    """Calls over MCP land in the manifest's JSONL history, a tool_result for each call."""
    conn.call("web_search", {"query": "x", "count": 99})
    lines = (workdir / "history.jsonl").read_bytes().splitlines()
    events = [decode_event(line) for line in lines]
    calls = [e for e in events if isinstance(e, ToolCallEvent)]
    results = [e for e in events if isinstance(e, ToolResultEvent)]
    assert calls[-1].tool == "WebSearch"
    assert calls[-1].input == {"query": "x", "count": 99}
    assert {e.call_id for e in calls} == {e.call_id for e in results}


_INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
)
_INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})


def _raw_call(params: StdioServerParameters, call: str) -> dict[str, Any]:
    """Send the JSON-RPC request *call* (id 2) as written (escapes and all), after the
    handshake, and return its reply.

    The rest is sent once ``initialize`` is answered, as a client does, so a slow start
    cannot reorder the handshake."""
    proc = subprocess.Popen(
        [params.command, *params.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=params.env,
        cwd=params.cwd,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    deadline = time.monotonic() + 120  # generous: a loaded machine starts slowly
    try:
        proc.stdin.write((_INITIALIZE + "\n").encode())
        proc.stdin.flush()
        _reply(proc.stdout, 1, deadline)
        proc.stdin.write(f"{_INITIALIZED}\n{call}\n".encode())
        proc.stdin.flush()
        return _reply(proc.stdout, 2, deadline)
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()


def _reply(stdout: IO[bytes], want_id: int, deadline: float) -> dict[str, Any]:
    """The next message on *stdout* answering request *want_id* (others are skipped)."""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = stdout.readline()
        if not line:
            break
        message = json.loads(line)
        if message.get("id") == want_id:
            return dict(message)
    raise AssertionError(f"no reply to request {want_id}")


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("web_search", '{"query": "tortoise \\ud800 facts"}', "$.query"),
        ("web_fetch", '{"url": "http://site.test/\\udfff"}', "$.url"),
    ],
)
def test_lone_surrogate_gets_an_invalid_input_reply(
    manifest_path: Path, tool: str, arguments: str, field: str
) -> None:
    """A lone surrogate escaped in a tools/call argument gets a reply: invalid_input
    naming the field (the reply itself is valid JSON)."""
    call = (
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": '
        f'{{"name": "{tool}", "arguments": {arguments}}}}}'
    )
    reply = _raw_call(server_params(manifest_path), call)
    result = reply["result"]
    assert result["isError"] is True
    error = result["_meta"][ERROR_META_KEY]
    assert error["code"] == "invalid_input"
    assert error["details"]["field"] == field


def test_an_integer_too_long_to_parse_gets_an_invalid_input_reply(manifest_path: Path) -> None:
    """A tools/call whose argument is a 5000-digit integer gets a reply: invalid_input
    naming the field (the SDK's parser refuses the line)."""
    huge = "1" + "0" * 5000
    call = (
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "web_fetch", '
        f'"arguments": {{"url": "http://site.test/", "start_index": {huge}}}}}}}'
    )
    reply = _raw_call(server_params(manifest_path), call)
    error = reply["result"]["_meta"][ERROR_META_KEY]
    assert error["code"] == "invalid_input"
    assert error["details"]["field"] == "$.start_index"
