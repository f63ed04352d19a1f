"""The rerank stage: a second opinion on the best BM25 candidates, fused with their scores.

A :class:`Reranker` gets the query and the :data:`RERANK_DEPTH` best candidates of the
first-stage ranking (text, title, heading path, provider rank) and returns one score per
candidate, higher meaning more relevant; scores need not be bounded or calibrated. The
first-stage scores and the reranker's are fused by a score mix (:func:`fuse`): each is
scaled to ``[0, 1]`` over the candidates (min-max), and a candidate's fused score is
``(1 - weight) * first + weight * rerank``, so how far apart two passages are counts, not
only their order; a tie goes to the reranker's choice. Candidates below the depth keep
their order, after the reranked ones.

The mix and its weight were chosen on the tuning half of ``bench/qa-dev.json`` (with the
built-in ``"static"`` reranker) and confirmed on its check half: reciprocal-rank fusion,
which keeps only the two orders, gained about half as much recall at 1000 tokens.

Rerankers are registered by plugins (the ``register_rerankers`` hook) and chosen by name in
``web.pipeline.rerank``; :class:`StaticReranker` (``"static"``) is built in.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import msgspec

__all__ = [
    "FUSION_WEIGHT",
    "RERANK_DEPTH",
    "RerankPassage",
    "Reranker",
    "fuse",
]

RERANK_DEPTH = 40
"""How many first-stage candidates a reranker sees."""
FUSION_WEIGHT = 0.8
"""The reranker's share of the fused score; the first stage has the rest."""


class RerankPassage(msgspec.Struct, frozen=True, kw_only=True):
    """One candidate as a reranker sees it."""

    text: str
    """The passage text (or the provider's snippet)."""
    title: str
    """Title of its page."""
    heading: str | None
    """Heading path of the passage on its page (``"Install > Linux"``), if any."""
    source_rank: int
    """Provider rank of its page, 1-based."""


class Reranker(ABC):
    """Scores candidate passages for a query; registered by class, built once per process.

    ``score`` is synchronous and runs in the ranking worker thread, never on the event loop;
    it must not touch the network (load models in ``__init__`` or lazily, from local files).
    A reranker that cannot work (a missing package or model) raises
    ``ToolError("not_configured", ...)`` from ``__init__``, naming what to install.
    """

    name: ClassVar[str]
    """The name ``web.pipeline.rerank`` selects it by."""

    @abstractmethod
    def score(self, query: str, passages: Sequence[RerankPassage]) -> Sequence[float]:
        """Return one relevance score per passage, in order (higher is better)."""


def fuse(
    first_scores: Sequence[float],
    rerank_scores: Sequence[float],
    *,
    weight: float = FUSION_WEIGHT,
) -> list[int]:
    """The new order of candidates given in first-stage order, best first.

    *first_scores* and *rerank_scores* have one score per candidate. Each is min-max scaled
    to ``[0, 1]`` (all equal: all 0) and mixed, ``(1 - weight) * first + weight * rerank``;
    the result is a permutation of their indices by fused score, a tie going to the one the
    reranker prefers (a reranker was asked for a second opinion), then to first-stage order.
    """
    n = len(first_scores)
    if len(rerank_scores) != n:
        raise ValueError(f"the reranker returned {len(rerank_scores)} scores for {n} passages")
    first = _scaled([float(x) for x in first_scores])
    second = _scaled([float(x) for x in rerank_scores])
    fused = [(1.0 - weight) * a + weight * b for a, b in zip(first, second, strict=True)]
    return sorted(range(n), key=lambda i: (-fused[i], -second[i], i))


def _scaled(scores: list[float]) -> list[float]:
    """*scores* min-max scaled to ``[0, 1]``; all 0 when they are all equal."""
    low, high = min(scores, default=0.0), max(scores, default=0.0)
    span = high - low
    return [(s - low) / span if span > 0 else 0.0 for s in scores]
