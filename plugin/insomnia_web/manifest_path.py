"""Where the manifest comes from when no path is given in code.

In order, the first that applies wins:

1. an explicit path (``--manifest FILE``);
2. ``$INSOMNIA_WEB_MANIFEST``;
3. ``$XDG_CONFIG_HOME/insomnia-web/insomnia.toml`` (``~/.config/insomnia-web/insomnia.toml``
   when ``XDG_CONFIG_HOME`` is unset, empty or relative: the XDG spec says to ignore a
   relative one, which would read a manifest from the working directory);
4. the built-in defaults (no file).

An explicit path or the environment variable must name a readable file (a missing one is an
error, not a silent fall-through); the user's file is used only when it exists. A leading
``~`` in a named path means the home directory: an MCP client starts the server with its
arguments as written, with no shell to expand it.

The home directory is ``$HOME`` when that is an absolute path; a relative or empty one
(``HOME=.``) names no home, and the password database's is used (:func:`home_dir`): the
user's cache, manifest and history would otherwise be read from the working directory.

An ``insomnia.toml`` in the working directory is read only when named (``--manifest
./insomnia.toml`` or the environment variable), as curl, pip and gh read no configuration
from the working directory: an agent often runs in a repository it did not write, and a
manifest there could name the variable a search key is read from and the server it is sent
to, a proxy, the history file or the permission rules. :func:`working_dir_manifest` finds
such a file for ``doctor`` to mention.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import msgspec

__all__ = [
    "DEFAULT_CACHE_PATH",
    "DEFAULT_MANIFEST_NAME",
    "MANIFEST_ENV",
    "ManifestSource",
    "cache_file",
    "expand_home",
    "find_manifest",
    "home_dir",
    "user_manifest_path",
    "working_dir_manifest",
]

DEFAULT_MANIFEST_NAME = "insomnia.toml"
MANIFEST_ENV = "INSOMNIA_WEB_MANIFEST"
DEFAULT_CACHE_PATH = "~/.cache/insomnia-web/cache.sqlite3"
"""``web.cache.path``'s default, which :func:`cache_file` moves under ``$XDG_CACHE_HOME``."""


class ManifestSource(msgspec.Struct, frozen=True, kw_only=True):
    """The manifest file chosen (``None``: built-in defaults) and why it was chosen."""

    path: Path | None
    origin: str
    """``--manifest``, ``$INSOMNIA_WEB_MANIFEST``, ``user config`` or ``built-in defaults``."""


def _xdg_dir(name: str, fallback: str, env: Mapping[str, str]) -> Path:
    """``$name`` when it is an absolute path, else ``~/fallback``: the XDG Base Directory
    spec says to ignore a relative one, which would name a folder of the working directory."""
    base = env.get(name) or ""
    return Path(base) if Path(base).is_absolute() else home_dir(env) / fallback


def user_manifest_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/insomnia-web/insomnia.toml``, defaulting to ``~/.config``.

    A relative ``$XDG_CONFIG_HOME`` is ignored (:func:`_xdg_dir`): the working directory's
    manifest is read only when named."""
    env = os.environ if env is None else env
    return _xdg_dir("XDG_CONFIG_HOME", ".config", env) / "insomnia-web" / DEFAULT_MANIFEST_NAME


def cache_file(path: str, env: Mapping[str, str] | None = None) -> Path:
    """The SQLite cache file ``web.cache.path`` names: the default
    (:data:`DEFAULT_CACHE_PATH`) is ``$XDG_CACHE_HOME/insomnia-web/cache.sqlite3``
    (``~/.cache`` when that is unset, empty or relative); a path the manifest sets is used
    as written, a leading ``~`` meaning the home directory."""
    env = os.environ if env is None else env
    if path == DEFAULT_CACHE_PATH:
        return _xdg_dir("XDG_CACHE_HOME", ".cache", env) / "insomnia-web" / "cache.sqlite3"
    return expand_home(path, env)


def working_dir_manifest(cwd: Path | None = None) -> Path | None:
    """``./insomnia.toml`` when the working directory (or *cwd*) holds one: it is not read
    unless named (see this module's docstring)."""
    local = (cwd or Path.cwd()) / DEFAULT_MANIFEST_NAME
    return local if local.is_file() else None


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's home: ``$HOME`` (of *env*, else of the process) when it is an absolute
    path, else the password database's entry for this user (a relative ``$HOME`` would
    name a folder of the working directory, an empty one the file system's root)."""
    for home in ((env or {}).get("HOME"), os.environ.get("HOME")):
        if home and os.path.isabs(home):
            return Path(home)
    try:
        import pwd
    except ImportError:  # pragma: no cover - Windows: no $HOME convention to distrust
        return Path.home()
    return Path(pwd.getpwuid(os.getuid()).pw_dir)


def expand_home(text: str, env: Mapping[str, str] | None = None) -> Path:
    """*text* as a path, a leading ``~`` or ``~/`` meaning :func:`home_dir` (``~user``
    meaning that user's home)."""
    if text == "~" or text.startswith("~/"):
        return home_dir(env) / text[2:]
    return Path(text).expanduser()


def find_manifest(
    explicit: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None
) -> ManifestSource:
    """The manifest to load, following the search order of this module's docstring."""
    env = os.environ if env is None else env
    if explicit is not None:
        return ManifestSource(path=expand_home(os.fspath(explicit), env), origin="--manifest")
    named = env.get(MANIFEST_ENV) or ""
    if named:
        return ManifestSource(path=expand_home(named, env), origin=f"${MANIFEST_ENV}")
    user = user_manifest_path(env)
    if user.is_file():
        return ManifestSource(path=user, origin="user config")
    return ManifestSource(path=None, origin="built-in defaults")
