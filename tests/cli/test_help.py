"""Help texts: every option explained, every command with an example."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from insomnia_web.cli import build_parser

from .support import run


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    found = [("insomnia-web", build_parser())]
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
