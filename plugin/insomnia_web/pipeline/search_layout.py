"""Model-facing text of an excerpt search, and of the saved findings shown with any search.

Layout (the provenance line comes first; :mod:`insomnia_web.tools.search_cache` writes it)::

    [cache: miss · brave]
    <<<UNTRUSTED WEB CONTENT>>>
    [1] URL
    By Author · 2026-03-01
    § Heading
    passage
    …
    passage

    [2] Title - URL
    passage

    Other results: URL URL
    <<<END UNTRUSTED WEB CONTENT>>>
    Not read: URL (timeout); URL (http_error)
    Warning: 1 page(s) missed the 10 s deadline and were dropped
    <<<UNTRUSTED WEB CONTENT>>>
    UNVERIFIED model finding (saved 3d ago for "question"): the fact
    <<<END UNTRUSTED WEB CONTENT>>>

One id per source: its label comes once (:func:`~insomnia_web.rank.budget.source_label`:
the whole URL, after the title only when the URL does not already say it; with the page's
byline, when it states its author or dates), its passages below it in page order, ``…``
between passages that are not adjacent on the page. A heading line is shown only for a
part of the heading path the title does not already say and that names a term of the
query, and not again for the next passage under the same heading.
:func:`fit_excerpt_search` keeps the *whole* text within ``max_tokens``: it drops the
lowest-scoring passages until the text fits, and lists the unused results, in their
shortest form (the bare URLs, which is what WebFetch takes), only when the budget still
has room.
Findings come last: they are never ranked above fetched sources. A page's line that reads
like a source's label, a finding, the other results, a heading line or a gap mark is escaped
(:func:`escape_marks`) before it is cut into passages, and so is an excerpt's first line
when the excerpt is made (a passage cut inside a paragraph starts mid-line): the only lines
that start so are ours.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

import msgspec

from ..modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END, format_age, one_line, wrap_untrusted
from ..rank import estimate_tokens
from ..rank.budget import MAX_LINE_CHARS, shown_heading, source_label
from ..rank.candidates import query_terms
from ..schemas import (
    ExcerptItem,
    FindingItem,
    PageStatus,
    ResultItem,
    SearchCacheInfo,
    WebSearchOutput,
)

__all__ = [
    "ASK_NOTE",
    "asked_count",
    "escape_marks",
    "fit_excerpt_search",
    "frame_cost",
    "render_excerpt_search",
    "render_findings",
    "render_unread",
]

HEADING_MARK = "§"
GAP_MARK = "…"
_MARK_RE = re.compile(
    r"^([ \t]*)(?=[\[\uff3b]\s*\d+\s*[\]\uff3d]|(?:unverified\s+)?model\s+finding"
    rf"|other\s+results\s*:|{GAP_MARK}[ \t]*$)",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING_LIKE_RE = re.compile(
    rf"(?:\A|(?<=\n\n))([ \t]*)(?={HEADING_MARK}[^\n]{{0,{MAX_LINE_CHARS + 2}}}$)", re.MULTILINE
)
"""A paragraph of one line as short as a heading line of ours, starting with its mark: a
longer one (legal text cites ``§ 12`` at the start of a paragraph) reads as text."""


def escape_marks(text: str) -> str:
    """Web *text* with a backslash before each line start that reads like a source's label
    (``[2] Title - URL``), a saved finding (``model finding, verified by URL``), the list
    of results without a passage (``Other results: URL``) or a gap mark (a line of ``…``),
    and before a one-line paragraph that reads like a heading line (``§ Heading``): the
    model would take the lines under it for another source's, a finding a fetch confirmed,
    search results, two places of the page, or another section's."""
    return _HEADING_LIKE_RE.sub(r"\1\\", _MARK_RE.sub(r"\1\\", text))


HEADER_RESERVE = 40
"""Tokens kept for a provenance line the caller did not give (a similar match quotes a
query)."""


