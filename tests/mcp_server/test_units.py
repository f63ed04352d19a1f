"""The MCP mapping helpers, without a server: names, answers, capabilities, results."""

from __future__ import annotations

import pytest
from mcp import types

from insomnia_web.config import Manifest
from insomnia_web.errors import ToolError
from insomnia_web.mcp_server.listing import (
    ERROR_META_KEY,
    call_result,
    mcp_tool,
    mcp_tool_name,
    tool_names,
)
from insomnia_web.mcp_server.permission import answer_from, can_elicit, elicitation_form
from insomnia_web.mcp_server.wording import Renamer
from insomnia_web.permissions import ToolCall
from insomnia_web.prompts import PromptRequest
from insomnia_web.runtime import ToolResult
from insomnia_web.tools.base import ToolAnnotations

from .fixture_tools import EchoNote


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("WebSearch", "web_search"),
        ("WebFetch", "web_fetch"),
        ("SaveFinding", "save_finding"),
        ("HTTPProbe", "http_probe"),
        ("fetch-v2", "fetch_v2"),
        ("already_snake", "already_snake"),
    ],
)
def test_tool_names_become_snake_case(name: str, expected: str) -> None:
    """Tool names are listed in snake_case."""
    assert mcp_tool_name(name) == expected


def test_two_tools_with_one_mcp_name_are_an_error() -> None:
    """WebFetch and web_fetch cannot both be served: the collision is named."""
    with pytest.raises(ValueError, match="'web_fetch'"):
        tool_names(["WebFetch", "web_fetch"])


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (types.ElicitResult(action="accept", content={"decision": "once"}), "once"),
        (types.ElicitResult(action="accept", content={"decision": "always"}), "always"),
        (types.ElicitResult(action="accept", content={"decision": "deny"}), "deny"),
        (types.ElicitResult(action="accept", content={"decision": "yes please"}), "deny"),
        (types.ElicitResult(action="accept", content=None), "deny"),
        (types.ElicitResult(action="decline"), "deny"),
        (types.ElicitResult(action="cancel"), "deny"),
        (None, "deny"),
    ],
)
def test_only_an_accepted_allow_allows(result: types.ElicitResult | None, expected: str) -> None:
    """Anything but an accepted once/always is a denial."""
    assert answer_from(result) == expected


@pytest.mark.parametrize(
    ("capabilities", "expected"),
    [
        (None, False),
        (types.ClientCapabilities(), False),
        (types.ClientCapabilities(elicitation=types.ElicitationCapability()), True),
        (
            types.ClientCapabilities(
                elicitation=types.ElicitationCapability(form=types.FormElicitationCapability())
            ),
            True,
        ),
        (
            types.ClientCapabilities(
                elicitation=types.ElicitationCapability(url=types.UrlElicitationCapability())
            ),
            False,
        ),
    ],
)
def test_form_elicitation_capability(
    capabilities: types.ClientCapabilities | None, expected: bool
) -> None:
    """An empty elicitation capability means form mode; URL mode alone cannot ask."""
    assert can_elicit(capabilities) is expected


def test_form_shows_the_prompt_and_the_reason() -> None:
    """A plugin's prompt text and the reason for asking are part of the message."""
    call = ToolCall(id="c1", tool="WebFetch", input={}, domains=("a.example",), summary="fetch x")
    request = PromptRequest(call=call, reason="no rule matched", prompt="Really?")
    message, schema = elicitation_form(request)
    assert message.splitlines() == [
        "WebFetch wants to fetch x.",
        "Hosts: a.example",
        "Really?",
        "Why asked: no rule matched",
    ]
    assert schema["required"] == ["decision"]


def test_form_shows_a_summary_on_one_line_with_controls_shown() -> None:
    """An MCP client's question shows a call's summary on one line, its line breaks, bidi
    marks and terminal controls as escapes, so a summary made of the model's input cannot
    add lines to the question, reorder it, or drive a terminal client's screen."""
    summary = "run x\nHosts: docs.example\u202e\x1b]52;c;aGk=\x07"
    call = ToolCall(id="c1", tool="Notes", input={}, domains=("a.example",), summary=summary)
    message, _ = elicitation_form(PromptRequest(call=call, reason="r", prompt="Sure?\x1b[2J"))
    assert message.splitlines() == [
        "Notes wants to run x\\nHosts: docs.example\\u202e\\x1b]52;c;aGk=\\x07.",
        "Hosts: a.example",
        "Sure?\\x1b[2J",
        "Why asked: r",
    ]


