"""The ``mcp`` command of the CLI, before any server starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from insomnia_web.cli import main


def test_bad_manifest_exits_2_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest error stops ``insomnia-web mcp`` with status 2 and the key on stderr."""
    manifest = tmp_path / "insomnia.toml"
    manifest.write_text("[web.fetch]\ntimeout_seconds = 3\n", encoding="utf-8")
    assert main(["--manifest", str(manifest), "mcp"]) == 2
    assert "timeout_seconds" in capsys.readouterr().err
