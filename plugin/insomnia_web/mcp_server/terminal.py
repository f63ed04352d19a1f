"""The client's messages read from a terminal, so that Ctrl-C stops the server at once.

The MCP SDK reads stdin in a worker thread that a cancellation waits for. From a client's
pipe that read ends when the client closes it; from a terminal (a person who started
``insomnia-web mcp`` by hand) it lasts until the person presses Enter, so Ctrl-C cancelled
the server but the process went on waiting. Here each line is read on a daemon thread: a
cancelled read is left behind, and the process exits without waiting for it. The thread
reads the descriptor through an object of its own, so nothing at exit waits on a lock it
holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
import threading

import anyio

__all__ = ["TerminalInput", "terminal_input"]


def _settle(line: asyncio.Future[str], text: str, error: BaseException | None) -> None:
    if line.done():  # the read was cancelled: nobody waits for it
        return
    if error is not None:
        line.set_exception(error)
    else:
        line.set_result(text)


class TerminalInput(anyio.AsyncFile[str]):
    """Lines of a terminal, each read on a daemon thread that a cancellation leaves behind."""

    async def readline(self) -> str:
        """The next line ("" at the end of input: Ctrl-D)."""
        loop = asyncio.get_running_loop()
        line: asyncio.Future[str] = loop.create_future()

        def read() -> None:
            text, error = "", None
            try:
                text = self.wrapped.readline()
            except Exception as exc:  # handed to the reader: the read failed
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is done
                loop.call_soon_threadsafe(_settle, line, text, error)

        threading.Thread(target=read, name="insomnia-web terminal input", daemon=True).start()
        return await line


def terminal_input() -> TerminalInput | None:
    """The server's input when stdin is a terminal; ``None`` (the SDK's own reader) else."""
    try:
        if not sys.stdin.isatty():
            return None
        raw = io.FileIO(sys.stdin.fileno(), "r", closefd=False)
    except (AttributeError, OSError, ValueError):  # no usable stdin
        return None
    return TerminalInput(io.TextIOWrapper(raw, encoding="utf-8", errors="replace"))
