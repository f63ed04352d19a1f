"""Closing calls to action: the lines after a story that ask the reader to subscribe.

Sites end a story with a prompt of their own: sign up for the newsletter, follow us on
social media, download the app, subscribe for the full story, become a member. The prompt is
a short line of its own among the last lines of the text; what marks it is visible text, so
it is read from :data:`.rules.PHRASES` (``closing_line``, searched within the line) in the
page's language. A forum thread keeps its lines: a post may say anything.

A section of related stories or of more from the column loses its links as chrome and can
leave its heading behind, the text's last line: a heading with nothing under it after the
story's last long section goes too (:func:`drop_trailing_heading`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .rules import matches
from .words import count_words

__all__ = [
    "CLOSING_LINES",
    "TRAILING_HEADING",
    "ClosingLines",
    "TrailingHeading",
    "drop_closing_lines",
    "drop_trailing_heading",
]


@dataclass(frozen=True)
class ClosingLines:
    """Where a closing call to action sits, and how long it is (:func:`drop_closing_lines`)."""

    last_lines: int = 12
    """Only the last this many non-empty lines are read: a story's prompts follow its text
    (a newsletter box, a social media line, the subscription wall's note)."""
    max_words: int = 30
    """A line longer than this is prose that mentions a newsletter, not a prompt."""


CLOSING_LINES = ClosingLines()


@dataclass(frozen=True)
class TrailingHeading:
    """When a heading that ends the text is left over from a section that went
    (:func:`drop_trailing_heading`)."""

    min_words_before: int = 100
    """The text before the heading, back to the heading above it, holds at least this many
    words: the heading follows a story's last section. A listing's or a shop's last card
    title (a heading after a short blurb, a price or another heading) stays."""


TRAILING_HEADING = TrailingHeading()
_HEADING_LINE = re.compile(r"#{1,6} \S")


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


def _words_before(lines: list[str]) -> int:
    """Words of the non-heading lines at the end of *lines*, back to the last heading."""
    words = 0
    for line in reversed(lines):
        if _HEADING_LINE.match(line.strip()):
            break
        words += count_words(line)
    return words


def drop_trailing_heading(text: str, rule: TrailingHeading = TRAILING_HEADING) -> str:
    """Drop the heading that ends *text* after a long section: a heading with nothing under
    it opened a section that went as chrome (related stories, more from the column)."""
    lines = text.rstrip().split("\n")
    if not _HEADING_LINE.match(lines[-1].strip()):
        return text
    if _words_before(lines[:-1]) < rule.min_words_before:
        return text
    return "\n".join(lines[:-1]).rstrip()
