"""Extraction quality and speed: insomnia-web vs readability-lxml vs trafilatura.

Runs every extractor over three benchmark sets in one run:

- AEB and WCXB-dev: mean bag-of-words F1 (the headline), precision and recall, F1 per WCXB
  page type (on each part too), the share of WCXB ``with`` snippets found (higher is better)
  and ``without`` snippets found (lower is better);
- trafilatura-eval-dev (multilingual): snippet precision, recall and F1 pooled over pages, as
  trafilatura's own evaluation computes them (trafilatura runs with ``include_comments=False``
  there, as in its evaluation).

Each set is split into a tuning part and a check part (a fixed seed, half each, drawn from
the whole set: a run with ``--limit`` keeps every page in its part): a rule is kept only
when it helps the check part too. Headline numbers carry a 95% bootstrap interval over
pages. Speed is pages per CPU-second with its ratio to trafilatura in the same run. The
last table counts the visible-text phrases written in ``extract/`` code (regex alternatives
and string literals holding two or more words) and how many of them occur in the visible
text of exactly one benchmark page.

Data: ``../shared/data`` from the repository root, or ``$INSOMNIA_WEB_DATA``. WCXB numbers
come from "WCXB, Murrough Foley" (CC-BY-4.0).

    python bench/extract.py [--limit N] [--only aeb|wcxb|trafeval] [--extractors ours,trafilatura]
    python bench/extract.py --big      # CPU seconds on a 5 MiB page of many paragraphs
    python bench/extract.py --phrases  # visible-text phrases in code, and where they occur
    python bench/extract.py --extractors ours --save before.json   # per-page scores, saved
    python bench/extract.py --extractors ours --against before.json  # which pages changed
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import math
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lxml.html

from insomnia_web.extract import extract_html

DATA = Path(
    os.environ.get(
        "INSOMNIA_WEB_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"
    )
)
_WORD_RE = re.compile(r"\w+")
SPLIT_SEED = 20261204
EXTRACT_DIR = Path(__file__).resolve().parents[1] / "plugin" / "insomnia_web" / "extract"
_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([-\w.:]+)""", re.I)


@dataclass
class Page:
    """One benchmark page with its gold text."""

    dataset: str
    page_id: str
    html: str
    gold: str
    page_type: str = "article"
    with_snippets: list[str] = field(default_factory=list)
    without_snippets: list[str] = field(default_factory=list)
    part: str = "tune"


