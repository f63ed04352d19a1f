"""Split extracted page text into passages of about 60-150 words.

The page text is Markdown-like (what the extractor emits): ``#`` headings, ``- `` / ``1.``
list items, ``| a | b |`` table rows, fenced code, and blank-line-separated paragraphs.

1. The text is cut into *units* that are never split: a heading line, a paragraph, a list
   item (with its continuation lines), a table row, a fenced code block.
2. A unit longer than :data:`MAX_WORDS` is the only thing ever cut inside: a paragraph or
   row at sentence ends, a code block at line ends, and a single overlong sentence or line
   every :data:`MAX_WORDS` words.
3. Units are packed in page order. A passage is closed before a unit that would push it over
   :data:`MAX_WORDS`, and before a heading once it holds at least :data:`MIN_WORDS` words, so
   small sections merge but a passage never ends on a dangling heading.

Sizes are counted in words (table bars ``|`` excluded), or as the token estimate / 1.3
when that is larger, so link-heavy text makes smaller passages rather than costly ones.

Every passage records the heading path in force at its first body unit (``"Install >
Linux"``, each title cut to :data:`MAX_HEADING_CHARS`) and exact offsets:
``page_text[start:end]`` is the passage body. When a table is split, a later chunk does not
hold the table's header row, so the passage carries the header row and separator as
``prefix``: the excerpt text is ``prefix + page_text[start:end]`` while ``start``/``end``
still cover only the rows taken from the page.
"""

from __future__ import annotations

import re

import msgspec

from .tokens import BYTES_PER_TOKEN, TOKENS_PER_WORD_X10, utf8_size

__all__ = [
    "MAX_HEADING_CHARS",
    "MAX_WORDS",
    "MIN_WORDS",
    "SENTENCE_END_RE",
    "Passage",
    "split_passages",
]

MIN_WORDS = 60
MAX_WORDS = 150
MAX_HEADING_CHARS = 80
"""Longer heading titles are cut (with "…") in the heading path; the page text is untouched."""

_HEADING_RE = re.compile(r"#{1,6}\s")
_ITEM_RE = re.compile(r"(?:[-*+•]|\d{1,3}[.)])\s")
_FENCE_RE = re.compile(r"(```|~~~)")
SENTENCE_END_RE = re.compile(
    r"(?<=[.!?…])(?<!\b[A-Z]\.)(?<!\b[A-Z][a-z]\.)(?<!\b[A-Z][a-z]{2}\.)"
    r"[\"')\]]*\s+"  # a Latin stop, closing quotes or brackets, then space
    r"|(?<=[。！？])[」』）]*\s*"  # noqa: RUF001 - a CJK stop: no space follows it
)
"""Where a sentence ends (the space after it is matched too); shared by :mod:`.window`.

A stop after a capital and at most two lower-case letters (``Mr.``, ``Dr.``, ``St.``,
``Inc.``, the ``S.`` of ``U.S.``) ends no sentence: those are abbreviations far more often
than the last word of a sentence, and a passage cut after them ends mid-sentence. Two
sentences read as one cost less than a sentence cut in two."""
# Bytes per word, x10, as the token estimator counts them (bytes per token x tokens per word).
_BYTES_PER_WORD_X10 = BYTES_PER_TOKEN * TOKENS_PER_WORD_X10
_LINE_END_RE = re.compile(r"\n")
_TOKEN_RE = re.compile(r"\S+")


class Passage(msgspec.Struct, frozen=True, kw_only=True):
    """A span of page text ranked and returned as one excerpt."""

    start: int
    """Offset of the first character of the body in the page text."""
    end: int
    """Offset just past the body: ``page_text[start:end]`` is the body."""
    heading: str | None
    """Heading path in force at the passage, outermost first, joined by ``" > "``."""
    prefix: str = ""
    """Text shown before the body: a split table's header row and separator, else empty."""
    index: int = 0
    """Position of the passage on its page (0 = the lead)."""

    def text(self, page_text: str) -> str:
        """Return the excerpt text: ``prefix`` followed by the body taken from *page_text*."""
        return self.prefix + page_text[self.start : self.end]


