"""Answer recall of excerpt ranking on the dev set, against plain BM25 and the page lead.

For each question of ``bench/devset.json``, five search results are simulated: the page that
holds the answer plus the four other pages of the benchmark data most similar to the
question (document-level BM25 over all pages), with provider ranks shuffled deterministically
so the answer page is not always first. Page texts come from ``insomnia_web.extract`` when it
works, else from the datasets' ground-truth text (the run says which).

A question counts as answered at a budget when one of its answer strings occurs
(case-insensitively) in the excerpts returned; questions whose answer the extractor lost
are listed and left out. Methods: ``ours``, ``bm25`` (plain BM25 passages) and ``lead`` (the
first tokens of the rank-1 page, as much as the budget allows). Each cell shows recall and,
in parentheses, the mean tokens returned (labels included). MRR is the mean reciprocal rank
of the first passage holding an answer, before the budget. ``--ablate`` drops each default
feature in turn and adds each optional one; ``--detail`` prints that rank per question.
The speed lines time one call on 5 pages of at least 10k words each (pages repeated).
The last table (``bench/recall_layout.py``) scores the whole text the model reads, as
WebSearch renders it under the whole-text budget, with 95% intervals and its label share;
``python bench/recall_layout.py --distractors 9`` prints it alone with 10 pages a question.

    python bench/recall.py [--text extract|truth] [--ablate] [--detail]

Data: ``../shared/data`` next to the repository, or ``$INSOMNIA_WEB_DATA``. WCXB pages are
CC-BY-4.0, "WCXB, Murrough Foley".
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from insomnia_web.rank import Method, SourceDoc, estimate_tokens, select_excerpts
from insomnia_web.rank.analysis import analyze
from insomnia_web.rank.budget import excerpt_cost, label_cost
from insomnia_web.rank.features import BM25_ONLY, DEFAULT_WEIGHTS, Weights
from insomnia_web.rank.ranker import rank_candidates, select_weighted

BUDGETS = (500, 1000, 2000)
DISTRACTORS = 4
ADDED_WEIGHT = 0.2  # weight tried for a feature that is off by default
CUTOFFS = (0.0, 0.2, 0.3, 0.4)  # score cut-offs (share of the best score) tried
BENCH_DIR = Path(__file__).resolve().parent
DATA_DIR = Path(
    os.environ.get("INSOMNIA_WEB_DATA", BENCH_DIR.parents[0].parent / "shared" / "data")
)


class Page(msgspec.Struct, kw_only=True):
    """One benchmark page: where it came from and its ground-truth text."""

    key: str
    dataset: str
    page: str
    url: str
    title: str
    truth: str


class Question(msgspec.Struct, kw_only=True):
    """A dev-set question over one page."""

    id: str
    dataset: str
    page: str
    question: str
    answers: list[str]


def load_pages() -> dict[str, Page]:
    """Read every page's url, title and ground-truth text from both datasets."""
    pages: dict[str, Page] = {}
    aeb = json.loads((DATA_DIR / "aeb" / "ground-truth.json").read_text())
    for sha, entry in aeb.items():
        slug = entry["url"].rstrip("/").rsplit("/", 1)[-1].replace("-", " ")
        pages[f"aeb/{sha}"] = Page(
            key=f"aeb/{sha}", dataset="aeb", page=sha, url=entry["url"], title=slug,
            truth=entry["articleBody"],
        )  # fmt: skip
    for path in sorted((DATA_DIR / "wcxb-dev" / "ground-truth").glob("*.json")):
        entry = json.loads(path.read_text())
        truth = entry["ground_truth"]
        text = truth.get("main_content_markdown") or truth.get("main_content") or ""
        pages[f"wcxb/{path.stem}"] = Page(
            key=f"wcxb/{path.stem}", dataset="wcxb", page=path.stem, url=entry["url"],
            title=truth.get("title") or "", truth=text,
        )  # fmt: skip
    return pages


def html_path(page: Page) -> Path:
    """Return the gzipped HTML file of *page*."""
    folder = "aeb" if page.dataset == "aeb" else "wcxb-dev"
    return DATA_DIR / folder / "html" / f"{page.page}.html.gz"


def make_extractor() -> Callable[[Page], tuple[str, str]] | None:
    """Return a page -> (title, text) extractor built on insomnia_web.extract, if it works."""
    try:
        from insomnia_web.extract import extract_html
    except Exception as exc:  # the extractor may be missing or broken
        print(f"# extractor unavailable ({exc!r}); using ground-truth text", file=sys.stderr)
        return None

    def extract(page: Page) -> tuple[str, str]:
        html = gzip.decompress(html_path(page).read_bytes()).decode("utf-8", "replace")
        result = extract_html(html, url=page.url)
        return result.title or page.title, result.text

    return extract


