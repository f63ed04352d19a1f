"""Recall of the model-facing text, as WebSearch renders it, under the whole-text budget.

Rows of ``bench/recall.py`` (named ``text:bm25``, ``text:before``, ``text:default``,
``text:default+static``):

- ``bm25``: plain BM25 passages, laid out as WebSearch lays them out now;
- ``before``: the ranking and layout of the previous release: its feature weights
  (:data:`PREVIOUS_WEIGHTS`), a label per passage, the "Other results (not used)" list
  always, and a budget that did not count the provenance line, the untrusted-content
  delimiters or the notes (its text may exceed the budget);
- ``default``: the current default (``method="ours"``, grouped layout, whole-text budget,
  at most ``max_pages_per_host`` pages of one host read: the others count by their
  snippets, which the dev set does not have);
- ``default, every page read``: the same without the per-host page limit;
- ``default + static``: the same with the built-in ``static`` reranker (needs the
  ``rerank`` extra; the row says when it is missing).

:func:`current` also takes explicit weights and a rerank fusion, for ``bench/recall.py``'s
ablation rows.

A question is answered at a budget when an answer string occurs anywhere in the text the
model reads. Cells: recall with its 95% Wilson interval. ``tokens`` is the mean estimate
of the whole text; ``labels`` the share of it that is not passage text (labels, bylines,
headings, delimiters, header, notes, other results), by the token estimator and, in parentheses, by
words x 1.3 for both the whole text and the passages (which counts a URL as one word).
The paired column is the difference to ``bm25`` at 1000 tokens with its 95% interval
(normal approximation of the paired differences).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import msgspec

from insomnia_web import parse_manifest
from insomnia_web.modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END, wrap_untrusted
from insomnia_web.pipeline import fit_excerpt_search, frame_cost
from insomnia_web.pipeline.excerpts import excerpt_item, one_round
from insomnia_web.rank import Method, SourceDoc, estimate_tokens, select_excerpts
from insomnia_web.rank.budget import excerpt_cost
from insomnia_web.rank.features import Weights
from insomnia_web.rank.ranker import Fusion, rank_candidates, select_weighted
from insomnia_web.rank.rerank import Reranker, fuse
from insomnia_web.schemas import ExcerptItem, ResultItem, SearchCacheInfo, WebSearchOutput
from insomnia_web.tools.search_cache import provenance_header

BUDGETS = (500, 1000, 2000)
HEADER = provenance_header(SearchCacheInfo(status="miss"), provider="searxng")
PREVIOUS_HEADER = "[cache: miss · searxng · 2026-12-02T10:00Z]"
"""The previous release's provenance line on a miss: it gave the time."""
Z95 = 1.96
PER_HOST = parse_manifest({}).web.pipeline.max_pages_per_host
"""Pages of one host an excerpt search reads, by default."""
PREVIOUS_WEIGHTS = Weights(bm25=1.0, heading=0.5, coverage=0.2, title=0.2, page=0.2, cutoff=0.2)
"""The previous release's feature weights (no page BM25)."""


class Case(Protocol):
    """A question with its answer strings (``recall.Question``)."""

    question: str
    answers: list[str]


Render = Callable[[str, list[SourceDoc], int], tuple[str, int, int, int]]
"""(query, docs, budget) -> (whole text, its tokens, tokens of passage text, passage words)."""


def _output(query: str, docs: Sequence[SourceDoc], excerpts: list[ExcerptItem]) -> WebSearchOutput:
    results = [ResultItem(rank=d.rank, title=d.title, url=d.url) for d in docs]
    return WebSearchOutput(
        query=query, provider="searxng", mode="excerpts", cache=SearchCacheInfo(status="miss"),
        results=results, excerpts=excerpts,
    )  # fmt: skip


def one_host_round(docs: list[SourceDoc], max_per_host: int | None) -> list[SourceDoc]:
    """*docs* with the pages beyond the first *max_per_host* of their host left unread."""
    results = [ResultItem(rank=d.rank, title=d.title, url=d.url) for d in docs]
    read = {id(r) for r in one_round(results, max_per_host)}
    return [
        d if id(r) in read else msgspec.structs.replace(d, text="")
        for d, r in zip(docs, results, strict=True)
    ]


def current(
    method: Method,
    reranker: Reranker | None = None,
    *,
    max_per_host: int | None = PER_HOST,
    weights: Weights | None = None,
    fusion: Fusion = fuse,
    fill: bool = True,
) -> Render:
    """WebSearch's selection and layout today, under the whole-text budget (with *weights*
    and *fusion* instead of *method*'s and the default's, when given, and without the
    sentences that fill what whole passages leave of the budget when *fill* is false)."""

    def render(query: str, docs: list[SourceDoc], budget: int) -> tuple[str, int, int, int]:
        docs = one_host_round(docs, max_per_host)
        room = budget - frame_cost([], [], header=HEADER)
        if weights is None:
            found = select_excerpts(query, docs, max_tokens=room, method=method, reranker=reranker)
        else:
            found = select_weighted(
                query, docs, max_tokens=room, weights=weights, reranker=reranker, fusion=fusion,
                fill=fill,
            )  # fmt: skip
        items = [excerpt_item(e) for e in found]
        output, text = fit_excerpt_search(_output(query, docs, items), HEADER, budget)
        shown = output.excerpts
        words = sum(len(e.text.split()) for e in shown)
        return text, output.tokens, sum(estimate_tokens(e.text) for e in shown), words

    return render


