"""Progress of one slow download, as ``progress`` events: bytes so far and time elapsed.

A fast page reports nothing; once a download has run for :data:`FIRST_AFTER_S`, a progress
event is appended at most every :data:`EVERY_S` while bytes arrive, so a person watching a
terminal (or an MCP client) sees that a slow fetch is moving, and the history is not flooded.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["EVERY_S", "FIRST_AFTER_S", "DownloadProgress", "format_bytes"]

FIRST_AFTER_S = 1.0
"""A download shorter than this reports no progress at all."""

EVERY_S = 0.5
"""Least time between two progress events of one download."""


def format_bytes(n: int) -> str:
    """``512 bytes``, ``12.3 KiB``, ``4.5 MiB``."""
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.1f} MiB"


class DownloadProgress:
    """An ``on_bytes`` callback for :meth:`SafeClient.fetch` that reports through *report*."""

    def __init__(
        self,
        url: str,
        report: Callable[[str], None],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.report = report
        self.clock = clock
        self.started = clock()
        self._last: float | None = None

    def __call__(self, done: int) -> None:
        """Bytes read so far: report them if the download is slow and a report is due."""
        now = self.clock()
        elapsed = now - self.started
        if elapsed < FIRST_AFTER_S:
            return
        if self._last is not None and now - self._last < EVERY_S:
            return
        self._last = now
        self.report(f"downloading {self.url}: {format_bytes(done)}, {elapsed:.1f} s")
