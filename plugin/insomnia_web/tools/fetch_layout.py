"""The text the model reads for a WebFetch result.

Layout: a metadata header (URL, final URL when different, status, type, published and
modified dates, a PDF's page count, the character range shown, where the text came from,
warnings), then between the untrusted-content delimiters the page's title and author (the
page's own words, which could otherwise read as header lines of ours) and the page slice,
then, when more text follows, a marker saying exactly how to continue, and a note when the
download itself was cut.
"""

from __future__ import annotations

from ..extract.dispatch import shown_type
from ..modeltext import format_age, format_utc, one_line, wrap_untrusted
from ..schemas import WebFetchOutput

__all__ = [
    "MODEL_CONTINUE",
    "MODEL_REFETCH",
    "render_fetch",
    "truncation_marker",
]

MAX_TITLE_CHARS = 200

MODEL_CONTINUE = "call WebFetch again with start_index={end} to continue"
"""How the model continues a truncated page; a host may word it for its own people
(the CLI says ``--start-index``). ``{end}`` is where the next slice starts."""

MODEL_REFETCH = "force_fresh=true fetches it again"
"""How the model gets a fresh copy of a page served from the cache (the CLI says
``--force-fresh``)."""


def truncation_marker(start: int, end: int, total: int, how: str = MODEL_CONTINUE) -> str:
    """The line that ends a truncated slice and says how to continue (*how*)."""
    return f"[truncated: showing {start}-{end} of {total} chars; {how.format(end=end)}]"


def _source_line(out: WebFetchOutput, refetch_how: str) -> str:
    fetched = format_utc(out.fetched_at.timestamp())
    if out.cache.hit:
        age = format_age(out.cache.age_s or 0.0)
        return (
            f"Source: stored copy fetched {fetched} ({age} old; snapshot {out.snapshot[:12]}); "
            f"{refetch_how}"
        )
    return f"Source: fetched {fetched} (snapshot {out.snapshot[:12]})"


def _stated_lines(out: WebFetchOutput) -> list[str]:
    """The title and author the page states, each on one capped line: web text, shown
    between the delimiters."""
    lines = []
    if out.title:
        lines.append(f'Title: "{one_line(out.title, MAX_TITLE_CHARS)}"')
    if out.author:
        lines.append(f"Author: {one_line(out.author, MAX_TITLE_CHARS)}")
    return lines


def _document_lines(out: WebFetchOutput) -> list[str]:
    """Dates (ISO 8601, as read) and page count, when the document states them."""
    lines = []
    dates = [
        f"{label}: {one_line(value, 40)}"
        for label, value in (("Published", out.published), ("Modified", out.modified))
        if value
    ]
    if dates:
        lines.append(" · ".join(dates))
    if out.pages:
        lines.append(f"Pages: {out.pages} (each starts with a [Page k of {out.pages}] line)")
    return lines


def _header(out: WebFetchOutput, refetch_how: str) -> list[str]:
    lines = [f"URL: {one_line(out.url, 2048)}"]
    if out.final_url != out.url:
        hops = len(out.redirects)
        lines.append(f"Final URL: {one_line(out.final_url, 2048)} (after {hops} redirect(s))")
    charset = f"; charset={out.charset}" if out.charset else ""
    kind = one_line(shown_type(out.content_type))  # the server's media type, when it is one
    lines.append(f"Status: {out.status} · Type: {kind}{charset}")
    lines.extend(_document_lines(out))
    end = out.start_index + len(out.text)
    lines.append(f"Chars: {out.start_index}-{end} of {out.total_chars}")
    lines.append(_source_line(out, refetch_how))
    lines.extend(f"Warning: {one_line(w, 500)}" for w in out.warnings)
    return lines


def render_fetch(
    out: WebFetchOutput, *, continue_how: str = MODEL_CONTINUE, refetch_how: str = MODEL_REFETCH
) -> str:
    """The whole text of one WebFetch result; *continue_how* words the truncation marker,
    *refetch_how* the advice on a stored copy."""
    stated = "\n".join(_stated_lines(out))
    page = f"{stated}\n\n{out.text}" if stated else out.text
    parts = ["\n".join(_header(out, refetch_how)), wrap_untrusted(page)]
    if out.truncated and out.next_start_index is not None:
        parts.append(
            truncation_marker(out.start_index, out.next_start_index, out.total_chars, continue_how)
        )
    if out.download_truncated:
        parts.append(
            f"[download cut: only the first {out.bytes} bytes of the response were read (size "
            "limit), so the page text ends early; the rest cannot be fetched with start_index]"
        )
    return "\n".join(parts)
