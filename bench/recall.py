"""Answer recall of excerpt search per token, on the dev set ``bench/qa-dev.json``.

The dev set
-----------
Hand-written questions over the benchmark pages (AEB, WCXB-dev, trafilatura-eval-dev),
paraphrasing the page rather than copying it: 200 asked the way people type into a search
engine ("how many years would a normal computer need for the Illustris TNG50 run") and 103
asked as full questions, as in a quiz, in the language of their page, mostly over news
articles ("Which filmmaker was behind the camera on the most recent Trek movie from 2016?").
Each question stores, by ``dataset/id`` only (no page text is copied):

- ``dataset``, ``page``: the page it was written from;
- ``answers``: short answer strings, any of which counts (accepted variants);
- ``returned``: the ten pages a search for it "returns", best first: the pages of all ~1,160
  pages most similar to the question by document-level BM25 over their text (ground-truth
  text where the dataset has it, AEB and WCXB; ``insomnia_web.extract`` on the HTML for
  trafilatura-eval-dev), so distractors share the question's words;
- ``split``: ``tune`` (for choosing features and weights) or ``check`` (for confirming a
  choice), a fixed hash of the question id, about half each;
- ``style``: ``keywords`` (q001-q206) or ``question`` (q207 on).

Rules every question meets: its source page is among the ten returned pages; an answer occurs
(case-insensitively, whitespace collapsed) on one to three of them; the question does not
contain its answer, and at most a third of its index terms occur in the sentence that holds
the answer (questions paraphrase). How it was built: ``devset_build.py propose`` printed
candidate fact sentences of random pages; questions were written by hand from those pages,
validated and stored with ``add``, reworded with ``rewrite`` where they copied the page, and
``prune`` dropped the ones that still broke a rule. To re-validate the stored set against the
data (exit 1 when a question breaks a rule):

    python bench/devset_build.py check

and ``refresh`` stores today's top ten per question after page text changed (see that
script's docstring).

The measurement
---------------
For each question, its ten pages are handed to each method as search results, with provider
ranks shuffled deterministically per question (document BM25 on the question itself would make
the source page rank 1 far more often than a real engine does), each as WebSearch would read
it: its URL without tracking parameters, the byline of the author and dates the page states
(which the model reads under the source's label, so it counts against the budget), and its
text with Markdown links written as their words (WCXB's gold text keeps link targets; the
extractor does not). The page text is the one the set was built and validated on
(``--text truth``, the default) or ``insomnia_web.extract`` on every page (``--text
extract``; questions whose answer the extractor lost are left out and listed). A question
counts as answered at a budget when an answer string occurs in the passage text the method
returns.

Each table cell is recall with its 95% Wilson interval. ``labels`` is the label share at 1000
tokens: of the model-facing tokens a method spends, the share that are labels and structure
rather than passage text (for the in-process rows by
``insomnia_web.rank.budget.selection_cost``, what ``select_excerpts`` pays; for the ``text:``
rows in the whole rendered text: header, delimiters, labels, bylines, heading lines, notes,
other results). The tables are printed for the ``tune`` part, the ``check`` part, each wording
style (``keywords``, ``question``) and the whole set.
``--compare A B`` prints the paired difference A - B with a paired-bootstrap 95% interval
(fixed seed); a change is kept only when the interval excludes 0. The line "room to lose"
reports plain BM25 at 1000 tokens: the set can tell methods apart only while that is below
0.80.

Passage level
-------------
Each question was written from one page, and document BM25 chose its other pages, so the
answer page is usually the one most about the question and its distractors are on other
topics: a method gains here by choosing the page, which real result lists (ten pages on
one story) reward far less. The passage-level tables therefore run the same methods with
only the returned pages that hold the answer (about 1.1 per question, 1,900 tokens of
text), at 250, 500 and 1000 tokens, where choosing the page cannot help; a feature that
claims to find better passages must win there too.

Methods (``METHODS``, a table of named runners; add a row to measure a new method):

- ``bm25-plain``: BM25 over fixed 100-word passages of all ten pages, best first until the
  budget, no labels at all (the baseline a method must beat);
- ``bm25``: ``select_excerpts(method="bm25")``, in process (labels priced in);
- ``ours``: ``select_excerpts(method="ours")``, the default ranking, in process;
- ``lead``: the first tokens of the rank-1 page, as much as the budget allows.
- ``text:bm25``, ``text:before``, ``text:default``, ``text:default-all-pages``,
  ``text:default+static``: the whole text WebSearch renders (``bench/recall_layout.py``)
  for plain BM25 passages, the previous release's ranking and layout, the current default,
  the default without its per-host page limit, and the default with the ``static`` reranker
  (when the ``rerank`` extra is installed); answers are looked for in all of that text, and
  every token of it counts.

``--ablate`` adds whole-text rows (``ablation_variants``): the default without each of its
features, with each feature that is off by default added, without the sentences that fill
what whole passages leave of the budget (``without fill``), the default + ``static`` with a
score mix instead of reciprocal-rank fusion, and with only one of its two similarities; compare one
with ``--compare text:default "text:default without page_bm25"``. ``--detail`` prints the rank
of the first answer-bearing passage per question, ``--layout`` where the default's tokens go at
1000 (labels, delimiters, heading lines...). ``--speed`` times one ranking call on 5 pages of
at least 10k words each (pages repeated), and the ``static`` reranker on 40 and on 200 dev-set
passages (beside wordllama's own embedding of them). A run takes about two minutes
(``--ablate`` about ten).

    python bench/recall.py [--text truth|extract] [--ablate] [--detail] [--speed] [--layout]
        [--compare A B]

Data: ``../shared/data`` next to the repository, or ``$INSOMNIA_WEB_DATA``. WCXB pages are
CC-BY-4.0, "WCXB, Murrough Foley".
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from devset_build import (
    DATA_DIR,
    Page,
    Question,
    byline_of,
    holds_answer,
    load_devset,
    load_pages,
)
from insomnia_web.rank import Method, SourceDoc, estimate_tokens, select_excerpts
from insomnia_web.rank.analysis import analyze
from insomnia_web.rank.bm25 import BM25
from insomnia_web.rank.budget import selection_cost, source_label_cost
from insomnia_web.rank.candidates import build_candidates, query_terms
from insomnia_web.rank.features import BM25_ONLY, DEFAULT_WEIGHTS, Weights
from insomnia_web.rank.models import Excerpt
from insomnia_web.rank.ranker import rank_candidates
from insomnia_web.rank.rerank import RerankPassage
from insomnia_web.rank.static_rerank import StaticReranker
from insomnia_web.search.tracking import strip_tracking
from recall_layout import as_runner, current, layout_methods, print_breakdown, static_reranker

BUDGETS = (500, 1000, 2000)
LABEL_BUDGET = 1000  # the budget the label share is reported at
ROOM = 0.80  # plain BM25 at 1000 tokens must stay below this for the set to be useful
PASSAGE_WORDS = 100  # passage size of the plain BM25 baseline
ADDED_WEIGHT = 0.2  # weight tried for a feature that is off by default
MIX_WEIGHT = 0.8  # the reranker's share in the score-mix fusion row
RESAMPLES = 2000  # paired bootstrap resamples
SEED = 15  # bootstrap seed
PARTS = ("tune", "check", "keywords", "question", "all")
"""The slices every table reports: the two splits, the two wording styles, the whole set."""
PASSAGE_BUDGETS = (250, 500, 1000)  # the answer pages alone hold ~1,900 tokens
PASSAGE_METHODS = ("bm25-plain", "text:bm25", "text:default", "text:default+static")
"""Rows of the passage-level tables (:func:`print_passage_level`)."""
__all__ = ["DATA_DIR", "METHODS", "main"]

Case = tuple[Question, list[SourceDoc]]


class Run(NamedTuple):
    """What one method returned for one question at one budget."""

    texts: list[str]
    """The passage texts the model reads (answers are looked for here)."""
    tokens: int
    """Model-facing tokens spent, labels and structure included."""
    label_tokens: int
    """Of *tokens*, those that are not passage text."""


Runner = Callable[[str, list[SourceDoc], int], Run]

MARKDOWN_LINK_RE = re.compile(
    r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)"
)
"""A Markdown link ``[words](target "title")`` (words with one level of brackets, as in
``[[1]](...)``); its words are group 1."""


def build_cases(questions: Sequence[Question], pages: dict[str, Page]) -> list[Case]:
    """Turn every question's returned pages into SourceDocs with shuffled provider ranks, as
    WebSearch reads them: their URLs without tracking parameters, the byline of the author
    and dates the page states, and the text without Markdown link targets (WCXB's gold
    text has them; the extractor writes a link as its words only)."""
    cases = []
    for q in questions:
        ranks = list(range(1, len(q.returned) + 1))
        random.Random(q.id).shuffle(ranks)
        docs = []
        for k, r in zip(q.returned, ranks, strict=True):
            p = pages[k]
            url = strip_tracking(p.url)
            byline = byline_of(p.dataset, p.page, url)
            text = MARKDOWN_LINK_RE.sub(r"\1", p.text)
            docs.append(SourceDoc(url=url, title=p.title, text=text, rank=r, byline=byline))
        docs.sort(key=lambda d: d.rank)
        cases.append((q, docs))
    return cases


def answered(q: Question, texts: Sequence[str]) -> bool:
    """Return True when an answer string occurs in one of *texts*."""
    return any(holds_answer(q.answers, t) for t in texts)


# -- methods ------------------------------------------------------------------------------


def excerpts_run(found: Sequence[Excerpt], query: str) -> Run:
    """Price what select_excerpts returned as it prices it (``selection_cost``: one label per
    source, heading lines for *query*, separators); labels are what is not passage text."""
    total = selection_cost(
        ((e.title, e.url, e.heading, e.text) for e in found),
        frozenset(query_terms(query)),
        {e.url: e.byline for e in found if e.byline},
    )
    text = sum(estimate_tokens(e.text) for e in found)
    return Run([e.text for e in found], total, total - text)


def method_runner(method: Method) -> Runner:
    """Return a runner for ``select_excerpts`` with *method* (the public entry point)."""

    def run(query: str, docs: list[SourceDoc], budget: int) -> Run:
        return excerpts_run(select_excerpts(query, docs, max_tokens=budget, method=method), query)

    return run


def plain_passages(text: str) -> list[str]:
    """Split *text* into consecutive passages of :data:`PASSAGE_WORDS` words."""
    words = text.split()
    return [" ".join(words[i : i + PASSAGE_WORDS]) for i in range(0, len(words), PASSAGE_WORDS)]


def bm25_plain(query: str, docs: list[SourceDoc], budget: int) -> Run:
    """BM25 over fixed 100-word passages of all pages; best first until the budget; no labels."""
    passages = [p for d in docs for p in plain_passages(d.text)]
    terms = analyze(query)
    wanted = set(terms)
    tfs = []
    lengths = []
    for p in passages:
        analyzed = analyze(p)
        tfs.append(Counter(t for t in analyzed if t in wanted))
        lengths.append(len(analyzed))
    scores = BM25(tfs, lengths).scores(terms) if passages else []
    order = sorted(range(len(passages)), key=lambda i: -scores[i])
    texts: list[str] = []
    left = budget
    for i in order:
        if scores[i] <= 0:
            break
        cost = estimate_tokens(passages[i])
        if cost <= left:
            texts.append(passages[i])
            left -= cost
    return Run(texts, budget - left, 0)


def lead_run(query: str, docs: list[SourceDoc], budget: int) -> Run:
    """Return the longest prefix of the rank-1 page that fits *budget* with its label."""
    del query
    top = docs[0]
    label = source_label_cost(top.title, top.url)
    text = top.text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) <= budget - label:
            lo = mid
        else:
            hi = mid - 1
    return Run([text[:lo]], label + estimate_tokens(text[:lo]), label)


METHODS: dict[str, Runner] = {
    "bm25-plain": bm25_plain,
    "bm25": method_runner("bm25"),
    "ours": method_runner("ours"),
    "lead": lead_run,
}
"""The methods every run reports, by name (``--compare`` takes these names too)."""

# The whole model-facing text as WebSearch renders it (bench/recall_layout.py): answers are
# looked for in all of it, and every token of it counts.
METHODS.update(layout_methods(Run))

RANKED: dict[Method, Weights] = {"ours": DEFAULT_WEIGHTS, "bm25": BM25_ONLY}
"""Methods with a passage ranking, for MRR, ``--detail`` and ``--speed``."""


def score_mix(first: Sequence[float], second: Sequence[float]) -> list[int]:
    """A fusion tried instead of reciprocal ranks: ``(1 - w) * first + w * rerank``, each
    min-max scaled over the candidates (w = :data:`MIX_WEIGHT`)."""

    def scaled(scores: Sequence[float]) -> list[float]:
        low, high = min(scores), max(scores)
        return [(x - low) / (high - low) if high > low else 0.0 for x in scores]

    a, b = scaled(first), scaled(second)
    fused = [(1 - MIX_WEIGHT) * x + MIX_WEIGHT * y for x, y in zip(a, b, strict=True)]
    return sorted(range(len(first)), key=lambda i: (-fused[i], -b[i], i))


def ablation_variants() -> dict[str, Runner]:
    """Return the whole-text ablation rows: each default feature dropped, each other
    feature added, and the ``static`` rerank with another fusion or one similarity."""
    out: dict[str, Runner] = {}
    for field in DEFAULT_WEIGHTS.__struct_fields__:
        if field in ("bm25", "cutoff"):
            continue
        on = getattr(DEFAULT_WEIGHTS, field)
        label = f"without {field}" if on else f"with {field}={ADDED_WEIGHT}"
        weights = msgspec.structs.replace(DEFAULT_WEIGHTS, **{field: 0.0 if on else ADDED_WEIGHT})
        out[f"text:default {label}"] = as_runner(current("ours", weights=weights), Run)
    unfilled = current("ours", weights=DEFAULT_WEIGHTS, fill=False)
    out["text:default without fill"] = as_runner(unfilled, Run)
    static = static_reranker()
    if isinstance(static, StaticReranker):
        render = current("ours", static, weights=DEFAULT_WEIGHTS, fusion=score_mix)
        out["text:default+static score mix"] = as_runner(render, Run)
        for signal in (0, 1):
            one = OneSimilarity(static.model, signal)
            out[f"text:default+static {one.label} only"] = as_runner(current("ours", one), Run)
    return out


class OneSimilarity(StaticReranker):
    """The ``static`` reranker scoring by one of its two similarities (an ablation row)."""

    def __init__(self, model: object, signal: int) -> None:
        super().__init__(model)
        self.signal = signal
        self.label = ("pooled", "max-sim")[signal]

    def score(self, query: str, passages: Sequence[RerankPassage]) -> Sequence[float]:
        """The pooled (signal 0) or max-sim (signal 1) similarity alone."""
        return self.similarities(query, passages)[self.signal] if passages else []


# -- statistics ---------------------------------------------------------------------------


class Result(NamedTuple):
    """One method's per-question outcomes: hits[b][q] at each budget, token sums, CPU time."""

    hits: list[list[bool]]
    tokens: list[int]
    label_tokens: list[int]
    ms: float


