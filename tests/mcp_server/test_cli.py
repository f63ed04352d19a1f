"""The ``mcp`` command of the CLI, before any server starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from insomnia_web.cli import build_parser, main


def test_bad_manifest_exits_2_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest error stops ``insomnia-web mcp`` with status 2 and the key on stderr."""
    manifest = tmp_path / "insomnia.toml"
    manifest.write_text("[web.fetch]\ntimeout_seconds = 3\n", encoding="utf-8")
    assert main(["--manifest", str(manifest), "mcp"]) == 2
    assert "timeout_seconds" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [["--manifest", "a.toml", "mcp"], ["mcp", "--manifest", "a.toml"]],
)
def test_manifest_goes_before_or_after_mcp(argv: list[str]) -> None:
    """Client configurations may put --manifest before or after the mcp command."""
    args = build_parser().parse_args(argv)
    assert args.command == "mcp"
    assert args.manifest == "a.toml"


def test_manifest_after_mcp_is_the_one_loaded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --manifest after the command is the manifest the server loads."""
    manifest = tmp_path / "after.toml"
    manifest.write_text("[web]\nnope = 1\n", encoding="utf-8")
    assert main(["mcp", "--manifest", str(manifest)]) == 2
    assert "after.toml" in capsys.readouterr().err
