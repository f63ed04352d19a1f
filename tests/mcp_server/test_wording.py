"""Tool names in what an MCP client reads: the MCP names, except in web text and rules."""

from __future__ import annotations

from insomnia_web.errors import ToolError
from insomnia_web.mcp_server.listing import call_result
from insomnia_web.mcp_server.wording import Renamer
from insomnia_web.modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END, render_error
from insomnia_web.runtime import ToolResult

RENAMER = Renamer({"WebFetch": "web_fetch", "WebSearch": "web_search"})


def test_text_names_the_mcp_tools() -> None:
    """A sentence we wrote names web_fetch, not WebFetch (whole words only)."""
    text = "Call WebFetch again; WebSearch finds pages; WebFetcher is another word."
    assert RENAMER.text(text) == (
        "Call web_fetch again; web_search finds pages; WebFetcher is another word."
    )


def test_permission_rules_keep_runtime_names() -> None:
    """A rule to add to the manifest keeps the runtime name the manifest uses."""
    text = "add WebFetch(domain:a.example) to [permissions] allow; add WebSearch to [permissions]"
    assert RENAMER.text(text) == text


def test_web_content_is_left_alone() -> None:
    """Between the delimiters (a page's title and author lines among them), the page's own
    words stay."""
    text = "\n".join(
        [
            "URL: https://a.example/",
            UNTRUSTED_BEGIN,
            'Title: "WebFetch explained"',
            "This page is about WebFetch.",
            UNTRUSTED_END,
            "[truncated: showing 0-10 of 20 chars; call WebFetch again with start_index=10]",
        ]
    )
    lines = RENAMER.result(text).split("\n")
    assert lines[2:4] == ['Title: "WebFetch explained"', "This page is about WebFetch."]
    assert lines[5].endswith("call web_fetch again with start_index=10]")


def test_error_results_name_the_mcp_tools_in_text_and_meta() -> None:
    """An error's text and its typed copy in _meta both say web_fetch."""
    info = ToolError("redirect_not_followed", "moved", hint="Call WebFetch on the location.").info()
    result = ToolResult(call_id="c", tool="WebFetch", ok=False, text=render_error(info), error=info)
    mcp = call_result(result, RENAMER)
    assert mcp.is_error
    assert "Call web_fetch on the location." in mcp.content[0].text  # type: ignore[union-attr]
    meta = mcp.meta or {}
    assert meta["insomnia-web/error"]["hint"] == "Call web_fetch on the location."