def decode(raw: bytes) -> str:
    """Decode page bytes: UTF-8 if valid, else the declared charset, else cp1252."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    match = _CHARSET_RE.search(raw[:4096])
    if match:
        try:
            return raw.decode(match.group(1).decode("ascii"), "replace")
        except LookupError:
            pass
    return raw.decode("cp1252", "replace")


def load_aeb(limit: int | None) -> Iterator[Page]:
    """Yield AEB pages."""
    folder = DATA / "aeb"
    truth = json.loads((folder / "ground-truth.json").read_text())
    for n, (key, value) in enumerate(sorted(truth.items())):
        if limit is not None and n >= limit:
            return
        raw = gzip.decompress((folder / "html" / f"{key}.html.gz").read_bytes())
        yield Page("aeb", key, decode(raw), value["articleBody"] or "")


def load_wcxb(limit: int | None) -> Iterator[Page]:
    """Yield WCXB-dev pages (with ``limit``: that many per page type)."""
    folder = DATA / "wcxb-dev"
    meta = json.loads((folder / "metadata.json").read_text())["files"]
    seen: Counter[str] = Counter()
    for page_id in sorted(meta):
        page_type = meta[page_id]["page_type"]
        if limit is not None and seen[page_type] >= limit:
            continue
        seen[page_type] += 1
        gt = json.loads((folder / "ground-truth" / f"{page_id}.json").read_text())
        truth = gt["ground_truth"]
        raw = gzip.decompress((folder / "html" / f"{page_id}.html.gz").read_bytes())
        yield Page(
            "wcxb",
            page_id,
            decode(raw),
            truth.get("main_content") or "",
            page_type,
            list(truth.get("with") or []),
            list(truth.get("without") or []),
        )


def load_trafeval(limit: int | None) -> Iterator[Page]:
    """Yield trafilatura-eval-dev pages (no gold text: snippets only)."""
    folder = DATA / "trafilatura-eval-dev"
    truth = json.loads((folder / "evaldata.json").read_text())
    for n, (url, value) in enumerate(sorted(truth.items())):
        if limit is not None and n >= limit:
            return
        raw = gzip.decompress((folder / "html" / f"{value['file']}.gz").read_bytes())
        yield Page(
            "trafeval",
            url,
            decode(raw),
            "",
            "mixed",
            list(value.get("with") or []),
            list(value.get("without") or []),
        )


def dataset_ids(dataset: str) -> list[str]:
    """Every page id of *dataset*, as its loader names them, whatever ``--limit`` loads."""
    if dataset == "aeb":
        return list(json.loads((DATA / "aeb" / "ground-truth.json").read_text()))
    if dataset == "wcxb":
        return list(json.loads((DATA / "wcxb-dev" / "metadata.json").read_text())["files"])
    return list(json.loads((DATA / "trafilatura-eval-dev" / "evaldata.json").read_text()))


def split_parts(pages: list[Page]) -> None:
    """Mark half of each dataset's pages ``tune`` and half ``check``, with a fixed seed.

    The halves are drawn from the whole dataset, so a page is in the same part in a run with
    ``--limit`` as in a full run.
    """
    by_set: dict[str, list[Page]] = {}
    for page in pages:
        by_set.setdefault(page.dataset, []).append(page)
    for dataset, group in by_set.items():
        ids = sorted(dataset_ids(dataset))
        random.Random(f"{SPLIT_SEED}:{dataset}").shuffle(ids)
        check = set(ids[: len(ids) // 2])
        for page in group:
            page.part = "check" if page.page_id in check else "tune"


def tokens(text: str) -> Counter[str]:
    """Bag of words, as the data README defines it."""
    return Counter(_WORD_RE.findall(text.lower()))


def prf(pred: str, gold: str) -> tuple[float, float, float]:
    """Bag-of-words precision, recall and F1 of *pred* against *gold*."""
    p_tok, g_tok = tokens(pred), tokens(gold)
    n_pred, n_gold = sum(p_tok.values()), sum(g_tok.values())
    if n_pred == 0 or n_gold == 0:
        return (1.0, 1.0, 1.0) if n_pred == n_gold else (0.0, 0.0, 0.0)
    overlap = sum((p_tok & g_tok).values())
    precision, recall = overlap / n_pred, overlap / n_gold
    f1 = 2 * precision * recall / (precision + recall) if overlap else 0.0
    return precision, recall, f1


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def snippet_share(pred: str, snippets: list[str]) -> float | None:
    """Share of *snippets* found in *pred* (case-insensitive, whitespace collapsed)."""
    if not snippets:
        return None
    norm = _norm(pred)
    return sum(1 for s in snippets if _norm(s) in norm) / len(snippets)


def snippet_counts(pred: str, page: Page) -> tuple[int, int, int, int]:
    """(tp, fn, fp, tn) of one page, as trafilatura's evaluation counts them."""
    text = " ".join(pred.split())
    found = [" ".join(s.split()) in text for s in page.with_snippets]
    leaked = [" ".join(s.split()) in text for s in page.without_snippets]
    tp = sum(found)
    fp = sum(leaked)
    return tp, len(found) - tp, fp, len(leaked) - fp


def pooled_prf(counts: list[tuple[int, int, int, int]]) -> tuple[float, float, float]:
    """Snippet precision, recall and F1 from counts summed over pages."""
    tp = sum(c[0] for c in counts)
    fn = sum(c[1] for c in counts)
    fp = sum(c[2] for c in counts)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def ours(html: str) -> str:
    """insomnia-web, readable mode."""
    return extract_html(html).text