def evaluate(cases: Sequence[Case], run: Runner, budgets: Sequence[int] = BUDGETS) -> Result:
    """Run *run* on every case at every budget (of *budgets*)."""
    hits: list[list[bool]] = [[] for _ in budgets]
    tokens = [0] * len(budgets)
    labels = [0] * len(budgets)
    cpu = 0.0
    for q, docs in cases:
        for i, budget in enumerate(budgets):
            start = time.process_time()
            out = run(q.question, docs, budget)
            cpu += time.process_time() - start
            hits[i].append(answered(q, out.texts))
            tokens[i] += out.tokens
            labels[i] += out.label_tokens
    return Result(hits, tokens, labels, 1000 * cpu / max(1, len(cases) * len(budgets)))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of *k* successes in *n* trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def cell(hits: Sequence[bool]) -> str:
    """Format recall and its Wilson interval."""
    lo, hi = wilson(sum(hits), len(hits))
    return f"{sum(hits) / max(1, len(hits)):.2f} [{lo:.2f}, {hi:.2f}]"


def paired_diff(a: Sequence[bool], b: Sequence[bool]) -> tuple[float, float, float]:
    """Return the mean of a - b and its paired-bootstrap 95% interval (fixed seed)."""
    n = len(a)
    d = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    if n == 0:
        return (0.0, 0.0, 0.0)
    rng = random.Random(SEED)
    means = sorted(sum(d[rng.randrange(n)] for _ in range(n)) / n for _ in range(RESAMPLES))
    return (sum(d) / n, means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1])


