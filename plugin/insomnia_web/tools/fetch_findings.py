"""Verifying saved findings against a fetched page.

A finding saved with a ``source_url`` becomes verified when a WebFetch of that URL returns
text containing it. Text is compared as sequences of words (case-folded; punctuation,
Markdown markers and whitespace ignored), sentence by sentence: every sentence of the
finding must be a whole sentence (or line) of the page, one shorter than :data:`MIN_WORDS`
words together with the sentence beside it. Words the page says only inside a longer
sentence do not count: "it is not true that X" and "X is a myth" do not verify "X". A
finding of fewer than :data:`MIN_WORDS` words (CJK text counted as
:func:`~..extract.words.count_words` counts it) is never verified this way: too short to
be evidence. Only the text WebFetch extracts for a reader
(``readable`` or ``full`` mode) verifies: a ``raw`` fetch, which returns scripts, comments and
hidden elements too, never does. Nor does a page whose URL (the one asked for, or where
it was read) holds a sentence of the finding: a page may echo its URL (a search page
repeats its query), which anyone can write. A finding is verified under the network view
of the fetch (:func:`~.services.network_scope`) and shown verified only under that view: a
page one manifest read where its ``resolve`` table or allowed addresses led verifies nothing
for another. Each view keeps its own verification: one view's fetch takes none away from
another.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING
from urllib.parse import unquote_plus

from yarl import URL

from ..extract.words import count_words, sentences
from ..net.urlpolicy import clean_url_text

if TYPE_CHECKING:
    from ..cache import CacheStore, Finding

__all__ = [
    "MAX_CHECKED",
    "MIN_WORDS",
    "canonical_source",
    "contains_finding",
    "page_sentences",
    "verify_findings",
]

MIN_WORDS = 3
MAX_CHECKED = 20
"""Most findings of one source URL a fetch compares with its page (those its own agent saved
first, then the newest not yet verified): a model that saved hundreds for one URL made every
fetch of it compare them all on the event loop, and list every one it verified."""
_WORD_RE = re.compile(r"\w+(?:[.,'\u2019-]\w+)*")  # inner ASCII or typographic apostrophe


def canonical_source(url: str) -> str:
    """The form a source URL is stored and looked up in: parsed like WebFetch parses a URL
    (WHATWG-cleaned, lower-case host, default port dropped, percent-encoding normalised),
    fragment removed.
    """
    try:
        return str(URL(clean_url_text(url), encoded=False).with_fragment(None))
    except (ValueError, TypeError, UnicodeError):
        return url


def _words(text: str) -> str:
    """The words of *text*, case-folded, joined by single spaces and padded with spaces."""
    return " " + " ".join(_WORD_RE.findall(text.casefold())) + " "


_SEP = "\n"
"""Between two sentences in :func:`page_sentences` (no word holds it)."""


def _split(text: str) -> list[str]:
    """The sentences of *text*, each line on its own, as :func:`_words` without the
    padding; sentences without words are left out."""
    out = []
    for line in text.splitlines():
        for sentence in sentences(line):
            words = " ".join(_WORD_RE.findall(sentence.casefold()))
            if words:
                out.append(words)
    return out


def page_sentences(text: str) -> str:
    """*text* as its sentences (:func:`_split`), each between two :data:`_SEP`."""
    return _SEP + _SEP.join(_split(text)) + _SEP


def _pieces(content: str) -> list[list[str]]:
    """The sentences of *content* (:func:`_split`) in pieces that must each occur as
    consecutive whole sentences of a page: a sentence of fewer than :data:`MIN_WORDS` words
    is one piece with the next (the last with the one before), so that a claim cut into
    one-word sentences must still occur as a whole."""
    pieces: list[list[str]] = []
    short: list[str] = []
    for sentence in _split(content.strip()):
        short.append(sentence)
        if count_words(" ".join(short)) >= MIN_WORDS:
            pieces.append(short)
            short = []
    if short and pieces:
        pieces[-1] += short
    elif short:
        pieces.append(short)
    return pieces


def contains_finding(page: str, content: str) -> bool:
    """Whether every sentence of *content* is a whole sentence of the page (given as
    :func:`page_sentences`)."""
    return _contains(page, _pieces(content))


def _contains(page: str, pieces: list[list[str]]) -> bool:
    """Whether every one of *pieces* (:func:`_pieces`) occurs in the page as consecutive
    whole sentences."""
    if count_words(" ".join(s for piece in pieces for s in piece)) < MIN_WORDS:
        return False
    return all(_SEP + _SEP.join(piece) + _SEP in page for piece in pieces)


def _url_words(urls: Iterable[str]) -> str:
    """The words of *urls*, percent-decoding and ``+`` undone, as :func:`_words`."""
    return _words(" ".join(unquote_plus(u) for u in urls))


async def verify_findings(
    cache: CacheStore, urls: Sequence[str], text: str, *, by_url: str, scope: str = ""
) -> list[Finding]:
    """Mark verified (under the network view *scope*) the findings from *urls* not yet
    verified under it that *text* contains; return them. Of each URL's findings, the
    newest :data:`MAX_CHECKED` are compared with *text*; a later fetch takes the next.

    A finding a sentence of which is written in *urls* or *by_url* is left unverified (the
    page may echo its URL: a search page its query).
    """
    candidates: dict[int, Finding] = {}
    for url in dict.fromkeys(canonical_source(u) for u in urls):
        for finding in await cache.findings_for_source(url, scope=scope, limit=MAX_CHECKED):
            candidates[finding.id] = finding
    if not candidates:
        return []
    url_words = _url_words(dict.fromkeys([*urls, by_url]))
    found = await asyncio.to_thread(_found, text, list(candidates.values()), url_words)
    verified = []
    for finding in found:
        if await cache.mark_verified(finding.id, verified_by_url=by_url, scope=scope):
            verified.append(finding)
    return verified


def _found(text: str, findings: Sequence[Finding], url_words: str) -> list[Finding]:
    """Those of *findings* that *text* holds and *url_words* does not (run in a worker
    thread: cutting a 5 MB page into sentences takes half a second)."""
    page = page_sentences(text)
    found = []
    for finding in findings:
        pieces = _pieces(finding.content)
        if any(f" {' '.join(piece)} " in url_words for piece in pieces):
            continue
        if _contains(page, pieces):
            found.append(finding)
    return found