def whole_page(html: str) -> str:
    """insomnia-web, full mode: whole page text, no boilerplate removal."""
    return extract_html(html, mode="full").text


def readability_lxml(html: str) -> str:
    """readability-lxml ``Document(html).summary()`` then lxml ``text_content()``."""
    from readability import Document

    summary = Document(html).summary()
    return str(lxml.html.fromstring(summary).text_content()) if summary.strip() else ""


def trafilatura_default(html: str) -> str:
    """trafilatura ``extract(html)`` with default settings."""
    import trafilatura

    return trafilatura.extract(html) or ""


def trafilatura_no_comments(html: str) -> str:
    """trafilatura ``extract(html, include_comments=False)``, as its evaluation runs it."""
    import trafilatura

    return trafilatura.extract(html, include_comments=False) or ""


EXTRACTORS: dict[str, Callable[[str], str]] = {
    "ours": ours,
    "readability": readability_lxml,
    "trafilatura": trafilatura_default,
    "full": whole_page,
}
# Per dataset, an extractor may run with that dataset's own reference settings.
DATASET_EXTRACTORS: dict[tuple[str, str], Callable[[str], str]] = {
    ("trafeval", "trafilatura"): trafilatura_no_comments,
}


@dataclass
class Row:
    """Scores of one extractor on one page."""

    page: Page
    p: float
    r: float
    f1: float
    with_share: float | None
    without_share: float | None
    counts: tuple[int, int, int, int]
    cpu_s: float
    text: str = ""
    digest: str = ""


@dataclass
class Scores:
    """Per-page scores of one extractor."""

    rows: list[Row] = field(default_factory=list)
    cpu_s: float = 0.0


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def text_digest(text: str) -> str:
    """A short digest of an extracted text: two runs gave a page the same text when equal."""
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest()


def run(pages: list[Page], names: list[str], keep_text: bool = False) -> dict[str, Scores]:
    """Run every extractor over *pages*, timing CPU per extractor.

    The extractors take turns page by page (and garbage is collected between pages, outside
    the timings), so a change in the machine's speed during the run, or one extractor's
    garbage, does not land on another extractor's time.
    """
    import gc
    import logging

    logging.disable(logging.CRITICAL)
    results = {name: Scores() for name in names}
    for page in pages:
        for name in names:
            scores = results[name]
            extractor = DATASET_EXTRACTORS.get((page.dataset, name), EXTRACTORS[name])
            start = time.process_time()
            try:
                pred = extractor(page.html)
            except Exception as exc:
                print(f"  {name} failed on {page.dataset}/{page.page_id}: {exc!r}", file=sys.stderr)
                pred = ""
            cpu = time.process_time() - start
            scores.cpu_s += cpu
            p, r, f = prf(pred, page.gold)
            w = snippet_share(pred, page.with_snippets)
            wo = snippet_share(pred, page.without_snippets)
            counts = snippet_counts(pred, page)
            kept = pred if keep_text else ""
            scores.rows.append(Row(page, p, r, f, w, wo, counts, cpu, kept, text_digest(pred)))
        gc.collect()
    for name, scores in results.items():
        print(f"  ran {name}: {len(pages)} pages, {scores.cpu_s:.1f} CPU-s", file=sys.stderr)
    return results


def _ratio(value: float, base: float | None) -> str:
    if base is None or base == 0 or math.isnan(value):
        return ""
    return f" ({value / base:.2f}x)"


BOOTSTRAP_RESAMPLES = 300


def _bootstrap(rows: list[Row], stat: Callable[[list[Row]], float]) -> tuple[float, float]:
    """95% bootstrap interval of *stat* over pages (fixed seed)."""
    if len(rows) < 2:
        return float("nan"), float("nan")
    rng = random.Random(SPLIT_SEED)
    values = sorted(stat(rng.choices(rows, k=len(rows))) for _ in range(BOOTSTRAP_RESAMPLES))
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def _mean_f1(rows: list[Row]) -> float:
    return _mean([r.f1 for r in rows])


