"""Words and sentences of any script: the one word counter every extraction rule uses.

Words are the whitespace-separated tokens of a text (the fastest count there is: every
element of every page is counted). Chinese and Japanese are written without
spaces (and Korean attaches particles to words), so a run of Han, kana or Hangul characters
counts as one word per :data:`CJK_CHARS_PER_WORD` characters, about the length of a word in
those scripts: a 180-character Japanese paragraph is 90 words, not one. This is the same
script split that the passage ranker's tokenizer (``insomnia_web.rank.analysis``) makes.

Sentences end at ``.``, ``!`` and ``?`` followed by a space, and at the ideographic ``。``,
``！`` and ``？`` (and the fullwidth ``．``), which need no space after them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = [
    "CJK_CHARS_PER_WORD",
    "count_words",
    "has_cjk",
    "sentences",
    "word_list",
    "word_tokens",
]

CJK_CHARS_PER_WORD = 2
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RE = re.compile(f"[{_CJK}]")
_CJK_RUN_RE = re.compile(f"[{_CJK}]+")
# Lower-cased word list: \w runs outside CJK, and CJK runs as overlapping character bigrams
# (as the ranker indexes them), so repeats and overlaps compare in every script.
_WORD_RE = re.compile(f"[^\\W{_CJK}]+|[{_CJK}]+")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？．])\s*")


def has_cjk(text: str) -> bool:
    """True when *text* holds a Han, kana or Hangul character."""
    return _CJK_RE.search(text) is not None


def count_words(text: str) -> int:
    """Words of *text*: whitespace tokens, CJK runs counted per two characters."""
    if text.isascii() or _CJK_RE.search(text) is None:
        return len(text.split())
    runs = _CJK_RUN_RE.findall(text)
    rest = _CJK_RUN_RE.sub(" ", text)
    return len(rest.split()) + sum(-(-len(run) // CJK_CHARS_PER_WORD) for run in runs)


def word_list(text: str) -> list[str]:
    """Lower-cased words of *text* (``\\w`` runs; CJK runs as character bigrams)."""
    lowered = text.lower()
    if lowered.isascii() or _CJK_RE.search(lowered) is None:
        return _WORD_RE.findall(lowered)
    out: list[str] = []
    for token in _WORD_RE.findall(lowered):
        if len(token) > 1 and _CJK_RE.match(token):
            out.extend(token[i : i + 2] for i in range(len(token) - 1))
        else:
            out.append(token)
    return out


def word_tokens(text: str) -> Iterator[str]:
    """The ``\\w`` and CJK runs of *text* in order, found only as far as they are read (the
    text is not lowercased first, which would copy it whole): :func:`word_list` holds a word
    for each (a CJK run gives its bigrams), so a text of more runs than a bound has more
    words than that too."""
    return (match.group() for match in _WORD_RE.finditer(text))


def sentences(text: str) -> list[str]:
    """*text* split after each sentence end (Latin and ideographic punctuation)."""
    return [part for part in _SENTENCE_END_RE.split(text) if part]
