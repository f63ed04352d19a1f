"""Choose the passages that answer a query, under a token budget.

``select_excerpts`` runs the whole ranking core, synchronously and without I/O:

1. Candidates: every page is split into passages (:mod:`.passages`); the provider's snippet
   of every result is a candidate too (``kind="snippet"``), so a page whose fetch failed still
   contributes.
2. Scores: ``method="bm25"`` is plain BM25 over the passage text (IDF over this call's
   candidates). ``method="ours"`` adds the weighted features of :mod:`.features`; by default
   heading and title matches, query-term coverage of the passage and of its page, the BM25
   score of its whole page and, for a question asking for a quantity, a date, a name or a
   place (:mod:`.answer_type`), whether the passage holds one (bigram, proximity, lead and
   provider-rank features exist but are off: they did not help on the dev set). Ties go
   to the better provider rank. A candidate is eligible only if it contains a query term
   (in its text, or for "ours" in its heading); a query with no terms at all falls back to
   each page's lead and the snippets, in provider order.
3. Rerank (optional): a :class:`~.rerank.Reranker` re-scores the best candidates and its
   order is fused with the first stage's (:mod:`.rerank`).
4. Selection: best first; a candidate that is a near-duplicate of one already taken
   (:mod:`.dedup`) is dropped; one that does not fit the remaining budget is skipped (a
   smaller one may still fit). Costs include the labels (:mod:`.budget`): a source's label
   is paid by its first passage only. What is left when no whole passage fits (at least
   :data:`FILL_MIN_TOKENS`) goes to the best sentences of the best passage left
   (:mod:`.window`), shown as a passage of their own.
5. Output: grouped by source in provider rank order; within a source the snippet comes
   first, then page passages in page order. Ids number the sources from 1 in that order: all
   passages of one source share its id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Literal

from .analysis import analyze
from .answer_type import holds_answer_kind, read_question
from .bm25 import BM25
from .budget import passage_cost, source_label_cost
from .candidates import Candidate, build_candidates, count_query_terms, query_terms
from .dedup import is_near_duplicate, shingles
from .features import BM25_ONLY, DEFAULT_WEIGHTS, Weights, bigrams, coverage, proximity
from .models import Excerpt, SourceDoc
from .rerank import RERANK_DEPTH, Reranker, RerankPassage, fuse
from .window import best_window

__all__ = [
    "Fusion",
    "Method",
    "page_scores",
    "rank_candidates",
    "rerank",
    "select_excerpts",
    "select_weighted",
]

Method = Literal["ours", "bm25"]
Fusion = Callable[[Sequence[float], Sequence[float]], list[int]]
"""(first-stage scores, reranker scores) -> the new order (:func:`.rerank.fuse`)."""
_METHODS: dict[str, Weights] = {"ours": DEFAULT_WEIGHTS, "bm25": BM25_ONLY}
FILL_MIN_TOKENS = 20
"""Budget left after whole passages from which the best sentences of the next passage are
taken (:func:`_best_part`); less is left unspent."""


def rank_candidates(  # noqa: C901
    query: str, docs: Sequence[SourceDoc], weights: Weights
) -> list[Candidate]:
    """Score every candidate passage of *docs*; return the eligible ones, best first."""
    candidates = build_candidates(docs)
    terms = query_terms(query)
    if not candidates:
        return []
    if not terms:
        leads = [c for c in candidates if c.index == 0]
        for c in leads:
            c.score = 1.0 / max(c.source.rank, 1)
        return sorted(leads, key=lambda c: (-c.score, c.doc, c.kind != "snippet"))
    count_query_terms(candidates, terms)
    index = BM25([c.tf for c in candidates], [c.words.total() for c in candidates])
    raw = index.scores(terms)
    best = max(raw) or 1.0
    idf = {t: index.idf(t) for t in dict.fromkeys(terms)}
    query_bigrams = bigrams(terms)
    wanted = set(terms)
    heading_terms: dict[str | None, set[str]] = {None: set()}
    title_cover = [coverage(analyze(d.title), idf) for d in docs] if weights.title else []
    page_cover: list[float] = []
    if weights.page:
        page_terms: list[set[str]] = [set() for _ in docs]
        for c in candidates:
            page_terms[c.doc].update(c.tf)
        page_cover = [coverage(found, idf) for found in page_terms]
    page_bm25 = page_scores(candidates, len(docs), terms) if weights.page_bm25 else []
    asked = read_question(query) if weights.answer_type else None
    eligible: list[Candidate] = []
    for c, bm in zip(candidates, raw, strict=True):
        if c.heading not in heading_terms:
            heading_terms[c.heading] = set(analyze(c.heading or ""))
        head = coverage(heading_terms[c.heading], idf) if weights.heading else 0.0
        if bm <= 0 and head <= 0:
            continue
        score = weights.bm25 * bm / best + weights.heading * head
        if weights.coverage:
            score += weights.coverage * coverage(c.tf.keys(), idf)
        if weights.bigram and query_bigrams and len(c.tf) > 1:
            matched = len(query_bigrams & bigrams(analyze(c.text)))
            score += weights.bigram * matched / len(query_bigrams)
        if weights.proximity and len(c.tf) > 1:
            score += weights.proximity * proximity(analyze(c.text), wanted)
        if title_cover:
            score += weights.title * title_cover[c.doc]
        if page_cover:
            score += weights.page * page_cover[c.doc]
        if page_bm25:
            score += weights.page_bm25 * page_bm25[c.doc]
        if asked is not None and holds_answer_kind(c.text, asked):
            score += weights.answer_type
        score += weights.lead / (1 + c.index) + weights.rank / max(c.source.rank, 1)
        c.score = score
        eligible.append(c)
    eligible.sort(key=lambda c: (-c.score, c.source.rank, c.doc, c.index))
    if weights.cutoff and eligible:
        floor = weights.cutoff * eligible[0].score
        eligible = [c for c in eligible if c.score >= floor]
    return eligible


def page_scores(candidates: Sequence[Candidate], pages: int, terms: Sequence[str]) -> list[float]:
    """BM25 of each of *pages* pages as one document (the query-term counts and lengths of
    its candidates summed; IDF over the pages), divided by the best page's score."""
    term_freqs: list[Counter[str]] = [Counter() for _ in range(pages)]
    lengths = [0] * pages
    for c in candidates:
        term_freqs[c.doc].update(c.tf)
        lengths[c.doc] += c.words.total()
    scores = BM25(term_freqs, lengths).scores(terms)
    best = max(scores, default=0.0) or 1.0
    return [s / best for s in scores]


