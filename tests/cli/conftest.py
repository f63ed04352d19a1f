"""Fixtures of the console-script tests: one loopback site per module, a manifest per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .support import loopback_site, write_manifest


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """The port of the module's loopback site."""
    with loopback_site() as p:
        yield p


@pytest.fixture
def manifest(tmp_path: Path, port: int) -> Path:
    """A manifest for the site: WebFetch allowed on site.test, denied on denied.test."""
    return write_manifest(tmp_path / "insomnia.toml", port)
