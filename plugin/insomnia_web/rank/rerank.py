"""The rerank stage: a second opinion on the best BM25 candidates, fused with their scores.

A :class:`Reranker` gets the query and the :data:`RERANK_DEPTH` best candidates of the
first-stage ranking (text, title, heading path, provider rank) and returns one score per
candidate, higher meaning more relevant; scores need not be bounded or calibrated. The
first-stage order and the reranker's order are fused by weighted reciprocal rank
(:func:`fuse`): a candidate's fused score is ``1 / (k + bm25_rank) + weight / (k +
rerank_rank)``, so a reranker can promote a passage but never lift one BM25 ranked poorly
above all the ones it ranked well; a tie goes to the reranker's choice. Candidates below
the depth keep their order, after the reranked ones. (A mix of the min-max scaled scores
found no more answers on ``bench/qa-dev.json`` with the built-in ``"static"`` reranker:
``bench/recall.py --ablate``, row ``text:default+static score mix``.)

Rerankers are registered by plugins (the ``register_rerankers`` hook) and chosen by name in
``web.pipeline.rerank``; :class:`StaticReranker` (``"static"``) is built in.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import msgspec

__all__ = [
    "FUSION_K",
    "FUSION_WEIGHT",
    "RERANK_DEPTH",
    "RerankPassage",
    "Reranker",
    "fuse",
]

RERANK_DEPTH = 40
"""How many first-stage candidates a reranker sees."""
FUSION_K = 10
"""The rank offset of reciprocal-rank fusion (small: the top ranks matter most)."""
FUSION_WEIGHT = 1.0
"""Weight of the reranker's reciprocal rank against the first stage's (1.0)."""


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

    ``__init__`` and ``score`` are synchronous and run in worker threads, never on the event
    loop: the instance is built once per process, and WebSearch gives up a ``score`` when
    the pipeline's deadline is over. It must not touch the network (load models in
    ``__init__`` or lazily, from local files). A reranker that cannot work (a missing
    package or model) raises ``ToolError("not_configured", ..., remedy=...)`` from
    ``__init__``, its remedy naming what to install.
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
    k: float = FUSION_K,
    weight: float = FUSION_WEIGHT,
) -> list[int]:
    """The new order of candidates given in first-stage order, best first.

    *first_scores* are the candidates' first-stage scores, best first (only their order
    counts here); *rerank_scores* has one score per candidate. The result is a permutation
    of their indices sorted by weighted reciprocal-rank fusion; a tie goes to the one the
    reranker prefers (a reranker was asked for a second opinion), then to first-stage order.
    """
    first = len(first_scores)
    if len(rerank_scores) != first:
        raise ValueError(f"the reranker returned {len(rerank_scores)} scores for {first} passages")
    by_rerank = sorted(range(first), key=lambda i: -float(rerank_scores[i]))
    rerank_rank = {i: r for r, i in enumerate(by_rerank, start=1)}
    fused = [1.0 / (k + i + 1) + weight / (k + rerank_rank[i]) for i in range(first)]
    return sorted(range(first), key=lambda i: (-fused[i], rerank_rank[i], i))
