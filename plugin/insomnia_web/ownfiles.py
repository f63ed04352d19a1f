"""Files that hold what a user read, and so must be theirs alone to write.

The cache file and the history hold every query, URL and page read. In a folder other users
may write, one of them could make such a file first (to read what is stored, or to plant
what is served), or put a link there to a file of the user's own, which would then be
written with web text. :func:`not_own` says why the file at a path is not the user's own.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["not_own", "not_own_stat"]


def not_own_stat(info: os.stat_result) -> str | None:
    """Why the file (or the link, for an ``lstat`` result) *info* describes is not this
    user's own to write (``"belongs to another user (uid 4242)"``), or None."""
    geteuid = getattr(os, "geteuid", None)  # absent on Windows
    link = stat.S_ISLNK(info.st_mode)
    if geteuid is not None and info.st_uid != geteuid():
        what = "is a link made by another user" if link else "belongs to another user"
        return f"{what} (uid {info.st_uid})"
    if not link and info.st_mode & stat.S_IWOTH:
        return "may be written by every user"
    return None


def not_own(path: Path) -> str | None:
    """Why *path* is not this user's own file to write (a link another user made there, or
    a file another user owns or every user may write), or None (also when nothing is there)."""
    for follow in (False, True):
        try:
            info = path.stat(follow_symlinks=follow)
        except FileNotFoundError:
            return None
        problem = not_own_stat(info)
        if problem is not None:
            return problem
    return None
