"""Build and validate the excerpt-search dev set ``bench/qa-dev.json``.

The dev set is a list of hand-written questions over the benchmark pages in ``../shared/data``
(AEB, WCXB-dev, trafilatura-eval-dev). Each entry names the page the question was written
from (``dataset`` + ``page`` id), the question, the accepted answer strings, its split
(``tune`` or ``check``) and the ten pages a search for the question "returns" (``returned``,
best first): the pages of the whole corpus most similar to the question by document-level BM25
over their text, so distractors share its words. Page text is the dataset's ground-truth text
where it has one (AEB ``articleBody``, WCXB ``main_content``) and ``insomnia_web.extract`` on
the HTML for trafilatura-eval-dev, which has only snippets. No page text is stored.

A question is kept only when all of these hold (``check`` enforces them):

- its source page is among the ten returned pages;
- an answer string occurs (case-insensitively, whitespace collapsed) on the source page and on
  one to three of the ten returned pages;
- no answer string occurs in the question itself;
- at most a third of the question's index terms (``insomnia_web.rank.analysis.analyze``) occur in
  the sentence holding the answer on the source page (a paraphrase, not a copy);
- the stored ``split`` is the one the id hashes to.

The stored ``returned`` lists are what the benchmark uses; ``check`` also says how many differ
from today's BM25 top 10 (trafilatura-eval-dev text comes from the extractor, so extractor
changes can reorder results) without failing on that alone.

Commands:

    python bench/devset_build.py check            # re-validate the stored set; exit 1 on failure
    python bench/devset_build.py propose N [SEED] # print fact sentences of N random pages
    python bench/devset_build.py add DRAFT.json   # validate drafted questions, append the good ones
    python bench/devset_build.py rewrite MAP.json # reword stored questions ({id: question})
    python bench/devset_build.py prune            # drop stored questions that break a rule
    python bench/devset_build.py refresh          # store today's top 10 per question, re-check

Drafts are a JSON list of ``{"dataset", "page", "question", "answers"}`` (or ``"key":
"dataset/page"``), each with an optional ``"style"``; ``add`` prints why each rejected draft
fails, assigns ids, returned pages and splits, and rewrites the set.

Each question stores its ``style``: ``keywords`` (the default: typed the way people type into
a search box, "nickname of the Ukraine irregular channel trio Volker") or ``question`` (a
full question starting with a question word, as in a quiz: "Which filmmaker was behind the
camera on the most recent Trek movie from 2016?"). The first 200 questions (q001-q206) are
``keywords`` (81 of them open with a question word, but as typed into a search box: lower
case, no question mark, often cut short: "WeWork layoffs how many people"); q207 on are
``question``, written in the languages of their pages, so that a feature reading the
question word can be measured. ``bench/recall.py`` reports the two styles separately.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import msgspec

from insomnia_web.rank.analysis import analyze

BENCH_DIR = Path(__file__).resolve().parent
DATA_DIR = Path(
    os.environ.get("INSOMNIA_WEB_DATA", BENCH_DIR.parents[0].parent / "shared" / "data")
)
DEVSET = BENCH_DIR / "qa-dev.json"
RETURNED = 10  # pages a search returns
MAX_ANSWER_PAGES = 3  # of the returned pages, at most this many may hold an answer
MAX_COPIED = 0.34  # at most this share of the question's terms may be in the answer's sentence
SPLIT_SEED = "qa-dev"  # the split is a hash of this and the question id
STYLES = ("keywords", "question")  # how a question is worded (``Question.style``)


class Page(msgspec.Struct, kw_only=True):
    """One benchmark page: where it came from, its title and the text questions are checked on."""

    key: str
    dataset: str
    page: str
    url: str
    title: str
    text: str
    source: str  # "truth" (dataset ground truth) or "extract" (insomnia_web.extract)


class Question(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A dev-set question written from one page, with the pages its search returns."""

    id: str
    dataset: str
    page: str
    question: str
    answers: list[str]
    split: str = ""
    returned: list[str] = []
    style: str = "keywords"
    """How it was written: ``keywords`` (typed into a search box) or ``question`` (a full
    question, as in a quiz)."""

    @property
    def key(self) -> str:
        """The source page's key, ``dataset/page``."""
        return f"{self.dataset}/{self.page}"


