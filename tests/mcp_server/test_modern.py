"""Permission prompts on a 2026-07-28 connection: asked through ``InputRequiredResult``.

A 2026-07-28 server may not send requests to the client, so the first ``tools/call``
answers with the question and the client's retry carries the person's answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from anyio.from_thread import BlockingPortal
from mcp import Client, types

from .conftest import (
    PAGE_TEXT,
    Connection,
    Elicitor,
    connect,
    error_of,
    server_params,
    text_of,
    write_manifest,
)

pytestmark = pytest.mark.usefixtures("fresh_script")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's folder: manifest, cache, history and the server's stderr."""
    return tmp_path_factory.mktemp("mcp_modern")


@pytest.fixture(scope="module")
def conn(
    portal: BlockingPortal, workdir: Path, site_port: int, elicitor: Elicitor
) -> Iterator[Connection]:
    """The real server, every call asked; a high-level Client negotiating the newest era."""
    manifest = write_manifest(workdir, site_port, allow=["WebSearch"])
    params = server_params(manifest)
    with connect(portal, params, workdir / "stderr.txt", elicitation=elicitor, modern=True) as c:
        yield c


def test_connection_is_2026_era(conn: Connection) -> None:
    """The client negotiated 2026-07-28, where servers cannot send requests."""
    assert conn.protocol_version == "2026-07-28"


def test_server_identity_reaches_a_2026_client(conn: Connection) -> None:
    """The server's name travels in the discover result too."""
    assert conn.server_info is not None
    assert conn.server_info.name == "insomnia-web"


def test_lists_three_tools_with_output_schemas(conn: Connection) -> None:
    """A 2026 client sees the same three tools, each with an output schema."""
    tools = conn.list_tools()
    assert sorted(t.name for t in tools) == ["save_finding", "web_fetch", "web_search"]
    assert all(t.output_schema for t in tools)


def test_accepting_lets_the_call_proceed(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """Accepting the question (carried by InputRequiredResult) runs the fetch."""
    elicitor.will("once")
    url = f"http://modern.test:{site_port}/page"
    result = conn.call("web_fetch", {"url": url})
    assert result.is_error is False, text_of(result)
    assert PAGE_TEXT in text_of(result)
    (asked,) = elicitor.asked
    assert url in asked.message


def test_declining_is_permission_denied(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """Declining refuses the call with permission_denied."""
    elicitor.answers.append(types.ElicitResult(action="decline"))
    result = conn.call("web_fetch", {"url": f"http://decline.test:{site_port}/page"})
    assert result.is_error is True
    assert error_of(result)["code"] == "permission_denied"
    assert len(elicitor.asked) == 1


def test_always_is_remembered_across_calls(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """ "always" granted through a retry holds for the next calls to that host."""
    elicitor.will("always")
    first = conn.call("web_fetch", {"url": f"http://always.test:{site_port}/page"})
    second = conn.call("web_fetch", {"url": f"http://always.test:{site_port}/page?2"})
    assert first.is_error is False, text_of(first)
    assert second.is_error is False, text_of(second)
    assert len(elicitor.asked) == 1


def test_allowed_calls_are_not_asked(conn: Connection, elicitor: Elicitor, site_port: int) -> None:
    """A call an allow rule covers runs at once, with a schema-valid result."""
    result = conn.call("web_search", {"query": "loopback", "mode": "results"})
    assert result.is_error is False, text_of(result)
    (listed,) = [t for t in conn.list_tools() if t.name == "web_search"]
    jsonschema.validate(result.structured_content, listed.output_schema or {})
    assert elicitor.asked == []


def test_invalid_input_is_reported_without_asking(conn: Connection, elicitor: Elicitor) -> None:
    """Invalid input needs no permission: invalid_input comes back directly."""
    result = conn.call("web_fetch", {"url": "ftp://site.test/", "max_chars": -1})
    assert result.is_error is True
    assert error_of(result)["code"] == "invalid_input"
    assert elicitor.asked == []


def call_with_answer(
    conn: Connection, name: str, args: dict[str, Any], decision: str, state: str | None = None
) -> types.CallToolResult:
    """``tools/call`` sent with an answer the server did not ask for (a forged retry)."""
    answer = types.ElicitResult(action="accept", content={"decision": decision})
    result = conn.portal.call(
        partial(
            conn.client.call_tool,
            name,
            args,
            input_responses={"permission": answer},
            request_state=state,
        )
    )
    assert isinstance(result, types.CallToolResult)
    return result


def test_an_answer_nobody_was_asked_for_is_not_taken(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """A call that arrives with an "always" answer before any question is still asked."""
    elicitor.answers.append(types.ElicitResult(action="decline"))
    url = f"http://forged.test:{site_port}/page"
    result = call_with_answer(conn, "web_fetch", {"url": url}, "always")
    assert error_of(result)["code"] == "permission_denied"
    (asked,) = elicitor.asked
    assert url in asked.message


def test_an_answer_holds_only_for_the_call_it_was_asked_about(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """The answer to a question about one URL, sent back with another URL, is not taken."""
    client = conn.client
    assert isinstance(client, Client)

    async def ask_only() -> object:
        url = f"http://once.test:{site_port}/page"
        return await client.session.call_tool("web_fetch", {"url": url}, allow_input_required=True)

    first = conn.portal.call(ask_only)
    assert isinstance(first, types.InputRequiredResult)
    elicitor.answers.append(types.ElicitResult(action="decline"))
    swapped = {"url": f"http://swapped.test:{site_port}/page"}
    result = call_with_answer(conn, "web_fetch", swapped, "once", first.request_state)
    assert error_of(result)["code"] == "permission_denied"
    (asked,) = elicitor.asked
    assert "swapped.test" in asked.message


def test_an_allow_once_answer_is_taken_once(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """The retry carrying "allow once" runs the call; the same answer sent again (a client
    replaying its retry) is not taken for the next identical call, which is asked again."""
    client = conn.client
    assert isinstance(client, Client)
    url = f"http://replay.test:{site_port}/page"

    async def ask_only() -> object:
        return await client.session.call_tool("web_fetch", {"url": url}, allow_input_required=True)

    first = conn.portal.call(ask_only)
    assert isinstance(first, types.InputRequiredResult)
    allowed = call_with_answer(conn, "web_fetch", {"url": url}, "once", first.request_state)
    assert allowed.is_error is False, text_of(allowed)
    assert elicitor.asked == []
    elicitor.answers.append(types.ElicitResult(action="decline"))
    replayed = call_with_answer(conn, "web_fetch", {"url": url}, "once", first.request_state)
    assert error_of(replayed)["code"] == "permission_denied"
    (asked,) = elicitor.asked
    assert url in asked.message