def _snippet_f1(rows: list[Row]) -> float:
    return pooled_prf([r.counts for r in rows])[2]


PARTS = ("all", "tune", "check")


def _select(rows: list[Row], dataset: str, part: str) -> list[Row]:
    return [r for r in rows if r.page.dataset == dataset and part in ("all", r.page.part)]


def _report_wcxb(results: dict[str, Scores], line: Callable[[str, dict[str, float]], None]) -> None:
    """Print F1 per WCXB page type, on all its pages and on each part, and the snippet
    shares."""
    ds = "wcxb"
    types = sorted(
        {r.page.page_type for s in results.values() for r in s.rows if r.page.dataset == ds}
    )
    for t in types:
        for part in PARTS:
            line(
                f"  wcxb {t} F1" if part == "all" else f"    {part}",
                {
                    n: _mean([r.f1 for r in _select(s.rows, ds, part) if r.page.page_type == t])
                    for n, s in results.items()
                },
            )
    _report_empty_gold(next(iter(results.values())).rows)
    line(
        "wcxb with-snippets found",
        {
            n: _mean(
                [r.with_share for r in s.rows if r.page.dataset == ds and r.with_share is not None]
            )
            for n, s in results.items()
        },
    )
    line(
        "wcxb without-snippets found",
        {
            n: _mean(
                [
                    r.without_share
                    for r in s.rows
                    if r.page.dataset == ds and r.without_share is not None
                ]
            )
            for n, s in results.items()
        },
    )


def _report_empty_gold(rows: list[Row]) -> None:
    """Say how many WCXB pages of each type have an empty gold text: any extractor that
    returns text scores 0 on them (their annotation marks most as script-rendered, though
    their HTML holds the content), which caps the type's mean F1 below 1."""
    empty = Counter(r.page.page_type for r in rows if r.page.dataset == "wcxb" and not r.page.gold)
    if empty:
        cells = ", ".join(f"{t} {n}" for t, n in sorted(empty.items()))
        print(f"  wcxb pages with empty gold text (any text scores 0): {cells}")


def report(results: dict[str, Scores], per_page: bool) -> None:  # noqa: C901
    """Print the comparison table."""
    names = list(results)
    base = "trafilatura" if "trafilatura" in results else None
    datasets = sorted({row.page.dataset for s in results.values() for row in s.rows})
    width = 26
    header = f"{'metric':<32}" + "".join(f"{n:>{width}}" for n in names)
    print(header)
    print("-" * len(header))

    def line(
        label: str, values: dict[str, float], fmt: str = "{:.3f}", ratio: bool = False
    ) -> None:
        cells = []
        for n in names:
            v = values.get(n, float("nan"))
            b = values.get(base) if base and ratio else None
            cells.append(f"{fmt.format(v) + _ratio(v, b):>{width}}")
        print(f"{label:<32}" + "".join(cells))

    def interval_line(label: str, ds: str, part: str, stat: Callable[[list[Row]], float]) -> None:
        cells = []
        for n in names:
            rows = _select(results[n].rows, ds, part)
            low, high = _bootstrap(rows, stat)
            cells.append(f"{stat(rows):.3f} [{low:.3f},{high:.3f}]".rjust(width))
        print(f"{label:<32}" + "".join(cells))

    for ds in datasets:
        sizes = {p: len(_select(next(iter(results.values())).rows, ds, p)) for p in PARTS}
        print(f"{ds}: {sizes['all']} pages (tune {sizes['tune']}, check {sizes['check']})")
        if ds == "trafeval":
            for part in PARTS:
                interval_line(f"{ds} {part} snippet F1", ds, part, _snippet_f1)
            for idx, metric in ((0, "P"), (1, "R")):
                line(
                    f"{ds} snippet {metric}",
                    {
                        n: pooled_prf([r.counts for r in _select(s.rows, ds, "all")])[idx]
                        for n, s in results.items()
                    },
                )
        else:
            for part in PARTS:
                interval_line(f"{ds} {part} F1 (headline)", ds, part, _mean_f1)
            for attr, metric in (("p", "P"), ("r", "R")):
                line(
                    f"{ds} {metric}",
                    {
                        n: _mean([getattr(r, attr) for r in _select(s.rows, ds, "all")])
                        for n, s in results.items()
                    },
                )
        if ds == "wcxb":
            _report_wcxb(results, line)
        line(
            f"{ds} pages per CPU-second",
            {
                n: len(rows) / cpu if (cpu := sum(r.cpu_s for r in rows)) else float("nan")
                for n, s in results.items()
                for rows in [_select(s.rows, ds, "all")]
            },
            "{:.1f}",
            ratio=True,
        )
    line(
        "all pages per CPU-second",
        {n: len(s.rows) / s.cpu_s if s.cpu_s else float("nan") for n, s in results.items()},
        "{:.1f}",
        ratio=True,
    )
    if per_page and "ours" in results:
        print()
        print("worst pages for ours (F1):")
        rows = sorted(results["ours"].rows, key=lambda r: r.f1)[:25]
        others = {
            n: {(r.page.dataset, r.page.page_id): r.f1 for r in s.rows} for n, s in results.items()
        }
        for row in rows:
            page, p, r, f = row.page, row.p, row.r, row.f1
            extra = " ".join(
                f"{n}={others[n][(page.dataset, page.page_id)]:.2f}" for n in names if n != "ours"
            )
            print(
                f"  {page.dataset}/{page.page_id} {page.page_type:<14} {page.part:<6}"
                f"F1={f:.2f} P={p:.2f} R={r:.2f} {extra}"
            )