def normalize(text: str) -> str:
    """Lower-case *text* and collapse its whitespace, for answer matching."""
    return " ".join(text.lower().split())


def holds_answer(answers: Sequence[str], text: str) -> bool:
    """Return True when one of *answers* occurs in *text* (case and whitespace insensitive)."""
    blob = normalize(text)
    return any(normalize(a) in blob for a in answers)


SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n")


def answer_sentence(answers: Sequence[str], text: str) -> str:
    """Return the sentence (or line) of *text* holding the first answer occurrence."""
    lowered = text.lower()
    found = [i for i in (lowered.find(a.lower()) for a in answers) if i >= 0]
    if not found:
        return ""
    at = min(found)
    starts = [m.end() for m in SENTENCE_END.finditer(text, 0, at)]
    end = SENTENCE_END.search(text, at + 1)
    return text[starts[-1] if starts else 0 : end.start() if end else len(text)]


def copied_share(q: Question, text: str) -> float:
    """Share of the question's index terms that occur in the answer's sentence on *text*."""
    terms = set(analyze(q.question))
    return len(terms & set(analyze(answer_sentence(q.answers, text)))) / max(1, len(terms))


def split_of(question_id: str) -> str:
    """Return the deterministic split of a question: about half ``tune``, half ``check``."""
    digest = hashlib.sha256(f"{SPLIT_SEED}:{question_id}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "check"


def html_of(dataset: str, name: str) -> str:
    """Return the decoded HTML of one page."""
    from insomnia_web.net.charset import decode_text

    folder = {"aeb": "aeb", "wcxb": "wcxb-dev", "traf": "trafilatura-eval-dev"}[dataset]
    suffix = "" if dataset == "traf" else ".html"
    raw = gzip.decompress((DATA_DIR / folder / "html" / f"{name}{suffix}.gz").read_bytes())
    return decode_text(raw, None)[0]


def extract(dataset: str, name: str, url: str) -> tuple[str, str]:
    """Return ``(title, text)`` of one page by ``insomnia_web.extract``."""
    from insomnia_web.extract import extract_html

    del url  # kept for extractors that use it
    result = extract_html(html_of(dataset, name))
    return result.title or "", result.text


@cache
def byline_of(dataset: str, name: str, url: str) -> str | None:
    """The line WebSearch shows under the page's label: the author and dates the page
    states (``insomnia_web.extract.article_meta``), or None when it states none."""
    from insomnia_web.extract.article_meta import article_meta
    from insomnia_web.extract.parse import parse_html
    from insomnia_web.pipeline.excerpts import byline
    from insomnia_web.pipeline.fetch import PageOutcome

    root = parse_html(html_of(dataset, name))
    if root is None:
        return None
    meta = article_meta(root)
    return byline(PageOutcome(url=url, status="ok", **meta._asdict()))


@cache
def load_pages(text: str = "truth", only: frozenset[str] | None = None) -> dict[str, Page]:
    """Read every page of the three datasets (or the pages keyed in *only*).

    *text* ``"truth"`` uses ground-truth text where the dataset has it and the extractor
    elsewhere (how the set is built); ``"extract"`` uses the extractor for every page.
    """
    pages: dict[str, Page] = {}

    def add(dataset: str, name: str, url: str, title: str, truth: str | None) -> None:
        if only is not None and f"{dataset}/{name}" not in only:
            return
        source = "truth"
        if truth is None or text == "extract":
            got_title, truth = extract(dataset, name, url)
            title, source = got_title or title, "extract"
        key = f"{dataset}/{name}"
        pages[key] = Page(
            key=key, dataset=dataset, page=name, url=url, title=title, text=truth, source=source
        )

    aeb = json.loads((DATA_DIR / "aeb" / "ground-truth.json").read_text())
    for sha, entry in sorted(aeb.items()):
        slug = entry["url"].rstrip("/").rsplit("/", 1)[-1].replace("-", " ")
        add("aeb", sha, entry["url"], slug, entry["articleBody"] or "")
    for path in sorted((DATA_DIR / "wcxb-dev" / "ground-truth").glob("*.json")):
        entry = json.loads(path.read_text())
        gt = entry["ground_truth"]
        body = gt.get("main_content_markdown") or gt.get("main_content") or ""
        add("wcxb", path.stem, entry["url"], gt.get("title") or "", body)
    traf = json.loads((DATA_DIR / "trafilatura-eval-dev" / "evaldata.json").read_text())
    for url, entry in sorted(traf.items(), key=lambda item: str(item[1]["file"])):
        add("traf", entry["file"], url, "", None)
    return pages


class DocIndex:
    """Document-level BM25 (k1 = 1.2, b = 0.75) over the title and text of every page."""

    def __init__(self, pages: Sequence[Page]) -> None:
        self.keys = [p.key for p in pages]
        self.counts = [Counter(analyze(f"{p.title}\n{p.text}")) for p in pages]
        self.lengths = [sum(c.values()) for c in self.counts]
        self.avg = sum(self.lengths) / len(self.lengths)
        self.df: Counter[str] = Counter()
        for c in self.counts:
            self.df.update(c.keys())

    def top(self, query: str, k: int = RETURNED) -> list[str]:
        """Return the keys of the *k* pages most similar to *query*, best first."""
        n = len(self.keys)
        terms = {
            t: math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5)) for t in analyze(query)
        }
        scored: list[tuple[float, str]] = []
        for key, counts, length in zip(self.keys, self.counts, self.lengths, strict=True):
            norm = 1.2 * (0.25 + 0.75 * length / self.avg)
            score = sum(
                w * counts[t] * 2.2 / (counts[t] + norm) for t, w in terms.items() if counts[t]
            )
            if score > 0:
                scored.append((score, key))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [key for _, key in scored[:k]]


