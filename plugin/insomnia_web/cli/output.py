"""Where the CLI writes: results on stdout; errors, warnings and progress on stderr.

A failed tool call prints its error text (``Error [code]: ...`` and the hint) on stderr and
nothing on stdout, so ``insomnia-web fetch URL > page.md`` never writes an error into the
file. With ``--json`` the whole result, failure included, is one JSON object on stdout, and a
failure's error text is on stderr as well: a person watching ``... --json | jq`` sees it.
"""

from __future__ import annotations

import sys
from typing import TextIO

import msgspec

from ..history import Event, ProgressEvent
from ..runtime import ToolResult

__all__ = ["StderrProgress", "is_terminal", "print_result", "warn"]


def is_terminal(stream: TextIO) -> bool:
    """Whether *stream* is a terminal (False for closed or fd-less streams)."""
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


def warn(message: str, err: TextIO | None = None) -> None:
    """``insomnia-web: MESSAGE`` on stderr."""
    (err or sys.stderr).write(f"insomnia-web: {message}\n")


def print_result(
    result: ToolResult,
    *,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    text: str | None = None,
) -> int:
    """Print *result* (its *text* when given) and return the exit status: 0 ok, 1 error.

    A failure's text goes to *err*; with *as_json* the whole result also goes to *out*.
    """
    if as_json:
        out.write(msgspec.json.encode(result).decode() + "\n")
    elif result.ok:
        out.write((text if text is not None else result.text).rstrip("\n") + "\n")
    if not result.ok:
        err.write(result.text.rstrip("\n") + "\n")
    return 0 if result.ok else 1


class StderrProgress:
    """A history sink that shows progress events on a terminal's stderr.

    On a terminal, progress is one status line rewritten in place (``\\r``) and erased when
    the call ends; elsewhere (a pipe, a log file) nothing is shown, so stderr holds only
    errors and warnings. *live* overrides the terminal check.
    """

    def __init__(self, stream: TextIO | None = None, *, live: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.live = is_terminal(self.stream) if live is None else live
        self._shown = False

    def append(self, event: Event) -> None:
        """Show progress events; ignore the others."""
        if not isinstance(event, ProgressEvent):
            return
        count = f" ({event.done}/{event.total})" if event.total else ""
        line = f"{event.message}{count}"
        if self.live:
            self.stream.write(f"\r\x1b[K{line}")
            self.stream.flush()
            self._shown = True

    def finish(self) -> None:
        """Erase the status line, so the result or an error starts on a clean line."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