def _page_key(dataset: str, page_id: str) -> str:
    return f"{dataset}/{page_id}"


def save_pages(scores: Scores, path: Path) -> None:
    """Write one extractor's per-page scores to *path* (JSON), with a digest of each text."""
    records = [
        {
            "key": _page_key(r.page.dataset, r.page.page_id),
            "f1": r.f1,
            "p": r.p,
            "r": r.r,
            "counts": list(r.counts),
            "digest": r.digest,
        }
        for r in scores.rows
    ]
    path.write_text(json.dumps(records))


def _part_score(dataset: str, f1s: list[float], counts: list[tuple[int, int, int, int]]) -> float:
    """The part's headline: snippet F1 pooled over pages for trafeval, else mean F1."""
    return pooled_prf(counts)[2] if dataset == "trafeval" else _mean(f1s)


def _split_line(saved: list[dict[str, Any]], rows: list[Row]) -> str:
    """A part's mean precision and recall before (*saved* records) and after (*rows*): a lower
    precision is words added that the gold lacks, a lower recall gold words missed."""
    p_old, r_old = _mean([s["p"] for s in saved]), _mean([s["r"] for s in saved])
    p_new, r_new = _mean([r.p for r in rows]), _mean([r.r for r in rows])
    return f"P {p_old:.3f} -> {p_new:.3f}, R {r_old:.3f} -> {r_new:.3f}"


