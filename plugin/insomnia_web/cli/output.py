"""Where the CLI writes: results on stdout; errors, warnings and progress on stderr.

A failed tool call prints its error (``Error [code]: message``) on stderr and nothing on
stdout, so ``insomnia-web fetch URL > page.md`` never writes an error into the file. Then,
when a person can fix the cause, the error's remedy after ``help:`` (cargo's word for what
to do; ``hint`` is the JSON field the model reads, which a person is never shown). With
``--json`` the whole result, failure included (hint and remedy), is one JSON object on
stdout, and the error is on stderr as well: a person watching ``... --json | jq`` sees it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

import msgspec

from ..errors import ErrorInfo
from ..history import Event, ProgressEvent
from ..modeltext import one_line
from ..textcheck import terminal_safe, terminal_safe_json

if TYPE_CHECKING:
    from ..runtime import ToolResult

__all__ = ["HELP", "StderrProgress", "advise", "error_text", "is_terminal", "print_result", "warn"]

HELP = "help: "
"""What starts the line that says what a person can do, as in cargo and rustc."""


def is_terminal(stream: TextIO) -> bool:
    """Whether *stream* is a terminal (False for closed or fd-less streams)."""
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


def warn(message: str, err: TextIO | None = None) -> None:
    """``insomnia-web: MESSAGE`` on stderr (terminal controls shown as escapes)."""
    (err or sys.stderr).write(terminal_safe(f"insomnia-web: {message}\n"))


def advise(remedy: str | None, err: TextIO | None = None) -> None:
    """``help: REMEDY`` on stderr, when there is a remedy."""
    if remedy:
        (err or sys.stderr).write(terminal_safe(HELP + one_line(remedy)) + "\n")


def error_text(error: ErrorInfo) -> str:
    """A failure as a person reads it: ``Error [code]: message``, the wait a retry needs, and
    the remedy after ``help:``; never the hint written for the model."""
    lines = [f"Error [{error.code}]: {one_line(error.message)}"]
    if error.retry_after_s is not None:
        lines.append(f"Retry after: {error.retry_after_s:g} s")
    if error.remedy:
        lines.append(HELP + one_line(error.remedy))
    return "\n".join(lines)


def print_result(
    result: ToolResult,
    *,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    text: str | None = None,
) -> int:
    """Print *result* (its *text* when given) and return the exit status: 0 ok, 1 error.

    Text holds web content: its terminal controls are shown as escapes (JSON escapes them).
    A failure goes to *err* as :func:`error_text`; with *as_json* the whole result also goes
    to *out*.
    """
    if as_json:
        out.write(terminal_safe_json(msgspec.json.encode(result).decode()) + "\n")
    elif result.ok:
        out.write(terminal_safe((text if text is not None else result.text).rstrip("\n")) + "\n")
    if not result.ok:
        said = result.text if result.error is None else error_text(result.error)
        err.write(terminal_safe(said.rstrip("\n")) + "\n")
    return 0 if result.ok else 1


class StderrProgress:
    """A history sink that shows progress events on a terminal's stderr.

    On a terminal, progress is one status line rewritten in place (``\\r``) and erased when
    the call ends; elsewhere (a pipe, a log file) nothing is shown, so stderr holds only
    errors and warnings. *live* overrides the terminal check. A ``TERM=dumb`` terminal
    (*dumb*; read from *env* by default) gets no escape sequence: the line is rewritten
    over spaces, as git does.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        live: bool | None = None,
        dumb: bool | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.stream = stream or sys.stderr
        self.live = is_terminal(self.stream) if live is None else live
        terminal = (os.environ if env is None else env).get("TERM", "")
        self.dumb = terminal == "dumb" if dumb is None else dumb
        self._shown = 0  # the widest status line written since the last erase; 0: none

    def append(self, event: Event) -> None:
        """Show progress events; ignore the others."""
        if not isinstance(event, ProgressEvent):
            return
        count = f" ({event.done}/{event.total})" if event.total else ""
        line = terminal_safe(f"{event.message}{count}").replace("\n", " ")
        if self.live:
            self._show(line)

    def _show(self, line: str) -> None:
        if self.dumb:
            self.stream.write(f"\r{line}{' ' * (self._shown - len(line))}")
        else:
            self.stream.write(f"\r\x1b[K{line}")
        self.stream.flush()
        self._shown = max(self._shown, len(line))  # the columns a blank line must cover

    def finish(self) -> None:
        """Erase the status line, so the result or an error starts on a clean line."""
        if self._shown:
            erase = f"\r{' ' * self._shown}\r" if self.dumb else "\r\x1b[K"
            self.stream.write(erase)
            self.stream.flush()
            self._shown = 0
