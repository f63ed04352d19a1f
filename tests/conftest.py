"""Test-wide settings: installed plugins and the user's own manifest never leak into tests."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_CONFIG_HOME = tempfile.mkdtemp(prefix="insomnia-web-config-")


def pytest_configure(config: pytest.Config) -> None:
    """Load no entry-point plugins, and no manifest from the environment or ~/.config."""
    os.environ["INSOMNIA_PLUGINS"] = ""
    os.environ.pop("INSOMNIA_WEB_MANIFEST", None)
    os.environ["XDG_CONFIG_HOME"] = _CONFIG_HOME


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the empty configuration home the run used."""
    shutil.rmtree(_CONFIG_HOME, ignore_errors=True)
