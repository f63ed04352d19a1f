"""Model-facing text of an excerpt search, and of the saved findings shown with any search.

Layout (the provenance line comes first; :mod:`insomnia_web.tools.search_cache` writes it)::

    [cache: miss · brave · 2026-12-02T10:00Z]
    <<<UNTRUSTED WEB CONTENT ...>>>
    [1] Title - URL
    By Author · published 2026-03-01
    § Heading > Path
    passage

    [2] Title - URL
    passage

    Other results (not used):
    - Title - URL
    <<<END UNTRUSTED WEB CONTENT>>>
    Not read: URL (timeout); URL (http_error)
    Warning: 1 page(s) missed the 10 s deadline and were dropped
    <<<UNTRUSTED WEB CONTENT ...>>>
    UNVERIFIED model finding (saved 3d ago for "question"): the fact
    <<<END UNTRUSTED WEB CONTENT>>>

The label and heading lines are what :mod:`insomnia_web.rank.budget` prices, so the excerpts
fit the budget as rendered. Findings come last: they are never ranked above fetched sources.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..modeltext import format_age, one_line, wrap_untrusted
from ..schemas import ExcerptItem, FindingItem, PageStatus, ResultItem, WebSearchOutput

__all__ = ["ASK_NOTE", "render_excerpt_search", "render_findings", "render_unread"]

HEADING_MARK = "§"


def _label(n: int, title: str, url: str) -> str:
    return f"[{n}] {' '.join(title.split()) or url} - {url}"


def _excerpt(e: ExcerptItem) -> str:
    lines = [_label(e.id, e.title, e.url)]
    if e.byline:
        lines.append(one_line(e.byline, 300))
    if e.heading:
        lines.append(f"{HEADING_MARK} {e.heading}")
    lines.append(e.text)
    return "\n".join(lines)


def _other_results(results: Sequence[ResultItem], used: set[str]) -> list[str]:
    rest = [r for r in results if r.url not in used]
    if not rest:
        return []
    return ["Other results (not used):"] + [
        f"- {' '.join(r.title.split()) or r.url} - {r.url}" for r in rest
    ]


ASK_NOTE = (
    "{n} page(s) not read (permission_required): WebFetch on their hosts asks the user "
    "first, and an excerpt search asks nobody. WebFetch such a URL to ask, or the user can "
    "allow its host in [permissions]."
)


def render_unread(pages: Sequence[PageStatus]) -> str:
    """One line naming the pages that were not read and why; ``""`` when all were read."""
    failed = [f"{p.url} ({p.error_code or p.status})" for p in pages if p.status != "ok"]
    return f"Not read: {'; '.join(failed)}" if failed else ""


def render_findings(findings: Sequence[FindingItem]) -> str:
    """Saved findings, each labelled unverified (or verified by its page); ``""`` if none."""
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
        lines.append(f'{label}, saved {format_age(f.age_s)} ago for "{query}": {f.content}')
    return wrap_untrusted("\n".join(lines))


def render_excerpt_search(output: WebSearchOutput, header: str) -> str:
    """The whole text of an excerpt search: header, excerpts, other results, notes, findings.

    Notes are the unread pages, the count of results hidden by the policy, and warnings.
    """
    body: list[str] = []
    if output.excerpts:
        body.append("\n\n".join(_excerpt(e) for e in output.excerpts))
    elif output.results:
        body.append("No passage of the results matched the query.")
    else:
        body.append("No results.")
    other = _other_results(output.results, {e.url for e in output.excerpts})
    if other:
        body.append("\n".join(other))
    parts = [header]
    if output.results or output.excerpts:
        parts.append(wrap_untrusted("\n\n".join(body)))
    else:
        parts.append(body[0])
    unread = render_unread(output.pages)
    if unread:
        parts.append(unread)
    asked = sum(1 for p in output.pages if p.error_code == "permission_required")
    if asked:
        parts.append(ASK_NOTE.format(n=asked))
    if output.filtered:
        noun = "result was" if output.filtered == 1 else "results were"
        parts.append(f"{output.filtered} {noun} hidden by the URL policy or a deny rule.")
    parts.extend(f"Warning: {w}" for w in output.warnings)
    findings = render_findings(output.findings)
    if findings:
        parts.append(findings)
    return "\n".join(parts)
