"""Test-wide settings: installed plugins never leak into tests."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Load no entry-point plugins unless a test asks for them explicitly."""
    os.environ["INSOMNIA_PLUGINS"] = ""
