"""Permission prompts as MCP elicitations, on a handshake-era connection.

The server also runs the fixture plugin, so a tool from another plugin is listed and called
under its snake_case name.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import jsonschema
import pytest
from anyio.from_thread import BlockingPortal
from mcp import types

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
    return tmp_path_factory.mktemp("mcp_elicit")


@pytest.fixture(scope="module")
def conn(
    portal: BlockingPortal, workdir: Path, site_port: int, elicitor: Elicitor
) -> Iterator[Connection]:
    """A server with the fixture plugin, every call asked; a client that can elicit."""
    manifest = write_manifest(workdir, site_port, allow=[])
    params = server_params(manifest, fixture_tools=True)
    with connect(portal, params, workdir / "stderr.txt", elicitation=elicitor) as c:
        yield c


def test_connection_is_handshake_era(conn: Connection) -> None:
    """This module covers server-to-client elicitation requests (protocol 2025-11-25)."""
    assert conn.protocol_version == "2025-11-25"


def test_plugin_tool_is_listed_in_snake_case(conn: Connection) -> None:
    """A plugin's EchoNote is listed as echo_note next to the three web tools."""
    names = {t.name for t in conn.list_tools()}
    assert names == {"web_search", "web_fetch", "save_finding", "echo_note"}


def test_accepting_once_lets_the_call_proceed(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """Answering "once" runs the fetch and returns the page."""
    elicitor.will("once")
    result = conn.call("web_fetch", {"url": f"http://once.test:{site_port}/page"})
    assert result.is_error is False, text_of(result)
    assert PAGE_TEXT in text_of(result)


def test_question_shows_what_will_be_fetched(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """The elicitation names the exact URL and host, and offers once, always and deny."""
    url = f"http://once.test:{site_port}/page"
    elicitor.will("once")
    conn.call("web_fetch", {"url": url})
    (asked,) = elicitor.asked
    assert url in asked.message
    assert "once.test" in asked.message
    decision = asked.requested_schema["properties"]["decision"]
    assert [o["const"] for o in decision["oneOf"]] == ["once", "always", "deny"]


def test_once_asks_again_next_time(conn: Connection, elicitor: Elicitor, site_port: int) -> None:
    """An answer of "once" is not remembered: the next call asks again."""
    elicitor.will("once")
    elicitor.will("once")
    conn.call("web_fetch", {"url": f"http://once.test:{site_port}/page"})
    conn.call("web_fetch", {"url": f"http://once.test:{site_port}/page"})
    assert len(elicitor.asked) == 2


def test_declining_is_permission_denied(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """Declining the question refuses the call with permission_denied, and its hint does not
    point the model at the allow rule that would overrule the person."""
    elicitor.answers.append(types.ElicitResult(action="decline"))
    result = conn.call("web_fetch", {"url": f"http://decline.test:{site_port}/page"})
    assert result.is_error is True
    error = error_of(result)
    assert error["code"] == "permission_denied"
    assert error["hint"] == "Do not retry this call; ask the user, or use another source."


def test_client_error_is_permission_denied(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """An elicitation the client fails to answer counts as a denial, not a crash."""
    elicitor.answers.append(types.ErrorData(code=types.INTERNAL_ERROR, message="no screen"))
    result = conn.call("web_fetch", {"url": f"http://decline.test:{site_port}/page"})
    assert result.is_error is True
    assert text_of(result).startswith("Error [permission_denied]")


def test_choosing_deny_is_permission_denied(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """Accepting the form with "deny" refuses the call too."""
    elicitor.will("deny")
    result = conn.call("web_fetch", {"url": f"http://decline.test:{site_port}/page"})
    assert result.is_error is True
    assert text_of(result).startswith("Error [permission_denied]")


def test_always_is_remembered_for_the_domain(
    conn: Connection, elicitor: Elicitor, site_port: int
) -> None:
    """After "always", later calls to the same host run without asking."""
    elicitor.will("always")
    first = conn.call("web_fetch", {"url": f"http://always.test:{site_port}/page"})
    second = conn.call("web_fetch", {"url": f"http://always.test:{site_port}/page?again=1"})
    assert first.is_error is False, text_of(first)
    assert second.is_error is False, text_of(second)
    assert len(elicitor.asked) == 1


def test_plugin_tool_result_is_schema_valid(conn: Connection, elicitor: Elicitor) -> None:
    """echo_note, once allowed, returns structured content matching its output schema."""
    elicitor.will("once")
    result = conn.call("echo_note", {"text": "hello"})
    assert result.is_error is False, text_of(result)
    assert result.structured_content == {"text": "hello", "length": 5}
    assert text_of(result) == "echo: hello"
    (listed,) = [t for t in conn.list_tools() if t.name == "echo_note"]
    jsonschema.validate(result.structured_content, listed.output_schema or {})


def test_call_without_hosts_offers_always_for_the_tool(
    conn: Connection, elicitor: Elicitor
) -> None:
    """A call that contacts no host asks about the tool itself."""
    elicitor.will("once")
    conn.call("echo_note", {"text": "hi"})
    (asked,) = elicitor.asked
    assert asked.message.startswith("EchoNote wants to echo 'hi'")
    assert "Hosts:" not in asked.message


def test_progress_reaches_a_client_that_asks_for_it(conn: Connection, elicitor: Elicitor) -> None:
    """Progress events of the call arrive as progress notifications."""
    seen: list[tuple[float, float | None, str | None]] = []
    both = conn.portal.call(anyio.Event)

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))
        if len(seen) == 2:
            both.set()

    async def both_seen() -> None:
        # The SDK client runs progress callbacks as tasks: they may finish after the result.
        with anyio.fail_after(5):
            await both.wait()

    elicitor.will("once")
    result = conn.call("echo_note", {"text": "slow"}, progress=on_progress)
    assert result.is_error is False, text_of(result)
    conn.portal.call(both_seen)
    assert sorted(seen) == [(1.0, 2.0, "reading the note"), (2.0, 2.0, "echoing")]
