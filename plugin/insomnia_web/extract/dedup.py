"""Repeats: what makes two texts the same, and the rules that read a repeated text once.

Every rule that drops a copy compares texts through :func:`repeat_key` (lowercase words, as
:func:`~.words.word_list` finds them, one space between: case, punctuation, Markdown marks
and spacing never make two copies differ) or through runs of those words
(:func:`word_runs`, for copies that differ in a word or two). The rules that walk the tree
(a block said twice, :mod:`.tidy`; a card's name printed again, :mod:`.cards`; a quote of
an earlier post, :mod:`.forum`) use them there; the rules on the serialized text live here:

- a short line that repeats the line just before it (blank lines between) goes: a
  comparison grid repeats its row label in every cell for small screens ("Bit Count", "Bit
  Count"), a product card prints its name as an image caption and as a link;
- a line that is one text twice over ("EUR 20.99EUR 20.99": a screen reader's copy beside
  the visible one) keeps one half;
- on a product page, a sentence that repeats nearly word for word an earlier sentence of its
  paragraph goes (a marketplace field holding the publisher's blurb three times).

Fenced code and Markdown table rows are never touched: they repeat lines on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .words import more_runs_than, sentences, word_list

__all__ = [
    "REPEATS",
    "Repeats",
    "drop_adjacent_repeats",
    "drop_doubled_lines",
    "drop_repeated_sentences",
    "finish_lines",
    "repeat_key",
    "word_runs",
]


@dataclass(frozen=True)
class Repeats:
    """How long a repeat must be before a rule reads it once."""

    max_repeated_line_words: int = 10
    """A line repeating the one before it goes when it has at most this many words (a label,
    a name, a heading; a longer line said twice may be a refrain)."""
    min_doubled_words: int = 2
    """A line doubled over keeps one half when that half has at least this many words
    ("Leong Leong" is a name; "EUR 20.99EUR 20.99" and "Talk to us Talk to us" are copies)."""
    min_sentence_words: int = 8
    """A sentence of at least this many words repeats an earlier one of its paragraph ..."""
    min_repeated_share: float = 0.8
    """... when this share of its word triples appeared before (copies differ in dashes,
    quotes and mojibake)."""


REPEATS = Repeats()


def repeat_key(text: str) -> str:
    """*text* as every repeat rule compares it: its lowercase words, one space between."""
    return " ".join(word_list(text))


def word_runs(words: list[str], size: int) -> list[tuple[str, ...]]:
    """The runs of *size* consecutive *words* (none when there are fewer words)."""
    return [tuple(words[i : i + size]) for i in range(len(words) - size + 1)]


# Markdown marks before a line's text (kept when a doubled line is cut to one copy).
_LINE_MARKS_RE = re.compile(r"^[#>*\-\s]+")
_BLANK_RUN_RE = re.compile(r"\n{3,}")


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


def _prose(text: str, lines: list[str]) -> list[bool]:
    """:func:`_prose_flags` of *text*'s *lines*: a text without a fence or a pipe has neither
    code nor table rows, and every line of it is prose."""
    if "```" not in text and "|" not in text:
        return [True] * len(lines)
    return list(_prose_flags(lines))


def _short_key(line: str, limit: int) -> str | None:
    """:func:`repeat_key` of *line* when it has at most *limit* words, else ``None``.

    A line is read only as far as its first words: a paragraph is not split whole.
    """
    if more_runs_than(line, limit):
        return None
    key = repeat_key(line)
    return key if not key or key.count(" ") < limit else None


def _without_adjacent_repeats(lines: list[str], prose: list[bool]) -> list[str]:
    """*lines* without the short prose lines that repeat the line before them (blank lines
    between)."""
    kept: list[str] = []
    previous: str | None = ""  # None: a line too long to be dropped, equal to no short one
    for line, is_prose in zip(lines, prose, strict=True):
        if not line.strip():  # no words to repeat, and no line to compare the next one with
            kept.append(line)
            continue
        key = _short_key(line, REPEATS.max_repeated_line_words) if is_prose else ""
        if key and key == previous:
            continue
        previous = key
        kept.append(line)
    return kept


def _joined(text: str, lines: list[str], kept: list[str]) -> str:
    """*kept* (*text*'s *lines* less some) as one text, or *text* when none went."""
    if len(kept) == len(lines):
        return text
    return _BLANK_RUN_RE.sub("\n\n", "\n".join(kept))


def drop_adjacent_repeats(text: str) -> str:
    """*text* without short lines that repeat the line before them (blank lines between)."""
    lines = text.split("\n")
    return _joined(text, lines, _without_adjacent_repeats(lines, _prose(text, lines)))


def _undoubled(line: str) -> str:
    """*line* with its text once when it is that text twice over (glued or space-joined)."""
    if not line.strip():
        return line
    body = _LINE_MARKS_RE.sub("", line)
    marks = line[: len(line) - len(body)]
    half, rest = divmod(len(body), 2)
    first, second = body[:half], body[half + rest :]
    if rest and body[half] != " ":
        return line
    if first != second or len(word_list(first)) < REPEATS.min_doubled_words:
        return line
    return marks + first


def _undoubled_lines(lines: list[str], prose: list[bool]) -> list[str]:
    return [  # an empty line (every other line of a text) is left as it is
        _undoubled(line) if is_prose and line else line
        for line, is_prose in zip(lines, prose, strict=True)
    ]


def drop_doubled_lines(text: str) -> str:
    """*text* with each prose line that says one text twice over cut to one copy."""
    lines = text.split("\n")
    return "\n".join(_undoubled_lines(lines, _prose(text, lines)))


def finish_lines(text: str) -> str:
    """*text* with doubled lines cut to one copy and short repeated lines dropped.

    Lines are split and told prose once: cutting a line to one copy keeps its marks and its
    first characters, so it stays prose or not as it was.
    """
    lines = text.split("\n")
    prose = _prose(text, lines)
    undoubled = _undoubled_lines(lines, prose)
    return _joined("\n".join(undoubled), lines, _without_adjacent_repeats(undoubled, prose))


def _repeats(words: list[str], seen: set[tuple[str, ...]]) -> bool:
    """True when most of *words*' triples are in *seen*; else they are added to it."""
    triples = set(word_runs(words, 3))
    if len(triples & seen) >= REPEATS.min_repeated_share * len(triples):
        return True
    seen |= triples
    return False


def _drop_repeats_in_line(line: str) -> str:
    """*line* without the sentences that repeat an earlier sentence of it."""
    parts = sentences(line)
    if len(parts) < 2:
        return line
    seen: set[tuple[str, ...]] = set()
    kept = [
        sentence
        for sentence in parts
        if len(words := word_list(sentence)) < REPEATS.min_sentence_words
        or not _repeats(words, seen)
    ]
    return line if len(kept) == len(parts) else " ".join(kept)


def drop_repeated_sentences(text: str) -> str:
    """*text* without sentences that repeat, nearly word for word, one of their paragraph."""
    return "\n".join(_drop_repeats_in_line(line) for line in text.split("\n"))