def part_indices(cases: Sequence[Case], part: str) -> list[int]:
    """Return the positions of the cases in *part*: a split (``tune``, ``check``), a wording
    style (``keywords``, ``question``) or ``all``."""
    return [i for i, (q, _) in enumerate(cases) if part in ("all", q.split, q.style)]


def pick(hits: Sequence[bool], where: Sequence[int]) -> list[bool]:
    """Return the outcomes at positions *where*."""
    return [hits[i] for i in where]


# -- report -------------------------------------------------------------------------------


def answer_rank(q: Question, docs: Sequence[SourceDoc], weights: Weights) -> int | None:
    """Return the 1-based rank of the first candidate passage holding an answer, if any."""
    for position, candidate in enumerate(rank_candidates(q.question, docs, weights), start=1):
        if answered(q, [candidate.text]):
            return position
    return None


def mrr(cases: Sequence[Case], weights: Weights) -> float:
    """Mean reciprocal rank of the first answer-bearing passage (0 when none is eligible)."""
    ranks = [answer_rank(q, docs, weights) for q, docs in cases]
    return sum(1 / r for r in ranks if r) / max(1, len(cases))


def print_tables(
    cases: Sequence[Case],
    results: dict[str, Result],
    budgets: Sequence[int] = BUDGETS,
    title: str = "",
) -> None:
    """Print, per part, recall with intervals at each budget and the label share."""
    li = budgets.index(LABEL_BUDGET)
    header = " | ".join(f"@{b}" for b in budgets)
    for part in PARTS:
        where = part_indices(cases, part)
        print(f"\n{title}{part}: {len(where)} questions; recall [95% Wilson interval]")
        print(f"\n| method | {header} | labels @{LABEL_BUDGET} | tokens @{LABEL_BUDGET} |")
        print("|---|" + "---|" * len(budgets) + "---|---|")
        for name, r in results.items():
            cells = " | ".join(cell(pick(h, where)) for h in r.hits)
            share = r.label_tokens[li] / max(1, r.tokens[li])
            print(f"| {name} | {cells} | {share:.1%} | {r.tokens[li] / len(cases):.0f} |")


