"""Prompters: what a person sees and how answers are read."""

from __future__ import annotations

import io

import pytest

from insomnia_web import AutoApprovePrompter, DenyPrompter, PromptRequest, ToolCall
from insomnia_web.prompts import TerminalPrompter, format_request


def request(*domains: str) -> PromptRequest:
    call = ToolCall(
        id="c",
        tool="WebFetch",
        input={"url": "https://docs.example/x"},
        domains=domains,
        summary="fetch https://docs.example/x (readable)",
    )
    return PromptRequest(call=call, reason="no rule matched; default is ask", prompt="Careful")


def test_prompt_text_shows_exactly_what_will_be_fetched() -> None:
    """The prompt shows the tool, the summary, the hosts, the plugin's prompt and the reason."""
    text = format_request(request("docs.example"))
    assert text.startswith("WebFetch wants to fetch https://docs.example/x (readable)")
    assert "hosts: docs.example" in text
    assert "Careful" in text
    assert "why asked: no rule matched" in text
    assert "[a]lways for this domain" in text
    assert "[a]lways for this tool" in format_request(request())


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("reply", "answer"),
    [("o\n", "once"), ("yes\n", "once"), ("a\n", "always"), ("d\n", "deny"), ("", "deny")],
)
async def test_terminal_prompter_reads_one_line(reply: str, answer: str) -> None:
    """The terminal prompter maps o/a/d replies; anything else, or EOF, denies."""
    err = io.StringIO()
    prompter = TerminalPrompter(stdin=io.StringIO(reply), stderr=err)
    assert await prompter.ask(request("docs.example")) == answer
    assert "WebFetch wants to" in err.getvalue()


@pytest.mark.asyncio
async def test_fixed_prompters() -> None:
    """--yes allows once; with no terminal nobody can be asked."""
    assert await AutoApprovePrompter().ask(request()) == "once"
    assert await DenyPrompter().ask(request()) == "unavailable"


def test_unknown_hosts_prompt_offers_no_always() -> None:
    """A call with unknown hosts is shown as such, and "always" is not offered."""
    call = ToolCall(id="c", tool="WebFetch", input={}, summary="fetch ?", hosts_unknown=True)
    text = format_request(PromptRequest(call=call, reason="default is ask"))
    assert "hosts: unknown" in text
    assert "[a]lways" not in text