def problems(q: Question, pages: dict[str, Page], index: DocIndex) -> list[str]:
    """Return why *q* breaks the dev-set rules (empty when it meets them)."""
    out = []
    if q.key not in pages:
        return [f"unknown page {q.key}"]
    if not q.answers or any(not a.strip() for a in q.answers):
        out.append("empty answer")
    if holds_answer(q.answers, q.question):
        out.append("the question contains its answer")
    if not holds_answer(q.answers, pages[q.key].text):
        out.append("answer not on its page")
    elif (copied := copied_share(q, pages[q.key].text)) > MAX_COPIED:
        out.append(f"{copied:.0%} of its terms copied from the answer's sentence")
    fresh = index.top(q.question)
    if q.key not in fresh:
        out.append("source page not in the top 10")
    returned = q.returned or fresh
    if q.key not in returned:
        out.append("source page not among the stored returned pages")
    hits = sum(holds_answer(q.answers, pages[k].text) for k in returned if k in pages)
    if hits > MAX_ANSWER_PAGES:
        out.append(f"answer on {hits} of the returned pages")
    return out + label_problems(q)


def label_problems(q: Question) -> list[str]:
    """Return what is wrong with *q*'s stored labels: its split and its style."""
    out = []
    if q.split and q.split != split_of(q.id):
        out.append("stored split differs from the rule")
    if q.style not in STYLES:
        out.append(f"unknown style {q.style!r}")
    return out


def load_devset(path: Path = DEVSET) -> list[Question]:
    """Read the stored dev set."""
    return msgspec.json.decode(path.read_bytes(), type=list[Question])


def save_devset(questions: Sequence[Question], path: Path = DEVSET) -> None:
    """Write the dev set, one question per line."""
    lines = [msgspec.json.encode(q).decode() for q in questions]
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n")


def check() -> int:
    """Re-validate every stored question; print failures, return the exit status."""
    pages = load_pages()
    index = DocIndex(list(pages.values()))
    questions = load_devset()
    bad = 0
    ids = Counter(q.id for q in questions)
    for q in questions:
        found = problems(q, pages, index)
        if ids[q.id] > 1:
            found.append("duplicate id")
        if not q.returned or not q.split:
            found.append("returned pages or split missing")
        if found:
            bad += 1
            print(f"{q.id}: {'; '.join(found)} -- {q.question}")
    moved = sum(q.returned != index.top(q.question) for q in questions)
    splits = Counter(q.split for q in questions)
    print(f"{len(questions)} questions, {bad} failing; splits {dict(splits)}")
    print(f"{moved} stored result lists differ from today's BM25 top 10 (page text changed)")
    return 1 if bad else 0