def rerank(
    query: str,
    ranked: list[Candidate],
    reranker: Reranker,
    *,
    depth: int = RERANK_DEPTH,
    fusion: Fusion = fuse,
) -> list[Candidate]:
    """*ranked* with its top *depth* reordered by fusing in *reranker*'s scores."""
    top = ranked[:depth]
    if len(top) < 2:
        return ranked
    passages = [
        RerankPassage(text=c.text, title=c.source.title, heading=c.heading,
                      source_rank=c.source.rank)
        for c in top
    ]  # fmt: skip
    order = fusion([c.score for c in top], list(reranker.score(query, passages)))
    return [top[i] for i in order] + ranked[depth:]


def _select(
    ranked: list[Candidate], max_tokens: int, asked: Collection[str], *, fill: bool = True
) -> list[Candidate]:
    chosen: list[Candidate] = []
    chosen_shingles: list[frozenset[tuple[str, ...]]] = []
    labelled: set[int] = set()
    remaining = max_tokens
    for c in ranked:
        cost = passage_cost(c.source.title, c.heading, c.text, asked)
        if c.doc not in labelled:
            cost += source_label_cost(c.source.title, c.source.url, c.source.byline)
        if cost > remaining:
            continue
        sh = shingles(c.raw_text)
        if any(is_near_duplicate(sh, other) for other in chosen_shingles):
            continue
        chosen.append(c)
        chosen_shingles.append(sh)
        labelled.add(c.doc)
        remaining -= cost
    if fill and remaining >= FILL_MIN_TOKENS:
        taken = {id(c) for c in chosen}
        rest = (c for c in ranked if id(c) not in taken)
        part = _best_part(rest, remaining, asked, labelled, chosen_shingles)
        if part is not None:
            chosen.append(part)
    return chosen


