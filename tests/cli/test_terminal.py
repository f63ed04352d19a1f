"""The console script on a terminal: prompts, Ctrl-C, the progress line, the MCP notice."""

from __future__ import annotations

import json
import select
import subprocess
from pathlib import Path

from .support import SLOW_S, Terminal, on_terminal, run

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "a person at a terminal", "version": "0"},
    },
}


def test_an_unknown_answer_asks_again(tmp_path: Path, manifest: Path, port: int) -> None:
    """On a terminal an asked fetch prompts; "maybe" asks again, "o" allows it once."""
    url = f"http://other.test:{port}/"
    with on_terminal("fetch", url, "--manifest", str(manifest), cwd=tmp_path) as term:
        screen = term.read_until("[d]eny: ")
        assert f"WebFetch wants to fetch {url}" in screen
        assert "[a]lways for this domain, until insomnia-web exits" in screen
        term.type("maybe\n")
        term.read_until("Please answer o (once), a (always) or d (deny): ")
        term.type("o\n")
        assert term.proc.wait(30) == 0
        assert term.proc.stdout is not None
        assert "# Fetched from the command line" in term.proc.stdout.read().decode()


def test_ctrl_c_at_the_prompt_exits_at_once(tmp_path: Path, manifest: Path, port: int) -> None:
    """Ctrl-C while the prompt waits ends the process with status 130, without Enter (no
    wall-clock bound: a loaded machine is slow to exit, never stuck)."""
    url = f"http://other.test:{port}/"
    with on_terminal("fetch", url, "--manifest", str(manifest), cwd=tmp_path) as term:
        term.read_until("[d]eny: ")
        term.interrupt()
        try:
            status = term.proc.wait(30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the process still waits for Enter after Ctrl-C") from None
        assert status == 130


def test_a_slow_download_shows_bytes_and_time(tmp_path: Path, manifest: Path, port: int) -> None:
    """On a terminal a slow fetch shows bytes so far and the time elapsed on stderr."""
    url = f"http://site.test:{port}/slow"
    with on_terminal("fetch", url, "--manifest", str(manifest), cwd=tmp_path) as term:
        screen = term.read_until(f"downloading {url}: ", timeout=SLOW_S + 20)
        assert term.proc.wait(30) == 0
        screen = term.drain()
        line = screen.split(f"downloading {url}: ")[1].split("\r")[0]
        assert " bytes, " in line or " KiB, " in line
        assert line.endswith(" s")


def test_no_progress_off_a_terminal(tmp_path: Path, manifest: Path, port: int) -> None:
    """With stderr not a terminal the same slow fetch writes nothing to stderr."""
    url = f"http://site.test:{port}/slow"
    done = run("fetch", url, "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == ""


def test_mcp_on_a_terminal_says_what_it_is(tmp_path: Path, manifest: Path) -> None:
    """`insomnia-web mcp` started by hand prints one line to stderr saying it speaks MCP."""
    with on_terminal("mcp", "--manifest", str(manifest), cwd=tmp_path) as term:
        screen = term.read_until("\n")
        assert screen.startswith("insomnia-web mcp: speaking MCP on stdin/stdout")
        assert screen.count("\n") == 1


def test_mcp_that_cannot_start_says_only_why(tmp_path: Path) -> None:
    """`insomnia-web mcp` on a terminal with a manifest the runtime refuses says why and
    exits 2, without first saying that it speaks MCP."""
    manifest = tmp_path / "m.toml"
    manifest.write_text('[web.search]\nprovider = "nope"\n')
    with on_terminal("mcp", "--manifest", str(manifest), cwd=tmp_path) as term:
        assert term.proc.wait(30) == 2
        screen = term.read_until("no search provider named 'nope'")
        assert "speaking MCP" not in screen


def _stdout_line(term: Terminal, timeout: float = 30) -> str:
    """The next line the process writes to stdout (fails after *timeout* seconds)."""
    assert term.proc.stdout is not None
    ready = select.select([term.proc.stdout], [], [], timeout)[0]
    assert ready, "nothing written to stdout"
    return term.proc.stdout.readline().decode()


def test_ctrl_c_stops_mcp_on_a_terminal(tmp_path: Path, manifest: Path) -> None:
    """`insomnia-web mcp` started by hand and serving ends with status 130 at Ctrl-C,
    without waiting for a line of input."""
    with on_terminal("mcp", "--manifest", str(manifest), cwd=tmp_path) as term:
        term.type(json.dumps(INITIALIZE) + "\n")
        assert json.loads(_stdout_line(term))["id"] == 1  # serving: waiting for the next line
        term.interrupt()
        try:
            status = term.proc.wait(30)
        except subprocess.TimeoutExpired:
            raise AssertionError("mcp still waits for a line after Ctrl-C") from None
        assert status == 130


def test_a_redirect_to_an_asked_host_is_its_own_question(
    tmp_path: Path, manifest: Path, port: int
) -> None:
    """On a terminal, a redirect to a host the rules ask about is put to the person."""
    url = f"http://site.test:{port}/moved/other.test"
    with on_terminal("fetch", url, "--manifest", str(manifest), cwd=tmp_path) as term:
        screen = term.read_until("[d]eny: ")
        assert f"WebFetch wants to follow a redirect to http://other.test:{port}/" in screen
        term.type("o\n")
        assert term.proc.wait(30) == 0
        assert term.proc.stdout is not None
        assert f"Final URL: http://other.test:{port}/" in term.proc.stdout.read().decode()


def test_declining_a_redirect_is_permission_denied(
    tmp_path: Path, manifest: Path, port: int
) -> None:
    """Answering d to the redirect question ends the fetch with permission_denied (exit 1)."""
    url = f"http://site.test:{port}/moved/other.test"
    with on_terminal("fetch", url, "--manifest", str(manifest), cwd=tmp_path) as term:
        term.read_until("[d]eny: ")
        term.type("d\n")
        assert term.proc.wait(30) == 1
        screen = term.read_until("Error [permission_denied]")
        assert "the user declined to follow the redirect to http://other.test:" in screen
