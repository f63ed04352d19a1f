"""Test-wide settings: installed plugins and the user's own manifest never leak into tests."""

from __future__ import annotations

import os
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Load no entry-point plugins, and no manifest from the environment or ~/.config."""
    os.environ["INSOMNIA_PLUGINS"] = ""
    os.environ.pop("INSOMNIA_WEB_MANIFEST", None)
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="insomnia-web-config-")
