"""The console script as the first command of a pipe whose reader stops early (``head``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .support import console_script

PARAGRAPH = "<p>A paragraph long enough to be kept by the extractor as text of the page.</p>"


def _early_reader(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``insomnia-web ARGS`` with a stdout pipe whose reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [*console_script(), *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.fixture
def big_page(tmp_path: Path) -> Path:
    """A saved page whose text is several times a pipe's buffer."""
    page = tmp_path / "big.html"
    page.write_text("<html><body>" + PARAGRAPH * 4000 + "</body></html>")
    return page


@pytest.mark.parametrize(
    "argv",
    [
        ["extract", "big.html", "big.html"],
        ["schema"],
        ["policy", "check", "http://10.0.0.1/"],
    ],
    ids=["extract-large", "schema", "policy-small"],
)
def test_a_reader_that_went_away_is_no_traceback(
    argv: list[str], tmp_path: Path, big_page: Path
) -> None:
    """Output to a closed pipe ends quietly with status 141, as a program killed by SIGPIPE."""
    done = _early_reader(*argv, cwd=tmp_path)
    assert done.stderr == ""
    assert done.returncode == 141