def before(query: str, docs: list[SourceDoc], budget: int) -> tuple[str, int, int, int]:
    """The previous release: per-passage labels, full passage text, budget on excerpts only."""
    chosen = []
    remaining = budget
    for c in rank_candidates(query, docs, PREVIOUS_WEIGHTS):
        cost = excerpt_cost(c.source.title, c.source.url, c.heading, c.raw_text)
        if cost <= remaining:
            chosen.append(c)
            remaining -= cost
    chosen.sort(key=lambda c: (c.source.rank, c.doc, c.kind != "snippet", c.start))
    blocks = []
    for n, c in enumerate(chosen, start=1):
        lines = [f"[{n}] {' '.join(c.source.title.split()) or c.source.url} - {c.source.url}"]
        if c.heading:
            lines.append(f"§ {c.heading}")
        lines.append(c.raw_text)
        blocks.append("\n".join(lines))
    body = ["\n\n".join(blocks)] if blocks else []
    used = {c.source.url for c in chosen}
    rest = [d for d in docs if d.url not in used]
    if rest:
        body.append(
            "\n".join(["Other results (not used):"] + [f"- {d.title} - {d.url}" for d in rest])
        )
    text = f"{PREVIOUS_HEADER}\n{wrap_untrusted(chr(10).join(body))}"
    words = sum(len(c.raw_text.split()) for c in chosen)
    return text, estimate_tokens(text), sum(estimate_tokens(c.raw_text) for c in chosen), words


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = hits / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def _answered(case: Case, text: str) -> bool:
    blob = text.lower()
    return any(a.lower() in blob for a in case.answers)


class Measured:
    """Per budget: answered flags per case, mean tokens, mean label shares (two counts)."""

    def __init__(self) -> None:
        self.flags: list[list[bool]] = []
        self.tokens: list[float] = []
        self.shares: list[float] = []
        self.word_shares: list[float] = []


def measure(cases: Sequence[tuple[Any, list[SourceDoc]]], render: Render) -> Measured:
    """Run *render* on every case at every budget."""
    out = Measured()
    for budget in BUDGETS:
        hit, used, share, word_share = [], [], [], []
        for case, docs in cases:
            text, total, passages, words = render(case.question, docs, budget)
            hit.append(_answered(case, text))
            used.append(total)
            share.append(1 - passages / total if total else 0.0)
            all_words = len(text.split())
            word_share.append(1 - words / all_words if all_words else 0.0)
        out.flags.append(hit)
        out.tokens.append(statistics.fmean(used))
        out.shares.append(statistics.fmean(share))
        out.word_shares.append(statistics.fmean(word_share))
    return out


def paired(a: Sequence[bool], b: Sequence[bool]) -> tuple[float, float]:
    """Mean of a - b over paired cases and the half-width of its 95% interval."""
    d = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    sd = statistics.stdev(d) if len(d) > 1 else 0.0
    return statistics.fmean(d), Z95 * sd / math.sqrt(len(d))


def static_reranker() -> Reranker | None:
    """The built-in static reranker, or ``None`` when the rerank extra is missing."""
    from insomnia_web.errors import ToolError
    from insomnia_web.rank.static_rerank import StaticReranker

    try:
        return StaticReranker()
    except ToolError:
        return None


def rows() -> list[tuple[str, Render | None]]:
    """The methods compared (a ``None`` render: unavailable here)."""
    static = static_reranker()
    return [
        ("bm25", current("bm25")),
        ("before (previous release)", before),
        ("default", current("ours")),
        ("default, every page read", current("ours", max_per_host=None)),
        ("default + static rerank", current("ours", static) if static else None),
    ]


def report(cases: Sequence[tuple[Any, list[SourceDoc]]], title: str = "") -> None:
    """Print the table of :func:`rows` over *cases*."""
    head = " | ".join(f"@{b}" for b in BUDGETS)
    print(f"\nrecall of the whole model-facing text{title} ({len(cases)} questions; 95% CI)")
    print(f"\n| method | {head} | tokens @1000 | labels @1000 | vs bm25 @1000 |")
    print("|---|" + "---|" * len(BUDGETS) + "---|---|---|")
    base: list[bool] | None = None
    at = BUDGETS.index(1000)
    for name, render in rows():
        if render is None:
            print(f"| {name} | (rerank extra not installed) |")
            continue
        m = measure(cases, render)
        flags = m.flags
        cells = []
        for hit in flags:
            lo, hi = wilson(sum(hit), len(hit))
            cells.append(f"{sum(hit) / len(hit):.3f} [{lo:.2f}, {hi:.2f}]")
        if base is None:
            base = flags[at]
            versus = "-"
        else:
            mean, half = paired(flags[at], base)
            versus = f"{mean:+.3f} ± {half:.3f}"
        labels = f"{m.shares[at]:.1%} ({m.word_shares[at]:.1%})"
        print(f"| {name} | {' | '.join(cells)} | {m.tokens[at]:.0f} | {labels} | {versus} |")


