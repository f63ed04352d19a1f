"""The best few sentences of a passage that fit a small budget.

Selection (:mod:`.ranker`) takes whole passages; when the next best passage does not fit
what is left of the budget, the rest would go unread. :func:`best_window` picks from that
passage the run of whole sentences that fits and names the most distinct query terms
(ties: the longer run, then the earlier), so the last tokens still carry evidence.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from .analysis import analyze
from .passages import SENTENCE_END_RE
from .tokens import estimate_tokens

__all__ = ["best_window", "sentence_spans"]

_BREAK_RE = re.compile(f"{SENTENCE_END_RE.pattern}|\\n+")
"""A sentence end (:data:`.passages.SENTENCE_END_RE`) or a line break."""


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence or line of *text*, surrounding space left out."""
    spans = []
    start = 0
    for m in _BREAK_RE.finditer(text):
        end = m.start() + len(m.group().rstrip())
        if text[start:end].strip():
            spans.append((start, end))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


def best_window(text: str, asked: Collection[str], max_tokens: int) -> tuple[int, int] | None:
    """The span of whole sentences of *text* within *max_tokens* that holds the most distinct
    index terms of *asked*; ``None`` when no sentence that fits holds one."""
    spans = sentence_spans(text)
    terms = [set(analyze(text[s:e])).intersection(asked) for s, e in spans]
    best: tuple[int, int, int] | None = None  # (distinct terms, length, -first)
    found: tuple[int, int] | None = None
    for i, (start, _) in enumerate(spans):
        seen: set[str] = set()
        for j in range(i, len(spans)):
            end = spans[j][1]
            if estimate_tokens(text[start:end]) > max_tokens:
                break
            seen |= terms[j]
            key = (len(seen), end - start, -i)
            if seen and (best is None or key > best):
                best, found = key, (start, end)
    return found