def add(draft_path: Path) -> int:
    """Validate drafted questions and append the ones meeting the rules to the set."""
    pages = load_pages()
    index = DocIndex(list(pages.values()))
    questions = load_devset() if DEVSET.exists() else []
    seen = {normalize(q.question) for q in questions}
    number = max((int(q.id[1:]) for q in questions), default=0)
    drafts = json.loads(draft_path.read_text())
    kept = 0
    for d in drafts:
        dataset, page = d["key"].split("/", 1) if "key" in d else (d["dataset"], d["page"])
        q = Question(
            id="",
            dataset=dataset,
            page=page,
            question=d["question"],
            answers=d["answers"],
            style=d.get("style", "keywords"),
        )
        found = problems(q, pages, index)
        if normalize(q.question) in seen:
            found.append("duplicate question")
        if found:
            print(f"REJECT {'; '.join(found)} -- {q.question} {q.answers}")
            continue
        number += 1
        q.id = f"q{number:03d}"
        q.split = split_of(q.id)
        q.returned = index.top(q.question)
        questions.append(q)
        seen.add(normalize(q.question))
        kept += 1
    save_devset(questions)
    print(f"kept {kept} of {len(drafts)}; the set has {len(questions)} questions")
    return 0


def refresh() -> int:
    """Store today's BM25 top 10 as every question's returned pages, then re-validate."""
    pages = load_pages()
    index = DocIndex(list(pages.values()))
    questions = load_devset()
    for q in questions:
        q.returned = index.top(q.question)
    save_devset(questions)
    return check()


def prune() -> int:
    """Drop the stored questions that break a rule (after a data or rule change)."""
    pages = load_pages()
    index = DocIndex(list(pages.values()))
    kept = []
    for q in load_devset():
        found = problems(q, pages, index)
        if found:
            print(f"DROP {q.id}: {'; '.join(found)} -- {q.question}")
        else:
            kept.append(q)
    save_devset(kept)
    print(f"kept {len(kept)} questions")
    return 0


def rewrite(map_path: Path) -> int:
    """Replace the wording of stored questions (``{id: question}``); keep the old one on failure."""
    pages = load_pages()
    index = DocIndex(list(pages.values()))
    questions = load_devset()
    wording = json.loads(map_path.read_text())
    changed = 0
    for q in questions:
        if q.id not in wording:
            continue
        new = msgspec.structs.replace(q, question=wording[q.id], returned=[])
        found = problems(new, pages, index)
        if found:
            print(f"KEEP OLD {q.id}: {'; '.join(found)} -- {new.question}")
            continue
        q.question, q.returned = new.question, index.top(new.question)
        changed += 1
    save_devset(questions)
    print(f"reworded {changed} of {len(wording)}")
    return 0


FACT_RE = re.compile(r"\d|\b[A-Z][a-z]+ [A-Z][a-z]+")


def propose(n: int, seed: int) -> int:
    """Print candidate fact sentences (numbers, names) of *n* random pages, to write from."""
    pages = load_pages()
    taken = {q.key for q in load_devset()} if DEVSET.exists() else set()
    keys = sorted(k for k in pages if k not in taken and len(pages[k].text.split()) > 150)
    for key in random.Random(seed).sample(keys, min(n, len(keys))):
        page = pages[key]
        sentences = re.split(r"(?<=[.!?])\s+|\n+", page.text)
        facts = [s for s in sentences if 8 <= len(s.split()) <= 45 and FACT_RE.search(s)]
        print(f"\n== {key} | {page.title[:80]} | {page.url}")
        for s in random.Random(key).sample(facts, min(4, len(facts))):
            print(f"  - {s.strip()[:300]}")
    return 0


def main(argv: Sequence[str]) -> int:
    """Dispatch the command line."""
    if argv[:1] == ["check"]:
        return check()
    if argv[:1] == ["propose"] and len(argv) >= 2:
        return propose(int(argv[1]), int(argv[2]) if len(argv) > 2 else 0)
    if argv[:1] == ["refresh"]:
        return refresh()
    if argv[:1] == ["prune"]:
        return prune()
    if argv[:1] == ["rewrite"] and len(argv) == 2:
        return rewrite(Path(argv[1]))
    if argv[:1] == ["add"] and len(argv) == 2:
        return add(Path(argv[1]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
