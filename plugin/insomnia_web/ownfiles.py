"""Files that hold what a user read, and so must be theirs alone to write.

The cache file and the history hold every query, URL and page read. In a folder other users
may write, one of them could make such a file first (to read what is stored, or to plant
what is served), or put a link there to a file of the user's own, which would then be
written with web text. :func:`not_own` says why the file at a path is not the user's own,
and :func:`not_own_folder` why the folder holding it is not the user's alone: whoever may
write in that folder can move the checked file away and put theirs (or a link) in its place,
or make the file SQLite opens beside it (a WAL file) between the check and the open.
:func:`not_trusted_file` says why settings read from a file (the manifest) could be
another user's.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

__all__ = ["not_own", "not_own_folder", "not_own_stat", "not_trusted_file"]


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


def _owner_problem(info: os.stat_result) -> str | None:
    """Why a folder (or a link to one) is another user's: neither this user's nor root's."""
    geteuid = getattr(os, "geteuid", None)  # absent on Windows
    if geteuid is None or info.st_uid in (geteuid(), 0):
        return None
    link = stat.S_ISLNK(info.st_mode)
    return f"{'is a link made by' if link else 'belongs to'} another user (uid {info.st_uid})"


def _statuses(path: Path) -> Iterator[os.stat_result]:
    """*path*'s own status (a link's own), then its target's, as far as they exist."""
    for follow in (False, True):
        try:
            yield path.stat(follow_symlinks=follow)
        except FileNotFoundError:
            return


def _owned(path: Path) -> tuple[str | None, os.stat_result | None]:
    """Why *path*, or a link in its place, is another user's (:func:`_owner_problem`), or
    None; and the status of what it names (None when nothing, or a link to nothing, is
    there)."""
    statuses = list(_statuses(path))
    for info in statuses:
        problem = _owner_problem(info)
        if problem is not None:
            return problem, None
    return None, statuses[1] if len(statuses) == 2 else None


def _folder_problem(folder: Path, *, holds_file: bool) -> str | None:
    """Why *folder* lets another user replace what is in it, or None (also when it does not
    exist). A folder above the file's may be one every user writes in when it is sticky
    (``/tmp``): nobody may then rename or delete what others made in it."""
    problem, info = _owned(folder)
    if problem is not None or info is None:
        return problem
    if info.st_mode & stat.S_IWOTH and (holds_file or not info.st_mode & stat.S_ISVTX):
        return "every user may write in it"
    return None


def not_own_folder(folder: Path) -> str | None:
    """Why files in *folder* could be replaced or planted by another user, or None:
    ``"/srv/x every user may write in it"``.

    *folder*, and each folder above it as written and as links resolve it, must belong to
    this user or to root and be a link only if they made it; no other user may write in
    *folder*, nor in a folder above it that is not sticky.
    """
    written = Path(os.path.abspath(folder))
    for path in (written, Path(os.path.realpath(written))):
        for each in (path, *path.parents):
            problem = _folder_problem(each, holds_file=each == path)
            if problem is not None:
                return f"{each} {problem}"
    return None


def not_own(path: Path) -> str | None:
    """Why *path* is not this user's own file to write (a link another user made there, or
    a file another user owns or every user may write), or None (also when nothing is there)."""
    for info in _statuses(path):
        problem = not_own_stat(info)
        if problem is not None:
            return problem
    return None


def not_trusted_file(path: Path) -> str | None:
    """Why settings read from *path* (a manifest) could have been written by another user,
    or None (also when nothing is there): the file, or a link in its place, belongs to
    another user (root aside), every user may write it, or its folder is not the user's
    alone (:func:`not_own_folder`)."""
    problem, info = _owned(path)
    if problem is not None:
        return f"{path} {problem}"
    if info is None:
        return None
    if info.st_mode & stat.S_IWOTH:
        return f"{path} may be written by every user"
    return not_own_folder(path.parent)