def line_kind(index: int, line: str, previous: str = "") -> str:
    """What one line of the rendered text is, after a line of the kind *previous*: header,
    delimiter, label, byline, heading, gap, other results, blank or passage."""
    if index == 0:
        return "provenance line"
    if line in (UNTRUSTED_BEGIN, UNTRUSTED_END):
        return "delimiters"
    if re.match(r"\[\d+\] ", line):
        return "labels"
    if previous == "labels" and re.match(r"(By .+|Published|Modified) ", line):
        return "bylines"
    if line.startswith("§ "):
        return "heading lines"
    if line == "…":
        return "gap marks"
    if line.startswith("Other results"):
        return "other results"
    return "blank lines" if not line else "passages"


def line_parts(kind: str, line: str) -> list[tuple[str, str]]:
    """*line* as (kind, text) parts: a label's URL apart from its id and title (the URL is
    what WebFetch must be given verbatim, so it is the floor of what labels cost)."""
    if kind != "labels":
        return [(kind, line)]
    head, _, url = line.rpartition(" ")
    return [("labels: ids and titles", head), ("labels: URLs", url)]


def print_breakdown(cases: Sequence[tuple[Any, list[SourceDoc]]], budget: int = 1000) -> None:
    """Print where the tokens of the default's text go at *budget*, line kind by line kind
    (each line estimated on its own, so the shares add up to a little over 100%), and, with
    the ``rerank`` extra, the same by a real BPE tokenizer (:func:`bpe_counter`; line
    breaks are the part of its whole-text count no line kind holds)."""
    render = current("ours")
    count = bpe_counter()
    spent: dict[str, int] = {}
    bpe: dict[str, int] = {}
    total = bpe_total = 0
    for case, docs in cases:
        text, tokens, _, _ = render(case.question, docs, budget)
        total += tokens
        bpe_total += count(text) if count else 0
        kind = ""
        for i, line in enumerate(text.split("\n")):
            kind = line_kind(i, line, kind)
            for part_kind, part in line_parts(kind, line):
                spent[part_kind] = spent.get(part_kind, 0) + estimate_tokens(part)
                bpe[part_kind] = bpe.get(part_kind, 0) + (count(part) if count and part else 0)
    n_cases = len(cases)
    print(f"\nwhere the default's tokens go at {budget} ({n_cases} questions)\n")
    print("| lines | tokens per question | share | BPE tokens | BPE share |\n|---|---|---|---|---|")
    for kind, n in sorted(spent.items(), key=lambda item: -item[1]):
        real = (
            f"{bpe[kind] / n_cases:.1f} | {bpe[kind] / max(1, bpe_total):.1%}" if count else "- | -"
        )
        print(f"| {kind} | {n / n_cases:.1f} | {n / max(1, total):.1%} | {real} |")
    if count is None:
        print(
            "\n(no BPE column: the rerank extra, whose wordllama ships the tokenizer, is missing)"
        )
        return
    print(f"\nwhole text: {total / n_cases:.0f} tokens estimated, {bpe_total / n_cases:.0f} by "
          f"Llama 2's BPE tokenizer ({bpe_total / max(1, total) - 1:+.0%}); a tokenizer with a "
          "larger vocabulary counts fewer")  # fmt: skip


def bpe_counter() -> Callable[[str], int] | None:
    """A real LLM tokenizer's count (Llama 2's 32k BPE, which the ``rerank`` extra's
    wordllama ships), or ``None`` without the extra."""
    from insomnia_web.errors import ToolError
    from insomnia_web.rank.static_rerank import load_wordllama

    try:
        tokenizer = load_wordllama().tokenizer
    except ToolError:
        return None
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


def as_runner(render: Render, run_type: Any) -> Callable[[str, list[SourceDoc], int], Any]:
    """A ``bench/recall.py`` runner (returning its *run_type*) for *render*."""

    def run(query: str, docs: list[SourceDoc], budget: int) -> Any:
        text, total, passages, _ = render(query, docs, budget)
        return run_type([text], total, total - passages)

    return run


def layout_methods(run_type: Any) -> dict[str, Callable[[str, list[SourceDoc], int], Any]]:
    """``bench/recall.py`` runners (returning its *run_type*) for :func:`rows`, named
    ``text:...``."""

    names = {
        "bm25": "text:bm25",
        "before (previous release)": "text:before",
        "default": "text:default",
        "default, every page read": "text:default-all-pages",
        "default + static rerank": "text:default+static",
    }
    return {
        names[name]: as_runner(render, run_type) for name, render in rows() if render is not None
    }