def compare_pages(scores: Scores, path: Path) -> None:
    """Print which pages' texts differ from the run saved in *path* (:func:`save_pages`), each
    part's headline before and after (and each WCXB page type's), and the changed pages."""
    saved = {record["key"]: record for record in json.loads(path.read_text())}
    rows = [r for r in scores.rows if _page_key(r.page.dataset, r.page.page_id) in saved]
    before = {id(r): saved[_page_key(r.page.dataset, r.page.page_id)] for r in rows}
    changed = [r for r in rows if before[id(r)]["digest"] != r.digest]
    print(f"against {path.name}: {len(changed)} of {len(rows)} pages changed")
    groups: dict[tuple[str, ...], list[Row]] = {}
    for r in rows:
        page = r.page
        groups.setdefault((page.dataset, page.part), []).append(r)
        if page.dataset == "wcxb":
            groups.setdefault((page.dataset, page.page_type, page.part), []).append(r)
    order = sorted(
        groups, key=lambda label: (label[0], len(label), label[1:-1], label[-1] != "tune")
    )
    for label in order:
        group, dataset = groups[label], label[0]
        old = _part_score(
            dataset,
            [before[id(r)]["f1"] for r in group],
            [tuple(before[id(r)]["counts"]) for r in group],
        )
        new = _part_score(dataset, [r.f1 for r in group], [r.counts for r in group])
        moved = sum(1 for r in group if before[id(r)]["digest"] != r.digest)
        metric = "snippet F1" if dataset == "trafeval" else "F1"
        print(f"{' '.join(label)} {metric} {old:.3f} -> {new:.3f} ({moved} changed)")
        if dataset != "trafeval" and all("p" in before[id(r)] for r in group):
            print(f"  {_split_line([before[id(r)] for r in group], group)}")
    if changed:
        print("changed pages (F1 before -> after):")
    for r in sorted(changed, key=lambda r: r.f1 - before[id(r)]["f1"]):
        page = r.page
        print(
            f"  {_page_key(page.dataset, page.page_id)} {page.page_type} {page.part} "
            f"F1 {before[id(r)]['f1']:.3f} -> {r.f1:.3f}"
        )


# Visible-text phrases in code: alternatives of regexes and string literals that hold two or
# more words (a space, or ``\s``, between letters once character classes are removed).
_CLASS_RE = re.compile(r"\[(?:\\.|[^\]])*\]")
_PHRASE_RE = re.compile(r"[^\W\d_]{2,}[^|]*?(?: |\\s)[^|]*?[^\W\d_]{2,}")
MAX_PHRASE_WORDS = 8  # longer literals (and sentences ending in ".") are messages
# Body decoding, workers, media-type dispatch and PDF reading hold messages, no page rules.
NOT_RULES = frozenset(("body.py", "dispatch.py", "document.py", "offload.py", "pdf.py"))


def _alternatives(pattern: str) -> list[str]:
    """Split a regex into its alternatives (the outermost groups that hold ``|``)."""
    ends, bars = _group_scan(pattern)
    if not bars:
        return [pattern]
    pieces: list[str] = []
    for opener in sorted(bars):
        if any(o < opener < ends[o] for o in bars if o != opener):
            continue  # inside a group that is split already
        cuts = [opener + 1, *[b + 1 for b in bars[opener]]]
        stops = [*bars[opener], ends[opener]]
        for a, b in zip(cuts, stops, strict=True):
            piece = pattern[a:b]
            pieces.append(piece[2:] if piece.startswith(("?:", "?=", "?!")) else piece)
    return pieces


def _group_scan(pattern: str) -> tuple[dict[int, int], dict[int, list[int]]]:
    """One pass over *pattern*: where each group closes, and the ``|`` directly inside each.

    The whole pattern is group ``-1``; an unclosed group closes at the end.
    """
    ends = {-1: len(pattern)}
    bars: dict[int, list[int]] = {}
    stack, i, in_class = [-1], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            stack.append(i)
        elif c == ")" and len(stack) > 1:
            ends[stack.pop()] = i
        elif c == "|":
            bars.setdefault(stack[-1], []).append(i)
        i += 1
    for opener in stack[1:]:
        ends[opener] = len(pattern)
    return ends, bars


def code_phrases(folder: Path = EXTRACT_DIR) -> list[tuple[str, str]]:
    """(module, phrase) for every visible-text phrase written in *folder*'s code."""
    found: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.py")):
        if path.name in NOT_RULES:
            continue
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        literals = _joined_literals(tree, docstrings)
        for literal in literals:
            for alt in _alternatives(literal):
                bare = _CLASS_RE.sub("", alt)
                words = len(bare.split())
                if _PHRASE_RE.search(bare) and words <= MAX_PHRASE_WORDS and alt[-1:] != ".":
                    found.append((path.name, alt))
    return found


def _joined_literals(tree: ast.AST, docstrings: set[int]) -> list[str]:
    """String literals of *tree* (joined), leaving out docstrings and f-string parts."""
    out: list[str] = []
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and id(node) not in skip
        ):
            out.append(node.value)
    return out