def print_room(cases: Sequence[Case], results: dict[str, Result]) -> None:
    """Say whether plain BM25 leaves room to lose (below :data:`ROOM` at 1000 tokens)."""
    hits = results["bm25-plain"].hits[BUDGETS.index(1000)]
    for part in PARTS:
        h = pick(hits, part_indices(cases, part))
        recall = sum(h) / max(1, len(h))
        verdict = "room to lose: yes" if recall < ROOM else "room to lose: NO (set saturated)"
        print(f"# plain BM25 recall@1000 ({part}) = {cell(h)}; {verdict} (needs < {ROOM})")


def print_compare(
    cases: Sequence[Case],
    results: dict[str, Result],
    a: str,
    b: str,
    budgets: Sequence[int] = BUDGETS,
) -> None:
    """Print the paired difference of methods *a* and *b* per part and budget."""
    print(f"\npaired difference {a} - {b} [95% paired-bootstrap interval, seed {SEED}]")
    print("\n| part | " + " | ".join(f"@{x}" for x in budgets) + " |")
    print("|---|" + "---|" * len(budgets))
    for part in PARTS:
        cells = diff_cells(results[a], results[b], part_indices(cases, part))
        print(f"| {part} | " + " | ".join(cells) + " |")
    print("# * : the interval excludes 0")