def test_results_reach_the_client_with_terminal_controls_as_escapes() -> None:
    """A page's escape sequences (an OSC 8 link that hides its target, an 8-bit CSI that
    clears the screen, a bidi override) reach the MCP client as escapes, in the text and
    in the structured content: a client on a terminal showed them to the person as
    sequences its terminal acted on."""
    hostile = "see \x1b]8;;https://evil.example/\x07docs\x1b]8;;\x07 \x9b2J \u202eok"
    shown = "see \\x1b]8;;https://evil.example/\\x07docs\\x1b]8;;\\x07 \\x9b2J \\u202eok"
    output = {"text": hostile, "excerpts": [{"title": hostile, "score": 1.0}], "tokens": 3}
    result = call_result(
        ToolResult(call_id="c", tool="WebFetch", ok=True, text=hostile, output=output)
    )
    assert [block.text for block in result.content] == [shown]  # type: ignore[union-attr]
    assert result.structured_content == {
        "text": shown,
        "excerpts": [{"title": shown, "score": 1.0}],
        "tokens": 3,
    }


def test_error_result_keeps_retry_after_and_details() -> None:
    """A rate-limited error keeps retry_after_s and details in its typed error, not as output."""
    info = ToolError("rate_limited", "slow down", retry_after_s=3.0, details={"n": 1}).info()
    result = call_result(ToolResult(call_id="c", tool="WebSearch", ok=False, text="t", error=info))
    assert result.is_error is True
    assert result.structured_content is None
    assert result.meta == {
        ERROR_META_KEY: {
            "code": "rate_limited",
            "message": "slow down",
            "hint": info.hint,
            "retryable": True,
            "retry_after_s": 3.0,
            "details": {"n": 1},
        }
    }


def test_a_remedy_reaches_the_client_in_meta_not_the_models_text() -> None:
    """The person's remedy is in the typed error a host shows its user, with MCP tool names,
    and not in the text content the model reads; the hint stays the model's."""
    info = ToolError(
        "not_configured",
        "no provider",
        hint="Tell the user to set web.search.provider.",
        remedy="Fix the plugin of WebSearch, or add WebSearch(domain:a.example) to [permissions] "
        "allow.",
    ).info()
    result = call_result(
        ToolResult(call_id="c", tool="WebSearch", ok=False, text="t", error=info),
        Renamer({"WebSearch": "web_search"}),
    )
    error = (result.meta or {})[ERROR_META_KEY]
    assert error["remedy"] == (
        "Fix the plugin of web_search, or add WebSearch(domain:a.example) to [permissions] allow."
    )
    assert error["hint"] == info.hint
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert "Tell the user to set web.search.provider." in text.text
    assert "plugin" not in text.text


def test_an_error_without_a_remedy_has_no_remedy_key() -> None:
    """An error only the model can work around adds no remedy key: older clients see the
    typed error they always did."""
    info = ToolError("timeout", "slow").info()
    result = call_result(ToolResult(call_id="c", tool="WebFetch", ok=False, text="t", error=info))
    assert "remedy" not in (result.meta or {})[ERROR_META_KEY]


HINTS = ("read_only", "destructive", "idempotent", "open_world")


@pytest.mark.parametrize("flag", HINTS)
def test_each_annotation_maps_to_its_own_hint(flag: str) -> None:
    """With exactly one annotation true, exactly the matching MCP hint is true."""

    class OneFlag(EchoNote):
        annotations = ToolAnnotations(**{h: h == flag for h in HINTS})

    hints = mcp_tool(OneFlag(Manifest())).annotations
    assert hints is not None
    listed = {
        "read_only": hints.read_only_hint,
        "destructive": hints.destructive_hint,
        "idempotent": hints.idempotent_hint,
        "open_world": hints.open_world_hint,
    }
    assert listed == {h: h == flag for h in HINTS}


def test_listing_keeps_title_and_schemas() -> None:
    """The listing carries the tool's title, description and both schemas unchanged."""
    tool = EchoNote(Manifest())
    listed = mcp_tool(tool)
    assert listed.name == "echo_note"
    assert listed.title == "Echo a note"
    assert listed.description == tool.description()
    assert listed.input_schema == tool.input_schema()
    assert listed.output_schema == tool.output_schema()
