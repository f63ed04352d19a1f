"""What excerpts cost against the token budget, labels included.

The model reads excerpts grouped by source (:mod:`insomnia_web.pipeline.search_layout`)::

    [1] Title - URL
    By Author · published 2026-03-01
    § Heading the title does not already say
    passage
    …
    passage

A source pays for its label line once (``[n] Title - URL``, the title with its whitespace
collapsed, or the URL again when there is no title), its byline when the page states its
author or dates (``By Author · published 2026-03-01``), and the blank line before it. Every
passage pays for its text, its heading line when :func:`shown_heading` keeps one, and one
separator line (a line break, or ``…`` between passages that are not adjacent on the page).
The label is priced with a three-digit ``[nnn]`` because ids are assigned only after
selection. Pricing each part separately rounds each up, so the total errs on the high side,
as a budget should. The text around the excerpts (provenance line, untrusted-content
delimiters, notes) is priced by the pipeline, which keeps the whole text within
``max_tokens``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .analysis import analyze
from .tokens import estimate_tokens

__all__ = [
    "PASSAGE_SEPARATOR_TOKENS",
    "SEPARATOR_TOKENS",
    "excerpt_cost",
    "label_cost",
    "passage_cost",
    "selection_cost",
    "shown_heading",
    "source_label_cost",
]

SEPARATOR_TOKENS = 2
"""The line breaks around a source's block."""
PASSAGE_SEPARATOR_TOKENS = 1
"""The line between two passages of one source (a line break or ``…``)."""


def shown_heading(title: str, heading: str | None) -> str | None:
    """The heading shown under *title*: the innermost part of the heading path that says
    something the title does not, or ``None``.

    A part says nothing new when all its index terms occur in the title ("Iceland facts >
    Geography" under the title "Iceland facts" shows "Geography"), or when it has no index
    terms at all ("More:"). Outer parts are left out: the innermost heading is the one that
    names the passage's topic, and a whole path costs a line's worth of tokens.
    """
    if not heading:
        return None
    said = set(analyze(title, keep_stopwords=True))
    for part in reversed(heading.split(" > ")):
        terms = set(analyze(part))
        if terms and not terms <= said:
            return part
    return None


def source_label_cost(title: str, url: str, byline: str | None = None) -> int:
    """The tokens of a source's label line, its byline and the blank line before them (paid
    once per source)."""
    shown = " ".join(title.split()) or url  # an empty title shows the URL
    cost = estimate_tokens(f"[nnn] {shown} - {url}") + SEPARATOR_TOKENS
    if byline:
        cost += estimate_tokens(byline) + 1
    return cost


def passage_cost(title: str, heading: str | None, text: str) -> int:
    """The tokens of one passage under its source's label: heading line, text, separator."""
    cost = estimate_tokens(text) + PASSAGE_SEPARATOR_TOKENS
    shown = shown_heading(title, heading)
    if shown:
        cost += estimate_tokens(f"§ {shown}") + 1
    return cost


def selection_cost(
    excerpts: Iterable[tuple[str, str, str | None, str]], bylines: dict[str, str] | None = None
) -> int:
    """The cost of (title, url, heading, text) passages as laid out: one label per URL (with
    its byline from *bylines*, by URL, if any)."""
    seen: set[str] = set()
    total = 0
    for title, url, heading, text in excerpts:
        if url not in seen:
            seen.add(url)
            total += source_label_cost(title, url, (bylines or {}).get(url))
        total += passage_cost(title, heading, text)
    return total


def label_cost(title: str, url: str, heading: str | None, byline: str | None = None) -> int:
    """The one-label-per-passage layout's overhead: a label line (byline, heading line) each.

    Kept to measure the earlier layout against the grouped one (``bench/recall.py``).
    """
    shown = " ".join(title.split()) or url
    cost = estimate_tokens(f"[nnn] {shown} - {url}") + SEPARATOR_TOKENS
    if byline:
        cost += estimate_tokens(byline) + 1
    if heading:
        cost += estimate_tokens(heading) + 1
    return cost


def excerpt_cost(
    title: str, url: str, heading: str | None, text: str, byline: str | None = None
) -> int:
    """One passage's cost in the one-label-per-passage layout: label overhead plus text."""
    return label_cost(title, url, heading, byline) + estimate_tokens(text)