class _Unit(msgspec.Struct, kw_only=True):
    start: int
    end: int
    words: int
    kind: str  # "heading" | "block" | "row"
    heading: str | None
    table_header: str = ""  # for body rows of a table with a header: header + separator
    lead_in: bool = False  # introduces what follows: a heading or a table header row


def _count_words(text: str, start: int, end: int) -> int:
    """Size of ``text[start:end]`` in words: whitespace-separated words, not counting table
    bars (``|``), or the token estimate / 1.3 when that is larger (link-heavy text)."""
    segment = text[start:end]
    words = len(segment.split()) - segment.count("|")
    return max(words, utf8_size(segment) * 10 // _BYTES_PER_WORD_X10)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """Narrow ``[start, end)`` to exclude leading and trailing whitespace."""
    if start < end and not text[start].isspace() and not text[end - 1].isspace():
        return start, end
    segment = text[start:end]
    body = segment.lstrip()
    start += len(segment) - len(body)
    return start, start + len(body.rstrip())


_LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_ITEM_START = frozenset("-*+•0123456789")


class _Scanner:
    """Turns page text into units, tracking the heading path."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.units: list[_Unit] = []
        self.headings: list[tuple[int, str]] = []
        self.path: str | None = None
        self.block_start = -1
        self.block_end = -1
        self.table_header = ""
        self.table_rows = 0

    def add(self, start: int, end: int, kind: str, table_header: str = "") -> None:
        start, end = _trimmed(self.text, start, end)
        if start < end:
            words = _count_words(self.text, start, end)
            self.units.append(
                _Unit(
                    start=start, end=end, words=words, kind=kind, heading=self.path,
                    table_header=table_header, lead_in=kind == "heading",
                )
            )  # fmt: skip

    def close_block(self) -> None:
        if self.block_start >= 0:
            self.add(self.block_start, self.block_end, "block")
        self.block_start = -1

    def heading(self, start: int, end: int, line: str) -> bool:
        match = _HEADING_RE.match(line)
        if not match:
            return False
        title = line[match.end() :].strip()
        unclosed = title.rstrip("#")
        if unclosed != title and (not unclosed or unclosed[-1].isspace()):
            title = unclosed.rstrip()  # a closing sequence: "## Title ##"
        if not title:
            return False
        self.close_block()
        level = match.end() - 1
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if len(title) > MAX_HEADING_CHARS:
            title = title[: MAX_HEADING_CHARS - 1].rstrip() + "…"
        self.headings.append((level, title))
        self.path = " > ".join(title for _, title in self.headings)
        self.add(start, end, "heading")
        return True

    def scan(self) -> list[_Unit]:
        fence = ""
        pos = 0
        for raw in self.text.splitlines(keepends=True):
            start = pos
            pos += len(raw)
            end = start + len(raw.rstrip(_LINE_BREAKS))
            line = raw.strip()
            if fence:
                self.block_end = end
                if line.startswith(fence):
                    fence = ""
                    self.close_block()
                continue
            if not line:
                self.close_block()
                self.table_rows = 0
                continue
            first = line[0]
            if first == "|":
                self.close_block()
                self.table_row(start, end, line)
                continue
            self.table_rows = 0
            if first == "#" and self.heading(start, end, line):
                continue
            if first in "`~" and (fence_match := _FENCE_RE.match(line)):
                self.close_block()
                fence = fence_match.group(1)
                self.block_start, self.block_end = start, end
            elif first in _ITEM_START and _ITEM_RE.match(line):
                self.close_block()
                self.block_start, self.block_end = start, end
            else:
                if self.block_start < 0:
                    self.block_start = start
                self.block_end = end
        self.close_block()
        return self.units

    def table_row(self, start: int, end: int, line: str) -> None:
        self.table_rows += 1
        if self.table_rows == 1:
            self.table_header = ""
        if self.table_rows == 2 and _is_table_separator(line) and self.units:
            head = self.units[-1]
            head.end = end
            head.words = _count_words(self.text, head.start, end)
            head.lead_in = True
            self.table_header = self.text[head.start : end].strip()
            return
        self.add(start, end, "row", table_header=self.table_header)


def _is_table_separator(line: str) -> bool:
    """True for a Markdown table separator row such as ``|---|:--:|`` (no regex: linear)."""
    return "--" in line and not line.strip("|:- \t")


def _split_long(text: str, unit: _Unit, max_words: int) -> list[_Unit]:
    """Cut an overlong unit at sentence (or line) ends, then every *max_words* words."""
    boundary = _LINE_END_RE if text.startswith(("```", "~~~"), unit.start) else SENTENCE_END_RE
    cuts = [m.end() for m in boundary.finditer(text, unit.start, unit.end)]
    pieces: list[tuple[int, int]] = []
    prev = unit.start
    for cut in [*cuts, unit.end]:
        if cut > prev:
            pieces.append((prev, cut))
            prev = cut
    out: list[_Unit] = []
    cur_start, cur_end, cur_words = -1, -1, 0
    for p_start, p_end in pieces:
        for s, e in _word_chunks(text, p_start, p_end, max_words):
            w = _count_words(text, s, e)
            if cur_start >= 0 and cur_words + w > max_words:
                out.append(_piece(text, unit, cur_start, cur_end))
                cur_start = -1
            if cur_start < 0:
                cur_start, cur_words = s, 0
            cur_end, cur_words = e, cur_words + w
    if cur_start >= 0:
        out.append(_piece(text, unit, cur_start, cur_end))
    return [u for u in out if u.start < u.end]


def _word_chunks(text: str, start: int, end: int, max_words: int) -> list[tuple[int, int]]:
    if len(text[start:end].split()) <= max_words:
        return [(start, end)]
    spans = [m.span() for m in _TOKEN_RE.finditer(text[start:end])]
    return [
        (start + spans[i][0], start + spans[min(i + max_words, len(spans)) - 1][1])
        for i in range(0, len(spans), max_words)
    ]


def _piece(text: str, unit: _Unit, start: int, end: int) -> _Unit:
    start, end = _trimmed(text, start, end)
    return msgspec.structs.replace(unit, start=start, end=end, words=_count_words(text, start, end))


def _make_passage(text: str, units: list[_Unit], index: int) -> Passage:
    body = next((u for u in units if not u.lead_in), units[0])
    first = units[0]
    prefix = f"{first.table_header}\n" if first.kind == "row" and first.table_header else ""
    start, end = _trimmed(text, first.start, units[-1].end)
    return Passage(start=start, end=end, heading=body.heading, prefix=prefix, index=index)


def split_passages(
    text: str, *, min_words: int = MIN_WORDS, max_words: int = MAX_WORDS
) -> list[Passage]:
    """Split page *text* into passages in page order (see the module docstring for the rules)."""
    units: list[_Unit] = []
    for unit in _Scanner(text).scan():
        units.extend(_split_long(text, unit, max_words) if unit.words > max_words else [unit])
    passages: list[Passage] = []
    current: list[_Unit] = []
    words = 0
    body_units = 0

    def flush(keep_trailing_lead_ins: bool) -> None:
        nonlocal current, words, body_units
        carry: list[_Unit] = []
        if keep_trailing_lead_ins:
            while current and current[-1].lead_in:
                carry.insert(0, current.pop())
        if current:
            passages.append(_make_passage(text, current, len(passages)))
        current = carry
        words = sum(u.words for u in carry)
        body_units = 0

    for unit in units:
        if unit.kind == "heading":
            if body_units and words >= min_words:
                flush(keep_trailing_lead_ins=False)
        elif body_units and words + unit.words > max_words:
            flush(keep_trailing_lead_ins=True)
        current.append(unit)
        words += unit.words
        body_units += not unit.lead_in
    flush(keep_trailing_lead_ins=False)
    return passages
