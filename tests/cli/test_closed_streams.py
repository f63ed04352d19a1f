"""Standard streams the caller closed (``<&-``, ``>&-``): no traceback, as git behaves."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .support import console_script


def _with_closed(redirect: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``insomnia-web ARGS`` from a shell that closes one stream (*redirect*: ``<&-``...)."""
    return subprocess.run(
        ["sh", "-c", f'exec "$@" {redirect}', "sh", *console_script(), *args],
        cwd=cwd,
        capture_output=redirect != "2>&-",
        text=True,
        timeout=60,
        check=False,
    )


def test_closed_stdin_is_an_unanswered_question(tmp_path: Path, manifest: Path, port: int) -> None:
    """With stdin closed an asked fetch is refused as off a terminal: exit 1, no traceback."""
    url = f"http://other.test:{port}/"
    done = _with_closed("<&-", "fetch", url, "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("Error [permission_denied]")
    assert "Traceback" not in done.stderr


def test_closed_stdin_ends_the_mcp_server(tmp_path: Path, manifest: Path) -> None:
    """`insomnia-web mcp <&-` sees the end of input at once and exits 0, quietly."""
    done = _with_closed("<&-", "mcp", "--manifest", str(manifest), cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("redirect", [">&-", "2>&-"])
def test_closed_output_is_not_a_crash(
    redirect: str, tmp_path: Path, manifest: Path, port: int
) -> None:
    """With stdout or stderr closed a fetch still runs to its own exit status."""
    url = f"http://site.test:{port}/"
    done = _with_closed(redirect, "fetch", url, "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0
    if redirect == ">&-":
        assert done.stderr == ""
