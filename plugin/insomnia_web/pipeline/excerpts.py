"""The excerpt pipeline: search results -> fetched pages -> ranked passages under a budget."""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence

import msgspec
from yarl import URL

from ..hosts.names import normalize_host
from ..net.client import SafeClient
from ..rank import Excerpt, Method, SourceDoc, select_excerpts
from ..rank.budget import selection_cost
from ..rank.candidates import query_terms
from ..rank.rerank import Reranker, RerankPassage
from ..schemas import ExcerptItem, PageStatus, ResultItem
from .fetch import FetchContext, Gate, PageOutcome, PageRequest, fetch_pages
from .search_layout import escape_marks, frame_cost

__all__ = ["RANK_RESERVE", "PipelineResult", "excerpt_item", "one_round", "run_excerpts"]

_log = logging.getLogger(__name__)

RANK_RESERVE = 0.05
"""Share of the deadline kept for ranking and rendering: fetching stops this much earlier."""
MAX_RANK_RESERVE_S = 0.5
MIN_RERANK_S = 0.25
"""Least time a reranker is given when fetching used all of the deadline."""


class PipelineResult(msgspec.Struct, frozen=True, kw_only=True):
    """Excerpts grouped by source in rank order, what happened to each page, and warnings."""

    excerpts: list[ExcerptItem]
    pages: list[PageStatus]
    tokens: int
    """Budget cost of the excerpts, labels included (see :mod:`insomnia_web.rank.budget`);
    the text around them is priced by :func:`.search_layout.frame_cost`."""
    warnings: list[str] = msgspec.field(default_factory=list)


_late_calls: dict[int, threading.Thread] = {}
"""The call of each reranker (by ``id``) that outlived its search's deadline."""


def _first_stage(n: int) -> list[float]:
    """Scores that keep the first-stage order of *n* candidates."""
    return [float(-i) for i in range(n)]


