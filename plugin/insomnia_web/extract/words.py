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

import functools
import re

__all__ = [
    "CJK_CHARS_PER_WORD",
    "collapsed_at_most",
    "count_words",
    "has_cjk",
    "more_runs_than",
    "sentences",
    "word_list",
]

CJK_CHARS_PER_WORD = 2
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RE = re.compile(f"[{_CJK}]")
_CJK_RUN_RE = re.compile(f"[{_CJK}]+")
# Lower-cased word list: \w runs outside CJK, and CJK runs as overlapping character bigrams
# (as the ranker indexes them), so repeats and overlaps compare in every script.
_WORD_RE = re.compile(f"[^\\W{_CJK}]+|[{_CJK}]+")
# ASCII text holds no CJK, and Unicode \w is ASCII \w there: its words are found without
# the matcher, each character that is not a word character becoming a space and each
# capital its small letter, as what whitespace separates.
_ASCII_WORDS = str.maketrans(
    {c: chr(c).lower() if chr(c).isalnum() or chr(c) == "_" else " " for c in range(128)}
)
# One word run, as _WORD_RE finds them, after the characters before it (neither word nor
# CJK): possessive, so a run is never cut in two to make up a count.
_RUN = f"[^\\w{_CJK}]*+(?:[^\\W{_CJK}]++|[{_CJK}]++)"
_ASCII_RUN = r"\W*+\w++"
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


def collapsed_at_most(text: str, limit: int) -> str | None:
    """*text* whitespace-collapsed when it holds at most *limit* whitespace tokens, else
    ``None``: the text is split only as far as the token past the limit, so a paragraph
    tested for a short label is not split whole."""
    tokens = text.split(None, limit)
    return " ".join(tokens) if len(tokens) <= limit else None


def word_list(text: str) -> list[str]:
    """Lower-cased words of *text* (``\\w`` runs; CJK runs as character bigrams)."""
    if text.isascii():
        return text.translate(_ASCII_WORDS).split()
    lowered = text.lower()
    if _CJK_RE.search(lowered) is None:
        return _WORD_RE.findall(lowered)
    out: list[str] = []
    for token in _WORD_RE.findall(lowered):
        if len(token) > 1 and _CJK_RE.match(token):
            out.extend(token[i : i + 2] for i in range(len(token) - 1))
        else:
            out.append(token)
    return out


@functools.cache
def _runs_re(count: int, ascii_only: bool) -> re.Pattern[str]:
    if ascii_only:
        return re.compile(f"(?:{_ASCII_RUN}){{{count}}}", re.ASCII)
    return re.compile(f"(?:{_RUN}){{{count}}}")


def more_runs_than(text: str, limit: int) -> bool:
    """True when *text* holds more than *limit* ``\\w`` and CJK runs, read only as far as the
    run past the limit (the text is neither split nor lowercased whole): :func:`word_list`
    holds a word for each run (a CJK run gives its bigrams), so *text* then has more words
    than *limit* too."""
    return _runs_re(limit + 1, text.isascii()).match(text) is not None


def sentences(text: str) -> list[str]:
    """*text* split after each sentence end (Latin and ideographic punctuation)."""
    return [part for part in _SENTENCE_END_RE.split(text) if part]