def diff_cells(a: Result, b: Result, where: Sequence[int]) -> list[str]:
    """One cell per budget: the paired difference a - b over the cases *where*, starred when
    its interval excludes 0."""
    cells = []
    for ha, hb in zip(a.hits, b.hits, strict=True):
        mean, lo, hi = paired_diff(pick(ha, where), pick(hb, where))
        mark = " *" if lo > 0 or hi < 0 else ""
        cells.append(f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]{mark}")
    return cells


def print_ablation(cases: Sequence[Case], results: dict[str, Result]) -> None:
    """Print each ablation row minus its reference (the default, or the default + static)
    per part and budget, with paired-bootstrap intervals."""
    print(f"\nablation: row - reference [95% paired-bootstrap interval, seed {SEED}]")
    print("\n| row | part | " + " | ".join(f"@{x}" for x in BUDGETS) + " |")
    print("|---|---|" + "---|" * len(BUDGETS))
    for name in ablation_names(results):
        reference = "text:default+static" if "+static" in name else "text:default"
        for part in PARTS:
            cells = diff_cells(results[name], results[reference], part_indices(cases, part))
            print(f"| {name} | {part} | " + " | ".join(cells) + " |")
    print("# * : the interval excludes 0")


def ablation_names(results: dict[str, Result]) -> list[str]:
    """The ablation rows among *results* (named after the row they vary)."""
    return [n for n in results if n.startswith("text:default") and n.count(" ")]


