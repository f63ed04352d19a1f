"""Usage errors: exit 2, a message on stderr naming the command, and the nearest spelling."""

from __future__ import annotations

from pathlib import Path

import pytest

from insomnia_web.cli.parser import IntRange
from insomnia_web.schemas import WebFetchInput, WebSearchInput

from .support import run


def test_a_mistyped_command_gets_a_suggestion(tmp_path: Path) -> None:
    """`insomnia-web fecth URL` exits 2 and suggests `fetch` on stderr."""
    done = run("fecth", "https://example.com/", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "invalid choice: 'fecth'" in done.stderr
    assert "did you mean 'fetch'?" in done.stderr


def test_a_mistyped_choice_gets_a_suggestion(tmp_path: Path) -> None:
    """A value close to one of an option's choices names it (`--mode result` -> results)."""
    done = run("search", "q", "--mode", "result", cwd=tmp_path)
    assert done.returncode == 2
    assert "did you mean 'results'?" in done.stderr


def test_an_unknown_option_gets_a_suggestion(tmp_path: Path) -> None:
    """`fetch --mxa-chars 300 URL` exits 2 and suggests --max-chars."""
    done = run("fetch", "--mxa-chars", "300", "https://example.com/", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "unrecognized arguments: --mxa-chars" in done.stderr
    assert "did you mean --max-chars?" in done.stderr


def test_an_unknown_option_shows_the_command_usage(tmp_path: Path) -> None:
    """An option the command does not have is reported with that command's usage line."""
    done = run("fetch", "https://example.com/", "--count", "3", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("usage: insomnia-web fetch ")
    assert "insomnia-web fetch: error: unrecognized arguments: --count 3" in done.stderr


def test_nothing_close_gets_no_suggestion(tmp_path: Path) -> None:
    """A word unlike every command is refused without a made-up suggestion."""
    done = run("zzzz", cwd=tmp_path)
    assert done.returncode == 2
    assert "did you mean" not in done.stderr


def test_double_dash_ends_the_options(tmp_path: Path) -> None:
    """After `--` a word starting with a dash is an argument, not an unknown option."""
    page = tmp_path / "-page.html"
    page.write_text("<p>A page whose file name starts with a dash, read after the marker.</p>")
    done = run("extract", "--", "-page.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "file name starts with a dash" in done.stdout


def test_an_option_after_double_dash_is_named_as_such(tmp_path: Path) -> None:
    """An option of the command written after `--` is said to be read as an argument there,
    not offered as its own correction (`--mode: did you mean --mode?`)."""
    done = run("search", "--", "-q", "--mode", "results", cwd=tmp_path)
    assert done.returncode == 2
    assert "did you mean" not in done.stderr
    assert "--mode comes after --, which ends the options: write it before --" in done.stderr


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["search", "q", "--count", "100"], "argument --count: 100 is not in 1-20"),
        (["search", "q", "--offset", "10"], "argument --offset: 10 is not in 0-9"),
        (["search", "q", "--max-tokens", "50"], "argument --max-tokens: 50 is not in 100-8000"),
        (["fetch", "x.test/", "--max-chars", "-5"], "argument --max-chars: -5 is below 100"),
        (["fetch", "x.test/", "--start-index", "-1"], "argument --start-index: -1 is below 0"),
        (["search", "q", "--count", "two"], "argument --count: 'two' is not a whole number"),
        (
            ["search", "q", "--freshness", "yesterday"],
            "argument --freshness: 'yesterday' is not pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD",
        ),
        (["search", "  "], "argument query: the query is empty"),
        (["search", "x" * 401], "argument query: the query is longer than 400 characters"),
    ],
)
def test_a_value_the_tool_refuses_is_a_usage_error(
    argv: list[str], said: str, tmp_path: Path
) -> None:
    """A value the tool's input rules refuse is refused before any call: exit 2, naming it."""
    done = run(*argv, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert said in done.stderr


def test_the_ranges_are_the_tools_own(tmp_path: Path) -> None:
    """The option ranges are read from the tool input schemas, and the help shows them."""
    count = IntRange(WebSearchInput, "count")
    assert (count.low, count.high) == (1, 20)
    assert IntRange(WebFetchInput, "max_chars").describe() == "at least 100"
    done = run("search", "--help", cwd=tmp_path)
    assert "number of results (1-20)" in " ".join(done.stdout.split())
    assert "token budget of the excerpts (100-8000)" in " ".join(done.stdout.split())


def test_help_command_shows_a_command_help(tmp_path: Path) -> None:
    """`insomnia-web help fetch` prints what `fetch --help` prints, as in git and pip."""
    done = run("help", "fetch", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == run("fetch", "--help", cwd=tmp_path).stdout
    nested = run("help", "policy", "check", cwd=tmp_path)
    assert nested.stdout == run("policy", "check", "--help", cwd=tmp_path).stdout
    assert run("help", cwd=tmp_path).stdout == run("--help", cwd=tmp_path).stdout


def test_help_for_an_unknown_command_is_a_usage_error(tmp_path: Path) -> None:
    """`insomnia-web help fecth` exits 2 and suggests the command meant."""
    done = run("help", "fecth", cwd=tmp_path)
    assert done.returncode == 2
    assert "did you mean 'fetch'?" in done.stderr


def test_resolve_before_the_command(tmp_path: Path, port: int) -> None:
    """`insomnia-web --resolve HOST:IP fetch URL` works as it does after the command."""
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'[web.url_policy]\nallow_cidrs = ["127.0.0.1/32"]\nports = [{port}]\n'
        '[web.cache]\nenabled = false\n[permissions]\nallow = ["WebFetch"]\n'
    )
    url = f"http://fresh.test:{port}/"
    first = ["--resolve", "fresh.test:127.0.0.1", "--manifest", str(manifest)]
    done = run(*first, "fetch", url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "# Fetched from the command line" in done.stdout
    verdict = run(*first, "policy", "check", url, cwd=tmp_path)
    assert verdict.stdout.startswith(f"ALLOWED  {url} -> 127.0.0.1")


def test_resolve_before_a_command_without_it_is_refused(tmp_path: Path) -> None:
    """A --resolve a command would not use is a usage error, not silently ignored."""
    done = run("--resolve", "a.test:127.0.0.1", "tools", cwd=tmp_path)
    assert done.returncode == 2
    assert "--resolve works with search, fetch and policy check" in done.stderr


def test_a_command_option_before_the_command_is_named(tmp_path: Path) -> None:
    """`insomnia-web --max-chars 100 fetch URL` says the option goes after the command."""
    done = run("--max-chars", "100", "fetch", "https://example.com/", cwd=tmp_path)
    assert done.returncode == 2
    assert "--max-chars is an option of fetch: write it after the command" in done.stderr
    assert "invalid choice" not in done.stderr
