"""Where the console script writes, and its exit status: the contract scripts rely on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import insomnia_web
from insomnia_web.cli import build_parser, main

from .support import console_script, run


def test_version_is_the_installed_version(tmp_path: Path) -> None:
    """--version prints the installed version, the same as insomnia_web.__version__."""
    done = run("--version", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == f"insomnia-web {insomnia_web.__version__}\n"


def test_dash_capital_v_is_version(tmp_path: Path) -> None:
    """-V prints the version, as pip, curl and ripgrep do."""
    done = run("-V", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, f"insomnia-web {insomnia_web.__version__}\n")


def test_python_dash_m_is_the_console_script(tmp_path: Path) -> None:
    """`python -m insomnia_web` runs the same command line."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "insomnia_web", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout == f"insomnia-web {insomnia_web.__version__}\n"
    assert console_script()


def test_page_to_stdout_nothing_on_stderr(tmp_path: Path, manifest: Path, port: int) -> None:
    """A successful fetch writes the page to stdout and nothing to stderr; exit 0."""
    done = run("fetch", f"http://site.test:{port}/", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "# Fetched from the command line" in done.stdout
    assert done.stderr == ""


def test_tool_error_goes_to_stderr_only(tmp_path: Path, manifest: Path, port: int) -> None:
    """A failed fetch prints its error on stderr, nothing on stdout; exit 1. A failure only
    the model can work around (a 404) has no remedy, and the model's hint is not shown."""
    url = f"http://site.test:{port}/gone"
    done = run("fetch", url, "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"Error [http_error]: {url} answered HTTP 404\n"


def test_a_failure_shows_the_person_its_remedy_not_the_models_hint(
    tmp_path: Path, manifest: Path
) -> None:
    """A failed call prints its error, then what the person can do after ``help:`` (as cargo
    does); the hint written for the model ("Tell the user ...") is not printed."""
    done = run("--yes", "search", "foo", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    first, remedy = done.stderr.splitlines()
    assert first.startswith("Error [not_configured]: WebSearch has no search provider")
    assert remedy == "help: Set web.search.provider in the manifest (brave or searxng)."
    assert "Tell the user" not in done.stderr
    assert "Hint:" not in done.stderr


def test_a_refused_local_address_names_the_entry_that_allows_it(tmp_path: Path) -> None:
    """`fetch http://127.0.0.1/` says what the address is and, after ``help:``, the one
    allow_cidrs entry that would allow it; not the model's "do not retry"."""
    done = run("fetch", "http://127.0.0.1/", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        "Error [blocked_address]: address 127.0.0.1 is blocked (loopback, 127.0.0.0/8)\n"
        'help: Only for a trusted server: add "127.0.0.1/32" to web.url_policy.allow_cidrs in '
        "the manifest.\n"
    )


def test_json_carries_the_models_hint_and_the_persons_remedy(
    tmp_path: Path, manifest: Path
) -> None:
    """With --json the error on stdout holds both the hint and the remedy; stderr shows the
    person only the remedy."""
    done = run("--yes", "--json", "search", "foo", "--manifest", str(manifest), cwd=tmp_path)
    error = json.loads(done.stdout)["error"]
    assert error["hint"].startswith("Tell the user")
    assert done.stderr.splitlines()[1] == f"help: {error['remedy']}"
    assert "Tell the user" not in done.stderr


def test_json_error_stays_on_stdout(tmp_path: Path, manifest: Path, port: int) -> None:
    """With --json the failed result is still one JSON object on stdout; exit 1."""
    url = f"http://site.test:{port}/gone"
    done = run("fetch", url, "--json", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == "http_error"


def test_json_error_is_also_said_on_stderr(tmp_path: Path, manifest: Path, port: int) -> None:
    """With --json a failure still prints its error on stderr, for the person at the pipe."""
    url = f"http://site.test:{port}/gone"
    done = run("fetch", url, "--json", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"Error [http_error]: {url} answered HTTP 404\n"
    assert json.loads(done.stdout)["ok"] is False


def test_json_success_leaves_stderr_empty(tmp_path: Path, manifest: Path, port: int) -> None:
    """With --json a successful call writes its JSON to stdout and nothing to stderr."""
    done = run(
        "fetch", f"http://site.test:{port}/", "--json", "--manifest", str(manifest), cwd=tmp_path
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert json.loads(done.stdout)["ok"] is True


def test_manifest_error_exits_2(tmp_path: Path) -> None:
    """A bad manifest is a usage error: exit 2, the key path on stderr."""
    bad = tmp_path / "bad.toml"
    bad.write_text("[web.fetch]\ntimeout = 3\n")
    done = run("tools", "--manifest", str(bad), cwd=tmp_path)
    assert done.returncode == 2
    assert "web.fetch.timeout: unknown key" in done.stderr
    assert done.stdout == ""


def test_usage_error_exits_2(tmp_path: Path) -> None:
    """An unknown option is a usage error: exit 2."""
    done = run("fetch", "--no-such-option", "https://example.com/", cwd=tmp_path)
    assert done.returncode == 2
    assert "unrecognized arguments" in done.stderr


def test_global_options_after_the_command(tmp_path: Path, manifest: Path) -> None:
    """--manifest and --json work after the command as before it."""
    manifest.write_text(manifest.read_text() + "[web.fetch]\nmax_output_chars = 1234\n")
    for argv in (
        ["tools", "--manifest", str(manifest), "--json"],
        ["--manifest", str(manifest), "--json", "tools"],
    ):
        done = run(*argv, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        specs = {t["name"]: t for t in json.loads(done.stdout)}
        assert "1234 chars per call" in specs["WebFetch"]["description"]


@pytest.mark.parametrize("command", ["tools", "doctor", "extract x.html", "cache stats", "mcp"])
def test_yes_only_where_it_means_something(command: str) -> None:
    """--yes is an option of search and fetch, not of commands that never ask."""
    parser = build_parser()
    assert parser.parse_args(["fetch", "https://example.com/", "--yes"]).yes is True
    assert parser.parse_args(["search", "q", "-y"]).yes is True
    with pytest.raises(SystemExit) as refused:
        parser.parse_args([*command.split(), "--yes"])
    assert refused.value.code == 2


def test_mcp_without_its_extra_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`insomnia-web mcp` without the mcp extra exits 1, and after ``help:`` names the extra
    to install, not the generic "run doctor"."""
    monkeypatch.setitem(sys.modules, "insomnia_web.mcp_server", None)  # import fails
    monkeypatch.chdir(tmp_path)
    assert main(["mcp"]) == 1
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == "help: Install the mcp extra (pip install 'insomnia-web[mcp]')."