def _best_part(
    rest: Iterable[Candidate],
    remaining: int,
    asked: Collection[str],
    labelled: Collection[int],
    chosen_shingles: Sequence[frozenset[tuple[str, ...]]],
) -> Candidate | None:
    """The best sentences (:func:`.window.best_window`) of the best page passage left in
    *rest* that fit *remaining* tokens, as a candidate of their own; ``None`` if none fit."""
    for c in rest:
        if c.kind != "page" or c.source.text[c.start : c.end] != c.text:
            continue  # a snippet, or a table chunk shown with its header row
        room = remaining - passage_cost(c.source.title, c.heading, "", asked)
        if c.doc not in labelled:
            room -= source_label_cost(c.source.title, c.source.url, c.source.byline)
        span = best_window(c.text, asked, room) if room >= FILL_MIN_TOKENS // 2 else None
        if span is None:
            continue
        start, end = span
        part = Candidate(
            doc=c.doc, source=c.source, kind=c.kind, text=c.text[start:end],
            start=c.start + start, end=c.start + end, index=c.index, heading=c.heading,
        )  # fmt: skip
        part.score = c.score
        sh = shingles(part.text)
        if not any(is_near_duplicate(sh, other) for other in chosen_shingles):
            return part
    return None


def select_weighted(
    query: str,
    docs: Sequence[SourceDoc],
    *,
    max_tokens: int,
    weights: Weights,
    reranker: Reranker | None = None,
    fusion: Fusion = fuse,
    fill: bool = True,
) -> list[Excerpt]:
    """Like :func:`select_excerpts` with explicit feature *weights* and rerank *fusion*, and
    without the last sentences taken from a passage that does not fit when *fill* is false
    (for tuning and ablation)."""
    if max_tokens <= 0 or not docs:
        return []
    ranked = rank_candidates(query, docs, weights)
    asked = frozenset(query_terms(query))
    if reranker is not None and asked:
        ranked = rerank(query, ranked, reranker, fusion=fusion)
    chosen = _select(ranked, max_tokens, asked, fill=fill)
    chosen.sort(key=lambda c: (c.source.rank, c.doc, c.kind != "snippet", c.start))
    ids: dict[int, int] = {}
    for c in chosen:
        ids.setdefault(c.doc, len(ids) + 1)
    return [c.excerpt(ids[c.doc]) for c in chosen]


def select_excerpts(
    query: str,
    docs: Sequence[SourceDoc],
    *,
    max_tokens: int,
    method: Method = "ours",
    reranker: Reranker | None = None,
) -> list[Excerpt]:
    """Return the passages of *docs* that best answer *query*, within *max_tokens*.

    *docs* are the search results (page text and snippet each). The
    :func:`~insomnia_web.rank.budget.selection_cost` of the result, label lines included, is
    at most *max_tokens*. A *reranker* re-scores the best candidates (:mod:`.rerank`).
    Excerpts are grouped by source in provider rank order, in page order within a source,
    and share their source's id. ``method="bm25"`` ranks by plain BM25 (the baseline);
    ``"ours"`` adds the features described in :mod:`insomnia_web.rank.features`. An unknown
    *method* raises ``ValueError``.
    """
    if method not in _METHODS:
        raise ValueError(f"method must be 'ours' or 'bm25', not {method!r}")
    return select_weighted(
        query, docs, max_tokens=max_tokens, weights=_METHODS[method], reranker=reranker
    )
