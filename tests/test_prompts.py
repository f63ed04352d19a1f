"""Prompters: what a person sees and how answers are read."""

from __future__ import annotations

import asyncio
import io
import os
import select
import threading
from collections.abc import Iterator

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


FORGED = "run notes.txt\n  hosts: docs.example\n  why asked: rule\u202e\x9b2K"
"""A plugin tool's summary built from the model's input: line breaks that forge the lines
of the question below it, a bidi override and an 8-bit CSI."""


def test_a_summary_is_one_line_with_breaks_and_controls_shown() -> None:
    """A call's summary is one line of the question, its line breaks, bidi marks and
    controls shown as escapes: a summary holding them wrote lines of its own under it
    (hosts, why asked) or reordered what the person reads."""
    call = ToolCall(id="c", tool="Notes", input={}, domains=("a.example",), summary=FORGED)
    text = format_request(PromptRequest(call=call, reason="default is ask"))
    lines = text.splitlines()
    assert lines[0] == (
        "Notes wants to run notes.txt\\n  hosts: docs.example\\n  why asked: rule\\u202e\\x9b2K"
    )
    assert lines[1:3] == ["  hosts: a.example", "  why asked: default is ask"]


class Terminal:
    """A pseudo-terminal: the prompter reads and writes its slave end, the test its master."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.stdin = os.fdopen(slave, "r")
        self.stderr = os.fdopen(os.dup(slave), "w")

    def type(self, text: bytes) -> None:
        """Type *text* as a person would (in canonical mode a line is sent on Enter)."""
        os.write(self.master, text)

    def screen(self) -> str:
        """Everything written to the terminal so far (the prompt, the echoed replies)."""
        out = b""
        while select.select([self.master], [], [], 0.05)[0]:
            out += os.read(self.master, 65536)
        return out.decode()

    def close(self) -> None:
        self.stdin.close()
        self.stderr.close()
        os.close(self.master)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    """A pseudo-terminal for the prompter's stdin and stderr."""
    term = Terminal()
    try:
        yield term
    finally:
        term.close()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("reply", "answer"),
    [(b"o\n", "once"), (b"YES\n", "once"), (b"a\n", "always"), (b"d\n", "deny"),
     (b"no\n", "deny"), (b"\x04", "deny")],
)  # fmt: skip
async def test_terminal_prompter_maps_replies(
    terminal: Terminal, reply: bytes, answer: str
) -> None:
    """o/yes allow once, a allows always, d/no deny, and end of input (Ctrl-D) denies."""
    prompter = TerminalPrompter(stdin=terminal.stdin, stderr=terminal.stderr)
    terminal.type(reply)
    assert await prompter.ask(request("docs.example")) == answer
    assert "WebFetch wants to" in terminal.screen()


@pytest.mark.asyncio
async def test_terminal_prompter_asks_again_after_an_unknown_answer(terminal: Terminal) -> None:
    """A reply that is not o, a or d is not taken as a denial: the question is asked again."""
    prompter = TerminalPrompter(stdin=terminal.stdin, stderr=terminal.stderr)
    task = asyncio.create_task(prompter.ask(request("docs.example")))
    terminal.type(b"maybe\n")
    await asyncio.sleep(0.1)
    assert not task.done()
    terminal.type(b"a\n")
    assert await asyncio.wait_for(task, 5) == "always"
    assert "Please answer o (once), a (always) or d (deny)" in terminal.screen()


@pytest.mark.asyncio
async def test_terminal_prompter_without_a_terminal_is_unavailable() -> None:
    """With stdin or stderr not a terminal nobody is asked: the answer is unavailable."""
    err = io.StringIO()
    prompter = TerminalPrompter(stdin=io.StringIO("o\n"), stderr=err)
    assert await prompter.ask(request("docs.example")) == "unavailable"
    assert err.getvalue() == ""


@pytest.mark.asyncio
async def test_waiting_for_an_answer_holds_no_thread(terminal: Terminal) -> None:
    """Cancelling a pending prompt (what Ctrl-C does) ends it at once, with no thread left."""
    prompter = TerminalPrompter(stdin=terminal.stdin, stderr=terminal.stderr)
    before = threading.active_count()
    task = asyncio.create_task(prompter.ask(request("docs.example")))
    await asyncio.sleep(0.1)
    assert threading.active_count() == before
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 1)


def test_always_says_how_long_it_lasts() -> None:
    """The prompt says how long "always" lasts: the session, or what the host says."""
    assert "[a]lways for this domain, this session" in format_request(request("docs.example"))
    text = format_request(request("a.example"), always_lasts="until insomnia-web exits")
    assert "[a]lways for this domain, until insomnia-web exits" in text


@pytest.mark.asyncio
async def test_fixed_prompters() -> None:
    """--yes allows once; with no terminal nobody can be asked."""
    assert await AutoApprovePrompter().ask(request()) == "once"
    assert await DenyPrompter().ask(request()) == "unavailable"


@pytest.mark.asyncio
async def test_concurrent_questions_are_asked_one_at_a_time(terminal: Terminal) -> None:
    """Two calls asking at once get one question each, in turn, each with its own answer."""
    prompter = TerminalPrompter(stdin=terminal.stdin, stderr=terminal.stderr)
    first = asyncio.create_task(prompter.ask(request("a.example")))
    second = asyncio.create_task(prompter.ask(request("b.example")))
    await asyncio.sleep(0.1)
    assert terminal.screen().count("WebFetch wants to") == 1
    terminal.type(b"o\n")
    assert await asyncio.wait_for(first, 5) == "once"
    await asyncio.sleep(0.1)
    terminal.type(b"d\n")
    assert await asyncio.wait_for(second, 5) == "deny"


def test_unknown_hosts_prompt_offers_no_always() -> None:
    """A call with unknown hosts is shown as such, and "always" is not offered."""
    call = ToolCall(id="c", tool="WebFetch", input={}, summary="fetch ?", hosts_unknown=True)
    text = format_request(PromptRequest(call=call, reason="default is ask"))
    assert "hosts: unknown" in text
    assert "[a]lways" not in text


@pytest.mark.asyncio
async def test_terminal_prompt_shows_control_characters_as_escapes(terminal: Terminal) -> None:
    """A question holding an escape sequence or a bidi override shows it escaped, inert."""
    prompter = TerminalPrompter(stdin=terminal.stdin, stderr=terminal.stderr)
    call = ToolCall(
        id="c", tool="WebFetch", input={}, summary="fetch \x1b[2Jhttps://a.example/\u202ecod.exe"
    )
    question = PromptRequest(call=call, reason="asked", prompt="\x1b]0;title\x07")
    terminal.type(b"d\n")
    assert await prompter.ask(question) == "deny"
    screen = terminal.screen()
    assert not any(c in screen for c in "\x1b\u202e\x07")
    assert "fetch \\x1b[2Jhttps://a.example/\\u202ecod.exe" in screen
