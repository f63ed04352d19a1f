"""Last touches on the serialized text: a line said twice.

Pages print a short line twice in a row: a comparison grid repeats its row label in every
cell for small screens ("Bit Count", "Bit Count"), a product card prints its name as an
image caption and as a link. A short line that repeats the line just before it (blank lines
between, Markdown marks aside) is a copy and goes. A line that is one text twice over
("EUR 20.99EUR 20.99": a screen reader's copy beside the visible one) keeps one half.

Fenced code and Markdown table rows are never touched: they repeat lines on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .words import count_words

__all__ = ["drop_adjacent_repeats", "drop_doubled_lines", "finish_lines"]

# A line repeating the one before it goes when it has at most this many words (a label, a
# name, a heading; a longer line said twice may be a refrain).
MAX_REPEATED_LINE_WORDS = 10
# Markdown marks that do not change what a line says ("## Dimensions" repeats "Dimensions").
_LINE_MARKS_RE = re.compile(r"^[#>*\-\s]+")
_BLANK_RUN_RE = re.compile(r"\n{3,}")
# A line doubled over keeps one half when that half has at least this many words ("Leong
# Leong" is a name; "EUR 20.99EUR 20.99" and "Talk to us Talk to us" are copies).
MIN_DOUBLED_WORDS = 2


def _prose_flags(lines: list[str]) -> Iterator[bool]:
    """For each line, True when it is prose: not inside a code fence, not a table row."""
    fence = ""
    for line in lines:
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence) and not stripped.strip("`"):
                fence = ""
            yield False
        elif stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
            yield False
        else:
            yield not stripped.startswith("|")


def _line_key(line: str) -> str:
    return _LINE_MARKS_RE.sub("", line).strip()


def drop_adjacent_repeats(text: str) -> str:
    """*text* without short lines that repeat the line before them (blank lines between)."""
    lines = text.split("\n")
    kept: list[str] = []
    previous = ""
    for line, prose in zip(lines, _prose_flags(lines), strict=True):
        key = _line_key(line) if prose else ""
        words = count_words(key)
        if key and key == previous and 0 < words <= MAX_REPEATED_LINE_WORDS:
            continue
        if line.strip():
            previous = key
        kept.append(line)
    if len(kept) == len(lines):
        return text
    return _BLANK_RUN_RE.sub("\n\n", "\n".join(kept))


def _undoubled(line: str) -> str:
    """*line* with its text once when it is that text twice over (glued or space-joined)."""
    body = _LINE_MARKS_RE.sub("", line)
    marks = line[: len(line) - len(body)]
    half, rest = divmod(len(body), 2)
    first, second = body[:half], body[half + rest :]
    if rest and body[half] != " ":
        return line
    if first != second or count_words(first) < MIN_DOUBLED_WORDS:
        return line
    return marks + first


def drop_doubled_lines(text: str) -> str:
    """*text* with each prose line that says one text twice over cut to one copy."""
    lines = text.split("\n")
    return "\n".join(
        _undoubled(line) if prose else line
        for line, prose in zip(lines, _prose_flags(lines), strict=True)
    )


def finish_lines(text: str) -> str:
    """*text* with doubled lines cut to one copy and short repeated lines dropped."""
    return drop_adjacent_repeats(drop_doubled_lines(text))
