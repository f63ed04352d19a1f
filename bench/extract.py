"""Extraction quality and speed: insomnia-web vs readability-lxml vs trafilatura.

Runs every extractor over the AEB and WCXB-dev benchmark pages in one run and prints mean
bag-of-words F1 (the headline), precision and recall per dataset, F1 per WCXB page type, the
share of WCXB ``with`` snippets found (higher is better) and ``without`` snippets found
(lower is better), and pages per CPU-second, each with its ratio to readability-lxml.

Data: ``../shared/data`` from the repository root, or ``$INSOMNIA_WEB_DATA``. WCXB numbers
come from "WCXB, Murrough Foley" (CC-BY-4.0).

    python bench/extract.py [--limit N] [--only aeb|wcxb] [--extractors ours,trafilatura]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html

from insomnia_web.extract import extract_html

DATA = Path(
    os.environ.get(
        "INSOMNIA_WEB_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"
    )
)
_WORD_RE = re.compile(r"\w+")
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


EXTRACTORS: dict[str, Callable[[str], str]] = {
    "ours": ours,
    "readability": readability_lxml,
    "trafilatura": trafilatura_default,
    "full": whole_page,
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


@dataclass
class Scores:
    """Per-page scores of one extractor."""

    rows: list[Row] = field(default_factory=list)
    cpu_s: float = 0.0


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def run(pages: list[Page], names: list[str]) -> dict[str, Scores]:
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
            start = time.process_time()
            try:
                pred = EXTRACTORS[name](page.html)
            except Exception as exc:
                print(f"  {name} failed on {page.dataset}/{page.page_id}: {exc!r}", file=sys.stderr)
                pred = ""
            scores.cpu_s += time.process_time() - start
            p, r, f = prf(pred, page.gold)
            w = snippet_share(pred, page.with_snippets)
            wo = snippet_share(pred, page.without_snippets)
            scores.rows.append(Row(page, p, r, f, w, wo))
        gc.collect()
    for name, scores in results.items():
        print(f"  ran {name}: {len(pages)} pages, {scores.cpu_s:.1f} CPU-s", file=sys.stderr)
    return results


def _ratio(value: float, base: float | None) -> str:
    if base is None or base == 0 or math.isnan(value):
        return ""
    return f" ({value / base:.2f}x)"


def report(results: dict[str, Scores], per_page: bool) -> None:
    """Print the comparison table."""
    names = list(results)
    base = "readability" if "readability" in results else None
    datasets = sorted({row.page.dataset for s in results.values() for row in s.rows})
    header = f"{'metric':<28}" + "".join(f"{n:>22}" for n in names)
    print(header)
    print("-" * len(header))

    def line(label: str, values: dict[str, float], fmt: str = "{:.3f}") -> None:
        cells = []
        for n in names:
            v = values.get(n, float("nan"))
            b = values.get(base) if base else None
            cells.append(f"{fmt.format(v) + _ratio(v, b):>22}")
        print(f"{label:<28}" + "".join(cells))

    for ds in datasets:
        for attr, metric in (("f1", "F1"), ("p", "P"), ("r", "R")):
            line(
                f"{ds} {metric}" + (" (headline)" if metric == "F1" else ""),
                {
                    n: _mean([getattr(r, attr) for r in s.rows if r.page.dataset == ds])
                    for n, s in results.items()
                },
            )
        if ds == "wcxb":
            types = sorted(
                {r.page.page_type for s in results.values() for r in s.rows if r.page.dataset == ds}
            )
            for t in types:
                line(
                    f"  wcxb {t} F1",
                    {
                        n: _mean(
                            [r.f1 for r in s.rows if r.page.dataset == ds and r.page.page_type == t]
                        )
                        for n, s in results.items()
                    },
                )
            line(
                "wcxb with-snippets found",
                {
                    n: _mean([r.with_share for r in s.rows if r.with_share is not None])
                    for n, s in results.items()
                },
            )
            line(
                "wcxb without-snippets found",
                {
                    n: _mean([r.without_share for r in s.rows if r.without_share is not None])
                    for n, s in results.items()
                },
            )
    line(
        "pages per CPU-second",
        {n: len(s.rows) / s.cpu_s if s.cpu_s else float("nan") for n, s in results.items()},
        "{:.1f}",
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
                f"  {page.dataset}/{page.page_id} {page.page_type:<14} "
                f"F1={f:.2f} P={p:.2f} R={r:.2f} {extra}"
            )


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, help="pages per dataset (WCXB: per page type)")
    parser.add_argument("--only", choices=("aeb", "wcxb"), help="run one dataset")
    parser.add_argument(
        "--extractors",
        default="ours,readability,trafilatura,full",
        help="comma-separated subset of: " + ",".join(EXTRACTORS),
    )
    parser.add_argument("--worst", action="store_true", help="list the pages where ours is worst")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"benchmark data not found at {DATA}; set INSOMNIA_WEB_DATA", file=sys.stderr)
        return 2
    pages: list[Page] = []
    if args.only in (None, "aeb"):
        pages.extend(load_aeb(args.limit))
    if args.only in (None, "wcxb"):
        pages.extend(load_wcxb(args.limit))
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    report(run(pages, names), args.worst)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