def speed_inputs(cases: Sequence[Case]) -> dict[str, list[SourceDoc]]:
    """Return two speed inputs of 5 pages, each page repeated to at least 10k words:
    the 5 longest page texts (link-heavy lists and tables) and the 5 longest news articles."""
    docs = {d.url: d for _, case in cases for d in case}.values()
    longest = sorted(docs, key=lambda d: len(d.text), reverse=True)[:5]
    news = {d.url: d for q, case in cases if q.dataset == "aeb" for d in case}
    articles = sorted(news.values(), key=lambda d: len(d.text), reverse=True)
    return {"longest pages": _repeat(longest), "news articles": _repeat(articles[:5])}


def _repeat(docs: Sequence[SourceDoc]) -> list[SourceDoc]:
    return [
        SourceDoc(
            url=f"https://example.com/{i}",
            title=d.title,
            rank=i + 1,
            text="\n\n".join([d.text] * -(-10_000 // max(1, len(d.text.split())))),
        )
        for i, d in enumerate(docs)
    ]


def speed_ms(cases: Sequence[Case], docs: list[SourceDoc], method: Method) -> float:
    """Median CPU ms of one select_excerpts call over *docs*, for 7 dev-set questions."""
    times = []
    for q, _ in cases[:7]:
        start = time.process_time()
        select_excerpts(q.question, docs, max_tokens=1000, method=method)
        times.append(1000 * (time.process_time() - start))
    return statistics.median(times)


def print_speed(cases: Sequence[Case]) -> None:
    """Print the CPU time of one call per ranked method on long inputs, and of the
    ``static`` reranker on 40 and 200 passages."""
    for label, big in speed_inputs(cases).items():
        words = sum(len(d.text.split()) for d in big)
        for method in RANKED:
            ms = speed_ms(cases, big, method)
            print(f"# speed, {method}: {ms:.1f} CPU ms per call (median), 5 {label}: {words} words")
    static = static_reranker()
    if static is None:
        print("# speed, static rerank: the rerank extra is not installed")
        return
    pool = [c for _, docs in cases[:20] for c in build_candidates(docs)]
    passages = [
        RerankPassage(text=c.text, title=c.source.title, heading=c.heading,
                      source_rank=c.source.rank)
        for c in pool
    ]  # fmt: skip
    for depth in (40, 200):
        some = passages[:depth]
        texts = [f"{p.title}\n{p.heading or ''}\n{p.text}" for p in some]
        ours, embed = [], []
        for q, _ in cases[:7]:
            start = time.perf_counter()
            static.score(q.question, some)
            ours.append(1000 * (time.perf_counter() - start))
            start = time.perf_counter()
            static.model.embed([q.question, *texts], norm=True)
            embed.append(1000 * (time.perf_counter() - start))
        print(
            f"# speed, static rerank: {statistics.median(ours):.1f} ms per call (median, wall) "
            f"for {len(some)} dev-set passages; wordllama's embed alone: "
            f"{statistics.median(embed):.1f} ms"
        )


def print_detail(cases: Sequence[Case]) -> None:
    """Print the rank of the first answer-bearing passage per question, ours and BM25."""
    for q, docs in cases:
        ours, base = answer_rank(q, docs, DEFAULT_WEIGHTS), answer_rank(q, docs, BM25_ONLY)
        print(f"# {q.id} {q.split} ours={ours} bm25={base} {q.question}")


def print_costs(cases: Sequence[Case], results: dict[str, Result]) -> None:
    """Print the MRR of each ranking and the CPU time per call of each method."""
    print("\n| ranking | MRR of the first answer-bearing passage |\n|---|---|")
    for name, weights in RANKED.items():
        print(f"| {name} | {mrr(cases, weights):.3f} |")
    print("\n| method | CPU ms per call (ranking and layout) |\n|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r.ms:.1f} |")


def answer_pages(cases: Sequence[Case]) -> list[Case]:
    """Each question with only those of its returned pages that hold an answer."""
    return [(q, [d for d in docs if answered(q, [d.text])]) for q, docs in cases]


def print_passage_level(cases: Sequence[Case], runners: dict[str, Runner]) -> None:
    """Print recall when the results are only the pages that hold the answer.

    Choosing the page cannot help there: what is left is finding the passage, which is what
    a result list of pages on one story asks of a method. A method's gain on the whole set
    that vanishes here came from choosing pages.
    """
    within = answer_pages(cases)
    pages = statistics.fmean(len(docs) for _, docs in within)
    tokens = statistics.fmean(sum(estimate_tokens(d.text) for d in docs) for _, docs in within)
    print(
        f"\n# passage level: only the returned pages that hold the answer ({pages:.2f} pages, "
        f"{tokens:.0f} tokens of page text per question): page choice cannot help"
    )
    results = {
        name: evaluate(within, runners[name], PASSAGE_BUDGETS)
        for name in PASSAGE_METHODS
        if name in runners
    }
    print_tables(within, results, PASSAGE_BUDGETS, title="passage level, ")
    print_compare(within, results, "text:default", "text:bm25", PASSAGE_BUDGETS)
    if "text:default+static" in results:
        print_compare(within, results, "text:default+static", "text:default", PASSAGE_BUDGETS)


def print_extras(
    args: argparse.Namespace, cases: Sequence[Case], results: dict[str, Result]
) -> None:
    """Print what the options asked for beyond the tables."""
    if args.compare:
        print_compare(cases, results, *args.compare)
    if args.ablate:
        print_ablation(cases, results)
    if args.detail:
        print_detail(cases)
    if args.layout:
        print_breakdown(cases)
    if args.speed:
        print_speed(cases)


def main() -> None:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--text", choices=["truth", "extract"], default="truth")
    parser.add_argument("--ablate", action="store_true", help="also run the ablation rows")
    parser.add_argument("--detail", action="store_true", help="print the answer rank per question")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="paired difference A - B")
    parser.add_argument("--speed", action="store_true", help="also time calls on long pages")
    parser.add_argument(
        "--layout", action="store_true", help="where the default's tokens go, by line kind"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    questions = load_devset()
    pages = load_pages(args.text, frozenset(k for q in questions for k in q.returned))
    cases = build_cases(questions, pages)
    missing = [q.id for q, docs in cases if not answered(q, [d.text for d in docs])]
    cases = [(q, docs) for q, docs in cases if q.id not in missing]
    sources = Counter(pages[k].source for q, _ in cases for k in q.returned)
    print(f"# page text: {dict(sources)} page uses ({time.perf_counter() - start:.1f}s to load)")
    print(f"# {len(cases)} of {len(questions)} questions have their answer in the page text;")
    print(f"# lost in the text, left out: {', '.join(missing) or 'none'}")
    runners = dict(METHODS)
    if args.ablate:
        runners.update(ablation_variants())
    if args.compare:
        unknown = [m for m in args.compare if m not in runners]
        if unknown:
            parser.error(f"unknown method(s) {unknown}; known: {', '.join(runners)}")
    results = {name: evaluate(cases, run) for name, run in runners.items()}
    print_room(cases, results)
    print_tables(cases, results)
    print_costs(cases, results)
    print_compare(cases, results, "text:default", "bm25-plain")
    if "text:default+static" in results:
        print_compare(cases, results, "text:default+static", "text:default")
    print_passage_level(cases, runners)
    print_extras(args, cases, results)
    print(f"# wall {time.perf_counter() - start:.0f}s")


if __name__ == "__main__":
    main()
