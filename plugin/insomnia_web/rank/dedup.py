"""Near-duplicate detection with word shingles.

Two texts are near-duplicates when the Jaccard similarity of their word 3-gram sets is at
least :data:`JACCARD`, or when at least :data:`CONTAINED` of the smaller set lies inside the
larger one (a snippet repeated inside a page passage, a teaser inside the full paragraph).
"""

from __future__ import annotations

from .analysis import words

__all__ = ["CONTAINED", "JACCARD", "is_near_duplicate", "shingles"]

JACCARD = 0.8
CONTAINED = 0.9
_N = 3


def shingles(text: str) -> frozenset[tuple[str, ...]]:
    """Return the set of lower-cased word 3-grams of *text* (the words alone if fewer)."""
    tokens = words(text)
    if len(tokens) < _N:
        return frozenset([tuple(tokens)]) if tokens else frozenset()
    return frozenset(zip(*(tokens[i:] for i in range(_N)), strict=False))


def is_near_duplicate(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> bool:
    """Return True when shingle sets *a* and *b* are near-duplicates (see module docstring)."""
    if not a or not b:
        return False
    common = len(a & b)
    if common == 0:
        return False
    return common / len(a | b) >= JACCARD or common / min(len(a), len(b)) >= CONTAINED
