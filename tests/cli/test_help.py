"""Help texts: every option explained, every command with an example."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from insomnia_web.cli import build_parser

from .support import run


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    found: list[tuple[str, argparse.ArgumentParser]] = [("insomnia-web", build_parser())]
    i = 0
    while i < len(found):
        name, parser = found[i]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += [(f"{name} {sub}", p) for sub, p in action.choices.items()]
        i += 1
    return found


@pytest.mark.parametrize(("name", "parser"), _parsers(), ids=[n for n, _ in _parsers()])
def test_every_option_has_help_and_every_command_an_example(
    name: str, parser: argparse.ArgumentParser
) -> None:
    """Each argument of each command has a help text; each command's epilog has an example."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        assert action.help, f"{name}: {action.dest} has no help"
    assert parser.epilog is not None
    assert "example:\n  " in parser.epilog
    assert "insomnia-web" in parser.epilog


def test_help_documents_the_exit_status(tmp_path: Path) -> None:
    """`insomnia-web --help` states the exit codes and where output goes."""
    done = run("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "Exit status: 0 success, 1 the tool reported an error" in done.stdout
    assert "2 usage or manifest error" in done.stdout


def test_help_and_readme_give_the_same_exit_codes(tmp_path: Path) -> None:
    """Every exit status the README lists is explained by `insomnia-web --help` too."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    listed = readme.split("- **Exit status.**", 1)[1].split("\n- ", 1)[0]
    codes = re.findall(r"`(\d+)`", listed)
    assert codes == ["0", "1", "2", "130", "141"]
    shown = " ".join(run("--help", cwd=tmp_path).stdout.split())
    for code in codes:
        assert re.search(rf"\b{code} [a-z]", shown), f"--help does not explain exit status {code}"
    assert "doctor found a problem" in shown


def _documented_commands() -> list[str]:
    """Every `insomnia-web ...` command line in the sh blocks of README.md and docs/mcp.md."""
    root = Path(__file__).resolve().parents[2]
    found = []
    for doc in ("README.md", "docs/mcp.md"):
        text = (root / doc).read_text()
        for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
            for raw in block.splitlines():
                line = raw.split("  #", 1)[0].strip()
                if line.startswith(("insomnia-web ", ".venv/bin/insomnia-web ")):
                    found.append(line)
    return found


def test_the_docs_show_commands() -> None:
    """The docs' command lines are found (the pattern above is not wrong)."""
    assert len(_documented_commands()) >= 10


@pytest.mark.parametrize("line", _documented_commands())
def test_every_documented_command_parses(line: str) -> None:
    """Each command line the docs show is accepted by the parser as written."""
    argv = shlex.split(line)[1:]
    if argv == ["--version"]:
        return
    build_parser().parse_args(argv)


def test_cache_help_says_what_clear_deletes(tmp_path: Path) -> None:
    """`cache --help` says clear deletes saved findings too, in whichever store is used."""
    shown = " ".join(run("cache", "--help", cwd=tmp_path).stdout.split())
    assert "the SQLite file or the PostgreSQL server" in shown
    assert "clear: delete every search, page and saved finding" in shown


def test_policy_check_is_described_as_resolving_names() -> None:
    """README and ``policy check --help`` say that a host name is looked up in DNS unless
    ``--resolve`` gives its address, never that the check makes no lookup."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    help_text = dict(_parsers())["insomnia-web policy check"].format_help()
    for text in (readme, help_text):
        flat = " ".join(text.split())
        assert "without connecting" not in flat
        assert "no connection" not in flat
    assert "resolves host names (DNS) unless --resolve" in " ".join(help_text.split())
    assert "looks host names up in DNS unless `--resolve`" in " ".join(readme.split())
