"""Where the SQLite cache lives: ``$XDG_CACHE_HOME/insomnia-web/cache.sqlite3`` by default
(``~/.cache`` when that is unset, empty or relative), or the manifest's ``web.cache.path``."""

from __future__ import annotations

import json
import os
import pwd
from pathlib import Path

import pytest

from insomnia_web.cache import Cache
from insomnia_web.history import JsonlHistory
from insomnia_web.manifest_path import DEFAULT_CACHE_PATH, cache_file, user_manifest_path

from .support import run


def test_the_default_cache_follows_xdg_cache_home(tmp_path: Path) -> None:
    """The default file is under $XDG_CACHE_HOME when it is an absolute path."""
    env = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    expected = tmp_path / "xdg" / "insomnia-web" / "cache.sqlite3"
    assert cache_file(DEFAULT_CACHE_PATH, env) == expected


def test_without_xdg_cache_home_the_default_is_under_dot_cache(tmp_path: Path) -> None:
    """Unset, empty or relative $XDG_CACHE_HOME: ~/.cache (a relative one is ignored, as the
    XDG spec says, or the cache would move with the working directory)."""
    home = tmp_path / "home"
    expected = home / ".cache" / "insomnia-web" / "cache.sqlite3"
    for xdg in ({}, {"XDG_CACHE_HOME": ""}, {"XDG_CACHE_HOME": "rel/cache"}):
        assert cache_file(DEFAULT_CACHE_PATH, {"HOME": str(home), **xdg}) == expected


def test_a_path_the_manifest_sets_is_used_as_written(tmp_path: Path) -> None:
    """web.cache.path set in a manifest wins over $XDG_CACHE_HOME (a leading ~ is home)."""
    env = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert cache_file("~/c.sqlite3", env) == tmp_path / "home" / "c.sqlite3"
    assert cache_file(str(tmp_path / "c.sqlite3"), env) == tmp_path / "c.sqlite3"


def test_the_cli_keeps_its_cache_under_xdg_cache_home(tmp_path: Path) -> None:
    """`insomnia-web cache stats --json` reports the file under $XDG_CACHE_HOME."""
    xdg = tmp_path / "xdg"
    done = run("cache", "stats", "--json", cwd=tmp_path, env={"XDG_CACHE_HOME": str(xdg)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["path"] == str(xdg / "insomnia-web" / "cache.sqlite3")


def test_a_relative_or_empty_home_is_not_the_home_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative $HOME (``HOME=.``) or an empty one names no home: the user's home from the
    password database is used, so the default cache, the user manifest and a ``~`` path
    never name a folder of the working directory (a repository's ``.cache`` or ``.config``
    would be the user's cache and manifest)."""
    monkeypatch.chdir(tmp_path)
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    for value in (".", "work", ""):
        env = {"HOME": value}
        monkeypatch.setenv("HOME", value)
        assert cache_file(DEFAULT_CACHE_PATH, env) == home / ".cache/insomnia-web/cache.sqlite3"
        assert cache_file("~/c.sqlite3", env) == home / "c.sqlite3"
        assert user_manifest_path(env) == home / ".config/insomnia-web/insomnia.toml"
        assert JsonlHistory("~/h.jsonl").path == home / "h.jsonl"
        assert Cache("~/c.sqlite3").path == home / "c.sqlite3"
