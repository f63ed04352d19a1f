"""Okapi BM25 over the candidate passages of one query.

The index holds, per passage, the term frequencies of the query terms only and the passage
length, so building it costs one pass over each passage's words. IDF is computed over the
passages being ranked (all pages of the query plus the snippets), with the non-negative form
``ln(1 + (N - df + 0.5) / (df + 0.5))``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["BM25"]


class BM25:
    """Scores passages, given as query-term frequencies plus lengths."""

    def __init__(
        self,
        term_freqs: Sequence[Mapping[str, int]],
        lengths: Sequence[int],
        *,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> None:
        """Index passages: *term_freqs[i]* maps terms to counts in passage i of *lengths[i]*."""
        if len(term_freqs) != len(lengths):
            raise ValueError("term_freqs and lengths must have the same length")
        self.k1 = k1
        self.b = b
        self.term_freqs = term_freqs
        self.lengths = lengths
        self.avg_length = (sum(lengths) / len(lengths)) if lengths else 0.0

    def idf(self, term: str) -> float:
        """Return the inverse document frequency of *term* over the indexed passages."""
        n = len(self.term_freqs)
        df = sum(1 for tf in self.term_freqs if tf.get(term))
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def scores(self, query: Sequence[str]) -> list[float]:
        """Return the BM25 score of every indexed passage for the *query* terms."""
        terms = [(t, self.idf(t)) for t in dict.fromkeys(query)]
        k1, b = self.k1, self.b
        avg = self.avg_length or 1.0
        out: list[float] = []
        for freqs, length in zip(self.term_freqs, self.lengths, strict=True):
            norm = k1 * (1.0 - b + b * length / avg)
            score = 0.0
            for term, idf in terms:
                tf = freqs.get(term)
                if tf:
                    score += idf * tf * (k1 + 1.0) / (tf + norm)
            out.append(score)
        return out
