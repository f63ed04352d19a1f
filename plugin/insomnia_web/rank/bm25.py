"""Okapi BM25 over the candidate passages of one query.

IDF is computed over the passages being ranked (all pages of the query plus the snippets),
with the non-negative form ``ln(1 + (N - df + 0.5) / (df + 0.5))``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

__all__ = ["BM25"]


class BM25:
    """Scores analysed passages against analysed query terms."""

    def __init__(self, docs: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> None:
        """Index *docs* (each a list of terms) with BM25 parameters *k1* and *b*."""
        self.k1 = k1
        self.b = b
        self.counts = [Counter(doc) for doc in docs]
        self.lengths = [len(doc) for doc in docs]
        self.avg_length = (sum(self.lengths) / len(docs)) if docs else 0.0
        self.df: Counter[str] = Counter()
        for counts in self.counts:
            self.df.update(counts.keys())

    def idf(self, term: str) -> float:
        """Return the inverse document frequency of *term* over the indexed passages."""
        n = len(self.counts)
        df = self.df.get(term, 0)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def scores(self, query: Sequence[str]) -> list[float]:
        """Return the BM25 score of every indexed passage for the *query* terms."""
        terms = [(t, self.idf(t)) for t in dict.fromkeys(query)]
        k1, b = self.k1, self.b
        avg = self.avg_length or 1.0
        out: list[float] = []
        for counts, length in zip(self.counts, self.lengths, strict=True):
            norm = k1 * (1.0 - b + b * length / avg)
            score = 0.0
            for term, idf in terms:
                tf = counts.get(term)
                if tf:
                    score += idf * tf * (k1 + 1.0) / (tf + norm)
            out.append(score)
        return out
