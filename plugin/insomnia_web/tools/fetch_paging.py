"""Cutting a page's text into slices the model reads one call at a time.

A slice ends at a line break or a space near its nominal end when there is one, so a word
is never split when that can be avoided; the next slice starts exactly where this one ended.
"""

from __future__ import annotations

import msgspec

from ..errors import ToolError

__all__ = ["PageSlice", "slice_text"]

MAX_BACKTRACK = 2000
"""Furthest a slice end moves back (at most a fifth of the slice) to reach a boundary."""


class PageSlice(msgspec.Struct, frozen=True, kw_only=True):
    """One slice ``text[start:end]`` of a page text of ``total`` characters."""

    text: str
    start: int
    end: int
    total: int

    @property
    def truncated(self) -> bool:
        """More text follows this slice."""
        return self.end < self.total

    @property
    def next_start(self) -> int | None:
        """Where the next slice starts; None at the end."""
        return self.end if self.truncated else None


def _boundary(text: str, start: int, end: int, max_chars: int) -> int:
    """The end of the slice: after the last line break, else space, near *end*."""
    low = max(start + 1, end - min(MAX_BACKTRACK, max_chars // 5))
    for sep in ("\n", " "):
        at = text.rfind(sep, low, end)
        if at != -1:
            return at + 1
    return end


def slice_text(text: str, start: int, max_chars: int) -> PageSlice:
    """The slice of *text* from *start*, at most *max_chars* long.

    Raises ``invalid_input`` naming ``$.start_index`` when *start* is past the end (a start
    of 0 on an empty text is an empty slice).
    """
    total = len(text)
    if start > 0 and start >= total:
        raise ToolError(
            "invalid_input",
            f"$.start_index: {start} is past the end of the page text ({total} characters).",
            hint=f"Use a start_index below {total}, or 0 to read from the beginning.",
            details={"field": "$.start_index", "total_chars": total},
        )
    end = min(start + max_chars, total)
    if end < total:
        end = _boundary(text, start, end, max_chars)
    return PageSlice(text=text[start:end], start=start, end=end, total=total)
