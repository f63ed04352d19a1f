"""Text -> index terms: lower-cased words, English stopwords dropped, light suffix stemming.

The stemmer only folds the inflections that most often split a query term from its match
(plurals, ``-ing``, ``-ed``); it never touches words of 4 letters or fewer, numbers, or words
outside the Latin alphabet, so names, codes and other scripts pass through unchanged.

Markdown link targets (``[text](https://...)``) are dropped before tokenizing: URL pieces
are not content, and on link-heavy pages they would dominate passage lengths and cost.

Chinese and Japanese are written without spaces, and Korean attaches particles to words, so
a run of Han, kana or Hangul characters is indexed as its overlapping character bigrams
("東京都庁" -> "東京", "京都", "都庁"), the usual dictionary-free approach for CJK search.
"""

from __future__ import annotations

import re

__all__ = ["STOPWORDS", "analyze", "stem", "words"]

_WORD_RE = re.compile(r"\w+")
# "](" then URL characters, allowing one level of balanced parentheses ("Foo_(bar)"); no
# branch can match where another does, so a failed attempt stops at the next "(" (linear).
_LINK_TARGET_RE = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*\)")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RE = re.compile(f"[{_CJK}]")
_CJK_WORD_RE = re.compile(f"[^\\W{_CJK}]+|[{_CJK}]+")

_STOPWORD_TEXT = """
a about above after again against all also am an and any are as at be because been
before being below between both but by can could did do does doing down during each few
for from further had has have having he her here hers herself him himself his how i if in
into is it its itself just me more most my myself no nor not of off on once only or other
our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself
yourselves s t don isn aren wasn weren doesn didn won"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

_KEPT_DOUBLES = frozenset("lsz")
"""Final letters a word keeps doubled when a suffix goes (Porter's stemmer's exception)."""

# Stem memo shared by all calls. Ranking may run in worker threads: each dict operation is
# atomic, and a race can only make two threads stem the same word.
_CACHE: dict[str, str] = {}
_CACHE_LIMIT = 200_000


def _strip_suffix(word: str) -> str:
    if len(word) <= 4 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if word.endswith("ing") and len(word) >= 7:
        return _undouble(word[:-3])
    if word.endswith("ed") and len(word) >= 6:
        return _undouble(word[:-2])
    return word


def _undouble(base: str) -> str:
    """*base* less a doubled final consonant (``stopp`` -> ``stop``), except a doubled l, s
    or z, which the word itself ends in (``call``, ``pass``, ``buzz``), as Porter's rule."""
    if len(base) > 3 and base[-1] == base[-2] and base[-1] not in _KEPT_DOUBLES:
        return base[:-1]
    return base


def stem(word: str) -> str:
    """Return the light stem of a lower-cased *word* (memoised: called once per token)."""
    found = _CACHE.get(word)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[word] = _strip_suffix(word)
    return found


def words(text: str) -> list[str]:
    """Return the lower-cased ``\\w+`` words of *text* (CJK runs as character bigrams)."""
    lowered = text.lower()
    if "](" in lowered:
        lowered = _LINK_TARGET_RE.sub("] ", lowered)
    if _CJK_RE.search(lowered) is None:
        return _WORD_RE.findall(lowered)
    out: list[str] = []
    for token in _CJK_WORD_RE.findall(lowered):
        if _CJK_RE.match(token) and len(token) > 2:
            out.extend(token[i : i + 2] for i in range(len(token) - 1))
        else:
            out.append(token)
    return out


def analyze(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Return the index terms of *text*: words, minus stopwords (unless kept), stemmed."""
    tokens = words(text)
    cache = _CACHE
    for word in set(tokens).difference(cache):
        stem(word)
    stems = map(cache.__getitem__, tokens)
    if keep_stopwords:
        return list(stems)
    return [s for s, w in zip(stems, tokens, strict=True) if w not in STOPWORDS]
