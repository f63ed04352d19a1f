"""Query normalisation and the "similar query" rules of the cache.

Two queries are compared by their *content words*: the normalised query split on whitespace,
surrounding punctuation stripped from each word, English stopwords dropped and plurals lightly
stemmed. Words keep their inner punctuation, so ``3.12``, ``c++``, ``node.js``, ``tcp/ip`` and
``2024-01-05`` stay single words and numbers must match exactly.

Every rule here errs towards a miss: a false "similar" hit shows the model an answer to another
question, while a false miss only costs one search.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable

__all__ = [
    "MAX_EXTRA_WORDS",
    "MIN_WORDS_FOR_EXTRA",
    "content_words",
    "finding_matches",
    "fts_query",
    "normalize_query",
    "search_matches",
]

# Punctuation stripped from the ends of the query and of each word: Unicode categories P*
# plus a few symbols. A leading "-", "." or "#" is kept (-5, .net, #define) and so is a trailing
# "#" or "+" (c#, c++); inner punctuation is always kept (3.12, node.js).
_EXTRA_EDGE = frozenset("`^~|<>=$")
_KEEP_LEFT = frozenset("-.#")
_KEEP_RIGHT = frozenset("#")
_SPACE_RE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")  # controls separate words like spaces

_STOPWORD_TEXT = """
a an the and or of for in on at to with by from about into onto as via vs versus
is are was were be been being do does did can could should would will shall may might
i me my we our you your it its this that these those there here
how what which who whom whose why when where
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
# Words whose trailing "s" is not a plural (or whose singular is a different word).
_NOT_PLURAL = frozenset(("news", "series", "species", "windows", "always", "perhaps"))

MAX_EXTRA_WORDS = 1
"""A cached query may have at most this many content words that the new query lacks."""
MIN_WORDS_FOR_EXTRA = 3
"""The new query needs this many content words before an extra cached word is tolerated."""


def _is_edge(ch: str, keep: frozenset[str]) -> bool:
    if ch == " ":
        return True
    if ch in keep:
        return False
    return ch in _EXTRA_EDGE or unicodedata.category(ch).startswith("P")


def _strip_punct(text: str) -> str:
    """Strip punctuation (and spaces) from both ends of *text*."""
    start, end = 0, len(text)
    while start < end and _is_edge(text[start], _KEEP_LEFT):
        start += 1
    while end > start and _is_edge(text[end - 1], _KEEP_RIGHT):
        end -= 1
    return text[start:end]


def normalize_query(query: str) -> str:
    """NFKC, casefold, collapse whitespace and control characters (a NUL would end SQLite's
    full-text query early) into single spaces and strip surrounding punctuation."""
    text = _SPACE_RE.sub(" ", unicodedata.normalize("NFKC", query).casefold())
    return _strip_punct(text)


def _stem(word: str) -> str:
    """Light plural stemming: tutorials -> tutorial, queries -> query, classes -> class."""
    if word.endswith(("'s", "\u2019s")):  # ASCII or typographic apostrophe
        word = word[:-2]
    if len(word) <= 3 or not word.isalpha() or word in _NOT_PLURAL:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def content_words(query: str) -> frozenset[str]:
    """The set of stemmed, non-stopword words of *query* (numbers included, kept verbatim)."""
    words: set[str] = set()
    for raw in normalize_query(query).split(" "):
        word = _strip_punct(raw)
        if word and word not in _STOPWORDS:
            words.add(_stem(word))
    return frozenset(words)


_NEGATIONS = frozenset(
    ("not", "no", "nor", "never", "without", "except", "excluding", "non", "none", "neither")
)
"""Words that turn a query's meaning around ("vaccines safe children never")."""


def _changes_the_question(word: str) -> bool:
    """Whether a cached query's extra *word* makes it another question: a number, a search
    operator (``site:evil.example``, ``filetype:pdf``), an excluded word (``-requests``) or a
    negation. One agent, steered by a page, could otherwise search ``... site:evil.example``
    once and have every agent asking the same words without it served that site's results.
    """
    return (
        any(ch.isdigit() for ch in word)
        or ":" in word
        or word.startswith("-")
        or word in _NEGATIONS
    )


def search_matches(new: Collection[str], old: Collection[str]) -> bool:
    """Whether a cached search for *old* content words answers a search for *new* ones.

    The threshold: every content word of the new query is in the cached one, and the cached
    query has at most :data:`MAX_EXTRA_WORDS` more, which must not change the question (a
    number, a search operator, an excluded word or a negation: :func:`_changes_the_question`),
    and only when the new query has at least :data:`MIN_WORDS_FOR_EXTRA` words. So the overlap
    (Jaccard) is 1, or at least 3/4 with one extra word: "python asyncio tutorial" reuses
    "python asyncio tutorial beginners", but "asyncio" never reuses "asyncio sockets" and
    "python release date" never reuses "python 3.11 release date". A new query with a word
    the cached one lacks asks for more than was searched, so it never matches.
    """
    new_set, old_set = frozenset(new), frozenset(old)
    if not new_set or not new_set <= old_set:
        return False
    extra = old_set - new_set
    if not extra:
        return True
    return (
        len(extra) <= MAX_EXTRA_WORDS
        and len(new_set) >= MIN_WORDS_FOR_EXTRA
        and not any(_changes_the_question(w) for w in extra)
    )


def finding_matches(
    new: Collection[str], finding_query: Collection[str], finding_words: Collection[str]
) -> bool:
    """Whether a finding (its question's words, and all words of question + content) is relevant.

    Same spirit as :func:`search_matches`, with the finding's content as a pool of synonyms:
    every content word of the new query appears in the finding's question or content, and the
    finding's question has at most :data:`MAX_EXTRA_WORDS` word the new query lacks, which
    does not change the question (:func:`_changes_the_question`). So a finding about
    "python 3.11 release date" is never shown for "python 3.12 release date" (3.12 is
    missing) nor for "python release date" (extra 3.11). The question sets the topic: at
    least half the new query's words must be in it, so a finding whose content merely lists
    other queries' words (a model can save one) is not shown for them.
    """
    new_set = frozenset(new)
    if not new_set or not new_set <= frozenset(finding_words):
        return False
    question = frozenset(finding_query)
    if 2 * len(new_set & question) < len(new_set):
        return False
    extra = question - new_set
    return len(extra) <= MAX_EXTRA_WORDS and not any(_changes_the_question(w) for w in extra)


def fts_query(words: Iterable[str]) -> str:
    """An FTS5 query that requires every word (each quoted as a phrase, so it is inert)."""
    return " AND ".join('"' + w.replace('"', '""') + '"' for w in sorted(words))