class GuardedReranker(Reranker):
    """A reranker whose failure costs the second opinion, not the search: when it raises
    (anything, ``BaseException`` included), answers after *timeout_s*, or returns a score
    that is not a finite number or the wrong number of scores, the candidates keep their
    first-stage order and :attr:`failure` says why (a warning for the model; the traceback
    goes to the log, for the plugin's author).

    The inner ``score`` runs in a daemon thread of its own, waited for at most *timeout_s*,
    over a tuple of the passages, so that emptying or reordering what it was given changes
    nothing here. A thread cannot be stopped: one that never returns is left behind, and
    while it runs the reranker is not called again (a failure), so that a reranker that
    hangs holds one thread, not one per search.
    """

    name = "guarded"

    def __init__(self, inner: Reranker, *, timeout_s: float) -> None:
        self.inner = inner
        self.timeout_s = timeout_s
        self.failure: str | None = None

    def score(self, query: str, passages: Sequence[RerankPassage]) -> Sequence[float]:
        """The inner reranker's scores, or scores that keep the first-stage order."""
        given = tuple(passages)
        answer: list[list[float] | BaseException] = []
        late = _late_calls.get(id(self.inner))
        if late is not None and late.is_alive():
            self._fail("its call of an earlier search has not returned")
            return _first_stage(len(given))

        def call() -> None:
            try:
                answer.append([float(s) for s in self.inner.score(query, given)])
            except BaseException as exc:  # a plugin's code: whatever it raises
                answer.append(exc)

        worker = threading.Thread(target=call, name=f"rerank {self.inner.name}", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if not answer:
            _late_calls[id(self.inner)] = worker
            self._fail(f"no answer within {self.timeout_s:.2f} s")
        elif isinstance(scores := answer[0], BaseException):
            _log.warning("reranker %r failed", self.inner.name, exc_info=scores)
            self._fail(f"{type(scores).__name__}: {scores}")
        elif len(scores) == len(given) and all(math.isfinite(s) for s in scores):
            return scores
        else:
            self._fail(f"{len(scores)} scores for {len(given)} passages, or not all finite")
        return _first_stage(len(given))

    def _fail(self, why: str) -> None:
        self.failure = (
            f"the reranker {self.inner.name!r} failed ({why[:200]}); passages are ranked without it"
        )


def excerpt_item(e: Excerpt) -> ExcerptItem:
    """*e* as the output shows it; its first line is escaped (:func:`.escape_marks`) as the
    page's lines were: a passage cut inside a paragraph starts where no line did."""
    return ExcerptItem(
        id=e.id,
        url=e.url,
        title=e.title,
        text=escape_marks(e.text),
        score=round(e.score, 4),
        start=e.start,
        end=e.end,
        heading=e.heading,
        byline=e.byline,
    )


def byline(outcome: PageOutcome | None) -> str | None:
    """``By Ann Lee · 2026-03-01 · modified 2026-03-02``, from what the page states: the
    author, the day of publication (a date after a byline needs no word to say what it is),
    and the modified day only when it is later than that."""
    if outcome is None or outcome.status != "ok":
        return None
    author = outcome.author or ""
    if author[:3].lower() == "by ":  # the page's own "By ...": not "By By ..."
        author = author[3:].lstrip()
    parts = [f"By {author}"] if author else []
    published = (outcome.published or "")[:10]
    modified = (outcome.modified or "")[:10]
    if published:
        parts.append(published)
    if modified > published:
        parts.append(f"modified {modified}")
    if not parts:
        return None
    line = " · ".join(parts)
    return line[0].upper() + line[1:]


def _doc(result: ResultItem, outcome: PageOutcome | None) -> SourceDoc:
    title = result.title or (outcome.title if outcome else None) or result.url
    return SourceDoc(
        url=result.url,
        title=title,
        text=escape_marks(outcome.text) if outcome is not None and outcome.status == "ok" else "",
        rank=result.rank,
        snippet=escape_marks(result.snippet) or None,
        byline=byline(outcome),
    )


def one_round(results: Sequence[ResultItem], max_per_host: int | None) -> list[ResultItem]:
    """*results* less those beyond the first *max_per_host* of their host (rank order kept);
    all of them when *max_per_host* is ``None``."""
    if max_per_host is None:
        return list(results)
    seen: Counter[str] = Counter()
    kept = []
    for r in results:
        host = _host(r.url)
        seen[host] += 1
        if seen[host] <= max_per_host:
            kept.append(r)
    return kept


def _host(url: str) -> str:
    """The host of *url* as the URL policy keys it (IDNA form, lower case, no trailing dot;
    the URL itself when it has none)."""
    try:
        host = URL(url).raw_host
    except ValueError:
        host = None
    return normalize_host(host or url)


def _warnings(outcomes: Sequence[PageOutcome], deadline_s: float) -> list[str]:
    out = [f"{o.url}: {w}" for o in outcomes for w in o.warnings]
    late = sum(1 for o in outcomes if o.error_code == "timeout" and o.status == "skipped")
    if late:
        out.append(f"{late} page(s) missed the {deadline_s:g} s deadline and were dropped")
    if outcomes and not any(o.status == "ok" for o in outcomes):
        out.append("no page could be read; excerpts come from search snippets only")
    return out


async def run_excerpts(
    query: str,
    results: Sequence[ResultItem],
    *,
    client: SafeClient,
    ctx: FetchContext,
    pages: int,
    deadline_s: float,
    max_tokens: int,
    per_host_concurrency: int = 6,
    max_pages_per_host: int | None = None,
    method: Method = "ours",
    reranker: Reranker | None = None,
    filtered: int = 0,
    header: str = "",
    clock: Callable[[], float] = time.monotonic,
    gate: Gate | None = None,
) -> PipelineResult:
    """Fetch the top *pages* results, extract them, and select the passages that answer.

    Of one host, at most *max_pages_per_host* of those pages are read (``None``: all), so
    that they go out in one round instead of queueing behind each other; the others count
    by their snippets, as do pages that could not be read.

    The fetches run concurrently under one deadline (:func:`.fetch.fetch_pages`) that ends
    :data:`RANK_RESERVE` of *deadline_s* early (at most half a second), so that ranking
    still finishes within *deadline_s*. The provider's snippets are ranked along with the
    page passages, so a page that failed still contributes its snippet. Ranking runs in a
    worker thread, with the optional *reranker*, which is given up (the passages keep their
    first-stage order, a warning says so) when it has not answered by *deadline_s* (or
    :data:`MIN_RERANK_S`, if fetching used all of it). The excerpts come back grouped by source in
    provider rank order; they and the text around them (provenance line, delimiters, the
    notes on unread pages, *filtered* results and warnings: :func:`.search_layout.frame_cost`)
    fit *max_tokens*. *header* is the provenance line the text will start with (``""``: a
    reserve is kept for it).
    """
    started = clock()
    top = list(results[:pages])
    read = one_round(top, max_pages_per_host)
    requests = [PageRequest(url=r.url) for r in read]
    outcomes = await fetch_pages(
        requests,
        client=client,
        ctx=ctx,
        deadline_s=deadline_s - min(deadline_s * RANK_RESERVE, MAX_RANK_RESERVE_S),
        per_host_concurrency=per_host_concurrency,
        clock=clock,
        gate=gate,
    )
    by_url = {r.url: o for r, o in zip(read, outcomes, strict=True)}
    docs = [_doc(r, by_url.get(r.url)) for r in top]
    pages_status = [
        PageStatus(url=o.url, status=o.status, error_code=o.error_code, moved=o.final_url)
        for o in outcomes
    ]
    warnings = _warnings(outcomes, deadline_s)
    budget = max_tokens - frame_cost(pages_status, warnings, filtered=filtered, header=header)
    guarded = None
    if reranker is not None:
        left = deadline_s - (clock() - started)
        guarded = GuardedReranker(reranker, timeout_s=max(left, MIN_RERANK_S))
    chosen = await asyncio.to_thread(
        select_excerpts, query, docs, max_tokens=budget, method=method, reranker=guarded
    )
    if guarded is not None and guarded.failure:
        warnings.append(guarded.failure)  # the whole text is fitted to the budget again
    return PipelineResult(
        excerpts=[excerpt_item(e) for e in chosen],
        pages=pages_status,
        tokens=selection_cost(
            ((e.title, e.url, e.heading, e.text) for e in chosen),
            frozenset(query_terms(query)),
            {e.url: e.byline for e in chosen if e.byline},
        ),
        warnings=warnings,
    )