class DocIndex:
    """Document-level BM25 over all pages, used only to pick on-topic distractors."""

    def __init__(self, pages: Sequence[Page]) -> None:
        self.keys = [p.key for p in pages]
        self.counts = [Counter(analyze(f"{p.title}\n{p.truth}")) for p in pages]
        self.lengths = [sum(c.values()) for c in self.counts]
        self.avg = sum(self.lengths) / len(self.lengths)
        self.df: Counter[str] = Counter()
        for c in self.counts:
            self.df.update(c.keys())

    def nearest(self, query: str, exclude: str, k: int) -> list[str]:
        """Return the *k* page keys most similar to *query*, skipping *exclude*."""
        n = len(self.keys)
        terms = {
            t: math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5)) for t in analyze(query)
        }
        scored: list[tuple[float, str]] = []
        for key, counts, length in zip(self.keys, self.counts, self.lengths, strict=True):
            if key == exclude:
                continue
            norm = 1.2 * (0.25 + 0.75 * length / self.avg)
            score = sum(
                w * counts[t] * 2.2 / (counts[t] + norm) for t, w in terms.items() if counts[t]
            )
            scored.append((score, key))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [key for _, key in scored[:k]]


def build_cases(
    questions: Sequence[Question],
    pages: dict[str, Page],
    text_of: Callable[[Page], tuple[str, str]],
) -> list[tuple[Question, list[SourceDoc]]]:
    """Build the five SourceDocs of every question (answer page + distractors, shuffled ranks)."""
    index = DocIndex(list(pages.values()))
    cases = []
    for q in questions:
        answer_key = f"{q.dataset}/{q.page}"
        keys = [answer_key, *index.nearest(q.question, answer_key, DISTRACTORS)]
        ranks = list(range(1, len(keys) + 1))
        random.Random(q.id).shuffle(ranks)
        docs = []
        for key, rank in zip(keys, ranks, strict=True):
            title, text = text_of(pages[key])
            docs.append(SourceDoc(url=pages[key].url, title=title, text=text, rank=rank))
        docs.sort(key=lambda d: d.rank)
        cases.append((q, docs))
    return cases


def answered(q: Question, texts: Sequence[str]) -> bool:
    """Return True when an answer string occurs in the concatenated *texts*."""
    blob = "\n".join(texts).lower()
    return any(a.lower() in blob for a in q.answers)


Runner = Callable[[str, list[SourceDoc], int], tuple[list[str], int]]


def lead_run(query: str, docs: list[SourceDoc], budget: int) -> tuple[list[str], int]:
    """Return the longest prefix of the rank-1 page that fits *budget* with its label."""
    del query
    top = docs[0]
    label = label_cost(top.title, top.url, None)
    text = top.text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) <= budget - label:
            lo = mid
        else:
            hi = mid - 1
    return [text[:lo]], label + estimate_tokens(text[:lo])


class Row(msgspec.Struct, kw_only=True):
    """Results of one method: recall and mean tokens returned at each budget, CPU time."""

    recall: list[float]
    tokens: list[float]
    ms: float

    def cells(self) -> str:
        """Format as table cells: ``recall (mean tokens returned)`` per budget."""
        return " | ".join(
            f"{r:.3f} ({t:.0f})" for r, t in zip(self.recall, self.tokens, strict=True)
        )


def evaluate(cases: Sequence[tuple[Question, list[SourceDoc]]], run: Runner) -> Row:
    """Run *run* on every case at every budget."""
    hits = [0] * len(BUDGETS)
    used = [0] * len(BUDGETS)
    cpu = 0.0
    for q, docs in cases:
        for i, budget in enumerate(BUDGETS):
            start = time.process_time()
            texts, cost = run(q.question, docs, budget)
            cpu += time.process_time() - start
            hits[i] += answered(q, texts)
            used[i] += cost
    n = len(cases)
    return Row(
        recall=[h / n for h in hits],
        tokens=[u / n for u in used],
        ms=1000 * cpu / (n * len(BUDGETS)),
    )


def answer_rank(q: Question, docs: Sequence[SourceDoc], weights: Weights) -> int | None:
    """Return the 1-based rank of the first candidate passage holding an answer, if any."""
    for position, candidate in enumerate(rank_candidates(q.question, docs, weights), start=1):
        if answered(q, [candidate.text]):
            return position
    return None


def mrr(cases: Sequence[tuple[Question, list[SourceDoc]]], weights: Weights) -> float:
    """Mean reciprocal rank of the first answer-bearing passage (0 when none is eligible)."""
    ranks = [answer_rank(q, docs, weights) for q, docs in cases]
    return sum(1 / r for r in ranks if r) / len(cases)


def weights_runner(weights: Weights) -> Runner:
    """Return a runner for select_weighted with *weights*."""

    def run(query: str, docs: list[SourceDoc], budget: int) -> tuple[list[str], int]:
        found = select_weighted(query, docs, max_tokens=budget, weights=weights)
        cost = sum(excerpt_cost(e.title, e.url, e.heading, e.text) for e in found)
        return [e.text for e in found], cost

    return run


def method_runner(method: Method) -> Runner:
    """Return a runner for select_excerpts with *method* (the public entry point)."""

    def run(query: str, docs: list[SourceDoc], budget: int) -> tuple[list[str], int]:
        found = select_excerpts(query, docs, max_tokens=budget, method=method)
        cost = sum(excerpt_cost(e.title, e.url, e.heading, e.text) for e in found)
        return [e.text for e in found], cost

    return run


