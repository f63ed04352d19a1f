"""Test-wide settings: installed plugins, the user's own manifest and the user's home folder
never leak into tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

_HOME = tempfile.mkdtemp(prefix="insomnia-web-home-")
"""A throw-away home for the whole run (subprocesses inherit it): the default cache file
(``~/.cache/insomnia-web``), history and configuration are written there, never to the
home of whoever runs the tests."""


def pytest_configure(config: pytest.Config) -> None:
    """Load no entry-point plugins, no manifest from the environment or ~/.config, and
    write nothing under the real home folder."""
    os.environ["INSOMNIA_PLUGINS"] = ""
    os.environ.pop("INSOMNIA_WEB_MANIFEST", None)
    os.environ["HOME"] = _HOME
    for name, folder in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache")):
        path = Path(_HOME, folder)
        path.mkdir()
        os.environ[name] = str(path)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the throw-away home the run used."""
    shutil.rmtree(_HOME, ignore_errors=True)
