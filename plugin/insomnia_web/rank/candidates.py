"""Candidates for ranking: the passages and snippets of one search, with term counts.

A candidate keeps the counts of all its lower-cased words; :func:`count_query_terms` then
folds them into frequencies of the (stemmed) query terms, stemming each distinct word of the
whole search once instead of every token, which keeps ranking cheap on long pages.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from .analysis import analyze, stem, words
from .models import Excerpt, SourceDoc
from .passages import split_passages

_HEADING_RE = re.compile(r"#{1,6}\s")

__all__ = [
    "Candidate",
    "build_candidates",
    "count_query_terms",
    "query_terms",
    "without_leading_headings",
]


class Candidate:
    """One passage (or snippet) of one result, with its query-term counts and score."""

    __slots__ = (
        "doc",
        "end",
        "heading",
        "index",
        "kind",
        "raw_text",
        "score",
        "source",
        "start",
        "text",
        "tf",
        "words",
    )

    def __init__(
        self,
        *,
        doc: int,
        source: SourceDoc,
        kind: str,
        text: str,
        start: int,
        end: int,
        index: int,
        heading: str | None,
        raw_text: str | None = None,
    ) -> None:
        self.doc = doc
        self.source = source
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.index = index
        self.heading = heading
        self.raw_text = text if raw_text is None else raw_text
        """The passage as split, heading lines included (``text`` may leave them out)."""
        self.words: Counter[str] = Counter(words(self.raw_text))
        self.tf: dict[str, int] = {}
        self.score = 0.0

    def excerpt(self, excerpt_id: int) -> Excerpt:
        """Return this candidate as the public :class:`Excerpt` numbered *excerpt_id*."""
        return Excerpt(
            id=excerpt_id,
            url=self.source.url,
            title=self.source.title,
            text=self.text,
            score=round(self.score, 4),
            start=self.start,
            end=self.end,
            source_rank=self.source.rank,
            kind=self.kind,
            heading=self.heading,
            byline=self.source.byline,
        )


def build_candidates(docs: Sequence[SourceDoc]) -> list[Candidate]:
    """Split every result into candidates: its snippet (if any), then its page passages."""
    out: list[Candidate] = []
    for i, doc in enumerate(docs):
        if doc.snippet and doc.snippet.strip():
            for p in split_passages(doc.snippet):
                out.append(
                    Candidate(
                        doc=i, source=doc, kind="snippet", text=p.text(doc.snippet),
                        start=-1, end=-1, index=0, heading=None,
                    )
                )  # fmt: skip
        if doc.text.strip():
            for p in split_passages(doc.text):
                raw = p.text(doc.text)
                body = raw if p.prefix else without_leading_headings(raw)
                out.append(
                    Candidate(
                        doc=i, source=doc, kind="page", text=body, raw_text=raw,
                        start=p.start + len(raw) - len(body), end=p.end, index=p.index,
                        heading=p.heading,
                    )
                )  # fmt: skip
    return out


def without_leading_headings(text: str) -> str:
    """*text* without its leading Markdown heading lines (the heading path shows them).

    A passage that is nothing but headings is returned whole.
    """
    rest = text
    while rest.startswith("#"):
        line, _, after = rest.partition("\n")
        if not _HEADING_RE.match(line):
            break
        rest = after.lstrip()
    return rest or text


def count_query_terms(candidates: Sequence[Candidate], query_terms: Sequence[str]) -> None:
    """Fill each candidate's ``tf``: frequencies of the query terms (as stems) it contains.

    Stemming runs once per distinct word of the whole candidate set, not once per token.
    """
    wanted = set(query_terms)
    vocabulary: set[str] = set()
    for c in candidates:
        vocabulary.update(c.words)
    # Stemming only strips suffixes and never shortens a word below 3 letters, so a word and
    # its stem share their first two characters: only words with a query term's prefix can
    # match, and only those are stemmed.
    prefixes = {term[:2] for term in wanted}
    forms: dict[str, list[str]] = {}
    for word in vocabulary:
        if word[:2] in prefixes and (term := stem(word)) in wanted:
            forms.setdefault(term, []).append(word)
    for c in candidates:
        for term, surface in forms.items():
            tf = sum(c.words.get(w, 0) for w in surface)
            if tf:
                c.tf[term] = tf


def query_terms(query: str) -> list[str]:
    """Return the terms of *query*; a query made only of stopwords keeps them ("The Who")."""
    return analyze(query) or analyze(query, keep_stopwords=True)