def speed_inputs(
    cases: Sequence[tuple[Question, list[SourceDoc]]], pages: dict[str, Page]
) -> dict[str, list[SourceDoc]]:
    """Return two speed inputs of 5 pages, each page repeated to at least 10k words:
    the 5 longest page texts (link-heavy lists and tables) and the 5 longest news articles."""
    docs = {d.url: d for _, case in cases for d in case}.values()
    longest = sorted(docs, key=lambda d: len(d.text), reverse=True)[:5]
    aeb = {p.url for p in pages.values() if p.dataset == "aeb"}
    articles = sorted((d for d in docs if d.url in aeb), key=lambda d: len(d.text), reverse=True)
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


def speed_ms(
    cases: Sequence[tuple[Question, list[SourceDoc]]], docs: list[SourceDoc], method: Method
) -> float:
    """Median CPU ms of one select_excerpts call over *docs*, for 7 dev-set questions."""
    times = []
    for q, _ in cases[:7]:
        start = time.process_time()
        select_excerpts(q.question, docs, max_tokens=1000, method=method)
        times.append(1000 * (time.process_time() - start))
    return statistics.median(times)


def main() -> None:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--text", choices=["extract", "truth"], default="extract")
    parser.add_argument("--ablate", action="store_true", help="also drop one feature at a time")
    parser.add_argument("--detail", action="store_true", help="print the answer rank per question")
    args = parser.parse_args()
    questions = msgspec.json.decode((BENCH_DIR / "devset.json").read_bytes(), type=list[Question])
    pages = load_pages()
    extractor = make_extractor() if args.text == "extract" else None

    def truth(page: Page) -> tuple[str, str]:
        return page.title, page.truth

    text_of = extractor or truth
    source = "insomnia_web.extract.extract_html" if extractor else "ground-truth text"
    start = time.perf_counter()
    cases = build_cases(questions, pages, text_of)
    missing = [q.id for q, docs in cases if not answered(q, [d.text for d in docs])]
    cases = [(q, docs) for q, docs in cases if q.id not in missing]
    print(f"# page text from {source} ({time.perf_counter() - start:.1f}s)")
    print(f"# {len(cases)} of {len(questions)} questions have their answer in the page text;")
    print(f"# lost in the text, left out: {', '.join(missing) or 'none'}")
    header = " | ".join(f"@{b}" for b in BUDGETS)
    print("\nanswer recall (mean tokens returned) at each budget")
    print(f"\n| method | {header} | MRR | CPU ms/call |")
    print("|---|" + "---|" * len(BUDGETS) + "---|---|")
    methods: tuple[tuple[Method, Weights], ...] = (("ours", DEFAULT_WEIGHTS), ("bm25", BM25_ONLY))
    for name, weights in methods:
        row = evaluate(cases, method_runner(name))
        print(f"| {name} | {row.cells()} | {mrr(cases, weights):.3f} | {row.ms:.1f} |")
    print(f"| lead | {evaluate(cases, lead_run).cells()} | - | - |")
    if args.detail:
        for q, docs in cases:
            ours, base = answer_rank(q, docs, DEFAULT_WEIGHTS), answer_rank(q, docs, BM25_ONLY)
            print(f"# {q.id} ours={ours} bm25={base} {q.question}")
    for label, big in speed_inputs(cases, pages).items():
        size = (
            f"{sum(len(d.text.split()) for d in big)} words, {sum(map(len, (d.text for d in big)))}"
        )
        for method, _ in methods:
            ms = speed_ms(cases, big, method)
            print(f"# speed, {method}: {ms:.1f} CPU ms per call (median), 5 {label}: {size} chars")
    _layout_report(cases)
    if args.ablate:
        print(f"\n| ours variant | {header} | MRR |")
        print("|---|" + "---|" * len(BUDGETS) + "---|")
        for label, weights in variants():
            row = evaluate(cases, weights_runner(weights))
            print(f"| {label} | {row.cells()} | {mrr(cases, weights):.3f} |")


def _layout_report(cases: Sequence[tuple[Question, list[SourceDoc]]]) -> None:
    """The whole-text recall table of ``bench/recall_layout.py``."""
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    import recall_layout

    recall_layout.report(cases)


def variants() -> list[tuple[str, Weights]]:
    """Return the ablation: each default feature dropped, each other feature added."""
    out = []
    for field in DEFAULT_WEIGHTS.__struct_fields__:
        on = getattr(DEFAULT_WEIGHTS, field)
        if field in ("bm25", "cutoff"):
            continue
        label = f"without {field}" if on else f"with {field}={ADDED_WEIGHT}"
        out.append(
            (
                label,
                msgspec.structs.replace(DEFAULT_WEIGHTS, **{field: 0.0 if on else ADDED_WEIGHT}),
            )
        )
    for cutoff in CUTOFFS:
        if cutoff != DEFAULT_WEIGHTS.cutoff:
            out.append(
                (f"cutoff={cutoff}", msgspec.structs.replace(DEFAULT_WEIGHTS, cutoff=cutoff))
            )
    return out


if __name__ == "__main__":
    main()