def _adjacent(prev: ExcerptItem, e: ExcerptItem) -> bool:
    """True when *e* follows *prev* on the page with only whitespace between them."""
    return prev.end >= 0 and e.start >= prev.end and e.start - prev.end <= 2


def _source_block(passages: Sequence[ExcerptItem], asked: Collection[str]) -> str:
    first = passages[0]
    lines = [source_label(first.id, first.title, first.url)]
    if first.byline:
        lines.append(one_line(first.byline, 300))
    prev: ExcerptItem | None = None
    prev_heading: str | None = None
    for e in passages:
        heading = shown_heading(e.title, e.heading, asked)
        if prev is not None and not _adjacent(prev, e):
            lines.append(GAP_MARK)
        elif prev is not None:
            lines.append("")
        if heading and heading != prev_heading:
            lines.append(f"{HEADING_MARK} {heading}")
        lines.append(e.text)
        prev, prev_heading = e, heading
    return "\n".join(lines)


def _excerpt_blocks(excerpts: Sequence[ExcerptItem], query: str) -> list[str]:
    """One block per source, in the order their ids come."""
    asked = frozenset(query_terms(query))
    groups: dict[int, list[ExcerptItem]] = {}
    for e in excerpts:
        groups.setdefault(e.id, []).append(e)
    return [_source_block(group, asked) for group in groups.values()]


def _other_results(results: Sequence[ResultItem], used: set[str]) -> str:
    """The results without a passage, in their shortest form: their URLs."""
    rest = [r.url for r in results if r.url not in used]
    return f"Other results: {' '.join(rest)}" if rest else ""


_MISS = SearchCacheInfo(status="miss")


ASK_NOTE = (
    "{n} page(s) not read (permission_required): WebFetch on their hosts asks the user "
    "first, and an excerpt search asks nobody. WebFetch such a URL to ask, or the user can "
    "allow its host in [permissions]."
)


def render_unread(pages: Sequence[PageStatus]) -> str:
    """One line naming the pages that were not read and why; ``""`` when all were read.

    It is outside the delimiters and the URLs are the results', so it is defused.
    """
    failed = [f"{p.url} ({p.error_code or p.status})" for p in pages if p.status != "ok"]
    return one_line(f"Not read: {'; '.join(failed)}") if failed else ""


def asked_count(pages: Iterable[PageStatus]) -> int:
    """How many of an excerpt search's *pages* went unread because WebFetch asks first on
    their hosts (and an excerpt search asks nobody)."""
    return sum(1 for p in pages if p.error_code == "permission_required")


def render_findings(findings: Sequence[FindingItem]) -> str:
    """Saved findings, each on one line that starts with its label: unverified (or verified by
    its page); ``""`` if none."""
    if not findings:
        return ""
    lines = []
    for f in findings:
        if f.verified and f.source_url:
            label = f"model finding, verified by {f.source_url}"
        else:
            label = "UNVERIFIED model finding"
            if f.source_url:
                label += f" (claimed source: {f.source_url})"
        query = " ".join(f.query.split()).replace('"', "'")
        content = " ".join(f.content.split())  # one line: no line of its own can forge a label
        lines.append(f'{label}, saved {format_age(f.age_s)} ago for "{query}": {content}')
    return wrap_untrusted("\n".join(lines))


def _notes(output: WebSearchOutput) -> list[str]:
    """The lines after the web content: unread pages, hidden results, warnings."""
    notes = []
    unread = render_unread(output.pages)
    if unread:
        notes.append(unread)
    asked = asked_count(output.pages)
    if asked:
        notes.append(ASK_NOTE.format(n=asked))
    if output.filtered:
        noun = "result was" if output.filtered == 1 else "results were"
        notes.append(f"{output.filtered} {noun} hidden by the URL policy or a deny rule.")
    notes.extend(f"Warning: {one_line(w)}" for w in output.warnings)  # pages' words too
    return notes