def phrase_report(pages: list[Page], texts: dict[str, str]) -> None:
    """Print the count of code phrases and how many occur in the text of one page only."""
    phrases = code_phrases()
    by_module = Counter(module for module, _ in phrases)
    print()
    print(f"visible-text phrases in extract/ code: {len(phrases)}")
    print("  by module: " + ", ".join(f"{m} {n}" for m, n in by_module.most_common()))
    if not texts:
        return
    lowered = {key: " ".join(text.split()).lower() for key, text in texts.items()}
    hits: Counter[int] = Counter()
    singles: list[str] = []
    for _, phrase in phrases:
        try:
            matcher = re.compile(phrase, re.I)
        except re.error:
            matcher = re.compile(re.escape(phrase), re.I)
        n = sum(1 for text in lowered.values() if matcher.search(text))
        hits[min(n, 2)] += 1
        if n == 1:
            singles.append(phrase)
    print(
        f"  in the visible text of no page: {hits[0]}, exactly one page: {hits[1]}, "
        f"two or more: {hits[2]} (of {len(pages)} pages)"
    )
    for phrase in singles[:40]:
        print(f"    one page only: {phrase!r}")


BIG_PAGE_BYTES = 5 * 1024 * 1024


def big_page() -> str:
    """A 5 MiB article of many distinct paragraphs (readability's worst case: one huge parent)."""
    paragraphs = "".join(
        f"<p>Paragraph {n} says the committee reviewed proposal {n * 7} and agreed to publish "
        f"version {n} next spring.</p>\n"
        for n in range(BIG_PAGE_BYTES // 90)
    )[:BIG_PAGE_BYTES]
    return f"<html><body><article>{paragraphs}</article></body></html>"


def big_page_report(names: list[str]) -> None:
    """Print the CPU seconds each extractor takes on :func:`big_page`."""
    html = big_page()
    print()
    print(f"5 MiB many-paragraph page ({len(html):,} characters), CPU seconds:")
    for name in names:
        start = time.process_time()
        EXTRACTORS[name](html)
        print(f"  {name:<14} {time.process_time() - start:.2f}")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, help="pages per dataset (WCXB: per page type)")
    parser.add_argument("--only", choices=("aeb", "wcxb", "trafeval"), help="run one dataset")
    parser.add_argument(
        "--extractors",
        default="ours,readability,trafilatura,full",
        help="comma-separated subset of: " + ",".join(EXTRACTORS),
    )
    parser.add_argument("--worst", action="store_true", help="list the pages where ours is worst")
    parser.add_argument(
        "--phrases", action="store_true", help="only count the visible-text phrases in code"
    )
    parser.add_argument(
        "--big", action="store_true", help="only time the 5 MiB many-paragraph page"
    )
    parser.add_argument("--save", type=Path, help="write ours' per-page scores to this file")
    parser.add_argument(
        "--against", type=Path, help="list the pages whose text differs from a --save file"
    )
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"benchmark data not found at {DATA}; set INSOMNIA_WEB_DATA", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    if args.big:
        big_page_report(names)
        return 0
    pages: list[Page] = []
    if args.only in (None, "aeb"):
        pages.extend(load_aeb(args.limit))
    if args.only in (None, "wcxb"):
        pages.extend(load_wcxb(args.limit))
    if args.only in (None, "trafeval"):
        pages.extend(load_trafeval(args.limit))
    split_parts(pages)
    if args.phrases:
        names = ["full"]
    results = run(pages, names, keep_text="full" in names)
    if not args.phrases:
        report(results, args.worst)
    if "ours" in results and args.save:
        save_pages(results["ours"], args.save)
    if "ours" in results and args.against:
        print()
        compare_pages(results["ours"], args.against)
    texts = {
        f"{r.page.dataset}/{r.page.page_id}": r.text for r in results.get("full", Scores()).rows
    }
    phrase_report(pages, texts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
