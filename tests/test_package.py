"""The package itself: what ``import insomnia_web`` loads, and its public names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import insomnia_web


def test_importing_the_package_leaves_the_network_stack_unloaded() -> None:
    """``import insomnia_web`` (and the CLI's entry module) loads no network or runtime module:
    ``--version`` and ``--help`` start without them."""
    code = (
        "import sys, insomnia_web, insomnia_web.cli.main\n"
        "loaded = [m for m in ('aiohttp', 'insomnia_web.net', 'insomnia_web.runtime') "
        "if m in sys.modules]\n"
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_public_name_imports() -> None:
    """Each name in ``__all__`` resolves to the object its module defines."""
    for name in insomnia_web.__all__:
        assert getattr(insomnia_web, name) is not None
    assert insomnia_web.Runtime.__module__ == "insomnia_web.runtime"


def test_the_default_cache_file_is_under_a_throwaway_home() -> None:
    """The default cache path, expanded as the store expands it, is in the run's throw-away
    home: a test that leaves the cache at its default writes nothing to the real one."""
    default = Path(insomnia_web.parse_manifest({}).web.cache.path).expanduser()
    assert "insomnia-web-home-" in str(default)