def frame_cost(
    pages: Sequence[PageStatus], warnings: Sequence[str], *, filtered: int = 0, header: str = ""
) -> int:
    """Tokens of the text around the excerpts: header (or a reserve for it), delimiters,
    notes, and a line break per line; what the excerpts may not spend of ``max_tokens``."""
    probe = WebSearchOutput(
        query="", provider="", mode="excerpts", cache=_MISS, results=[],
        pages=list(pages), warnings=list(warnings), filtered=filtered,
    )  # fmt: skip
    lines = [UNTRUSTED_BEGIN, UNTRUSTED_END, *_notes(probe)]
    head = estimate_tokens(header) if header else HEADER_RESERVE
    return head + sum(estimate_tokens(line) + 1 for line in lines)


def render_excerpt_search(output: WebSearchOutput, header: str, *, other: str | None = None) -> str:
    """The whole text of an excerpt search: header, excerpts, other results, notes, findings.

    Notes are the unread pages, the count of results hidden by the policy, and warnings.
    *other* is the "other results" line to show (``None``: all unused results, by URL).
    """
    body: list[str] = []
    if output.excerpts:
        body.append("\n\n".join(_excerpt_blocks(output.excerpts, output.query)))
    elif output.results:
        body.append("No passage of the results matched the query.")
    else:
        body.append("No results.")
    if other is None:
        other = _other_results(output.results, {e.url for e in output.excerpts})
    if other:
        body.append(other)
    parts = [header]
    if output.results or output.excerpts:
        parts.append(wrap_untrusted("\n\n".join(body)))
    else:
        parts.append(body[0])
    parts.extend(_notes(output))
    findings = render_findings(output.findings)
    if findings:
        parts.append(findings)
    return "\n".join(parts)


def _renumbered(excerpts: Sequence[ExcerptItem]) -> list[ExcerptItem]:
    """*excerpts* with their source ids renumbered 1, 2, ... in order (after a drop)."""
    ids: dict[int, int] = {}
    out = []
    for e in excerpts:
        n = ids.setdefault(e.id, len(ids) + 1)
        out.append(e if n == e.id else msgspec.structs.replace(e, id=n))
    return out


def _cut(text: str, max_tokens: int) -> str:
    """The longest prefix of *text*, cut at a line end when possible, within *max_tokens*."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) + 1 <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    cut = text[:lo]
    line_end = cut.rfind("\n")
    return (cut[:line_end] if line_end > 0 else cut) + "\n…"


def fit_excerpt_search(
    output: WebSearchOutput, header: str, max_tokens: int
) -> tuple[WebSearchOutput, str]:
    """Render *output* so that the whole text costs at most *max_tokens*; return both.

    Passages are dropped lowest score first until the text fits (ids renumbered); then the
    unused results are listed, as bare URLs, if they fit. Should the header,
    notes and findings alone exceed the budget, the text is cut at a line end and ends in
    ``…``. The returned output's ``excerpts`` are those shown and ``tokens`` is the
    estimate of the returned text.
    """
    excerpts = list(output.excerpts)
    shown = msgspec.structs.replace(output, excerpts=excerpts)
    text = render_excerpt_search(shown, header, other="")
    while estimate_tokens(text) > max_tokens and excerpts:
        excerpts.remove(min(reversed(excerpts), key=lambda e: e.score))
        shown = msgspec.structs.replace(output, excerpts=_renumbered(excerpts))
        text = render_excerpt_search(shown, header, other="")
    if estimate_tokens(text) > max_tokens:
        text = _cut(text, max_tokens)
    else:
        used = {e.url for e in shown.excerpts}
        other = _other_results(output.results, used)
        candidate = render_excerpt_search(shown, header, other=other)
        if other and estimate_tokens(candidate) <= max_tokens:
            text = candidate
    return msgspec.structs.replace(shown, tokens=estimate_tokens(text)), text
