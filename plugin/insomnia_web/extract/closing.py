"""Closing calls to action: the lines after a story that ask the reader to subscribe.

Sites end a story with a prompt of their own: sign up for the newsletter, follow us on
social media, download the app, subscribe for the full story, become a member. The prompt is
a short line of its own among the last lines of the text; what marks it is visible text, so
it is read from :data:`.rules.PHRASES` (``closing_line``, searched within the line) in the
page's language. A forum thread keeps its lines: a post may say anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import matches
from .words import count_words

__all__ = ["CLOSING_LINES", "ClosingLines", "drop_closing_lines"]


@dataclass(frozen=True)
class ClosingLines:
    """Where a closing call to action sits, and how long it is (:func:`drop_closing_lines`)."""

    last_lines: int = 12
    """Only the last this many non-empty lines are read: a story's prompts follow its text
    (a newsletter box, a social media line, the subscription wall's note)."""
    max_words: int = 30
    """A line longer than this is prose that mentions a newsletter, not a prompt."""


CLOSING_LINES = ClosingLines()


def _is_prompt(line: str, language: str, rule: ClosingLines) -> bool:
    """True when *line* is short and holds one of the ``closing_line`` phrases."""
    return count_words(line) <= rule.max_words and matches("closing_line", language, line)


def drop_closing_lines(text: str, language: str | None, rule: ClosingLines = CLOSING_LINES) -> str:
    """Drop the calls to subscribe or follow among the last lines of *text*."""
    if language is None:
        return text
    lines = text.split("\n")
    filled = [n for n, line in enumerate(lines) if line.strip()]
    doomed = {n for n in filled[-rule.last_lines :] if _is_prompt(lines[n], language, rule)}
    if not doomed:
        return text
    return "\n".join(line for n, line in enumerate(lines) if n not in doomed)
