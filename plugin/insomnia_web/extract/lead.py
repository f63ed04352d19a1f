"""A story's lead: the paragraph its header holds under the headline.

News sites put a story's headline and its lead paragraph (the standfirst) in a ``<header>``
above the body. Readability takes the body and leaves the header out, and the page
extraction drops a header as page chrome, so the lead is lost either way. The lead is read
from the first header that holds the page's ``<h1>`` and a paragraph of prose, before
anything is pruned, and put back under the headline when the chosen text lacks it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement

from .dedup import repeat_key
from .words import count_words

__all__ = ["LEAD", "LeadRule", "add_lead", "story_lead"]


@dataclass(frozen=True)
class LeadRule:
    """Where a story's lead sits, and what counts as one."""

    containers: frozenset[str]
    """Tags of the block holding the headline and the lead."""
    headline: str
    """The headline's tag: a header without it is a card's or a section's, not the story's."""
    min_words: int
    """A lead paragraph has at least this many words (a dateline or a kicker has fewer)."""
    max_link_share: float
    """... and at most this share of them inside links (a list of links is no lead)."""
    max_header_words: int
    """A header holding more words than this holds the story itself (a header left open
    around the page), not a headline and a lead."""


LEAD = LeadRule(
    containers=frozenset(("header",)),
    headline="h1",
    min_words=12,
    max_link_share=0.2,
    max_header_words=150,
)


def _words(el: HtmlElement) -> str:
    return " ".join(" ".join(el.itertext()).split())


def story_lead(root: HtmlElement, rule: LeadRule = LEAD) -> list[str]:
    """The lead paragraphs of the story's header, or ``[]`` when there is none."""
    for header in root.iter(*rule.containers):
        if next(header.iter(rule.headline), None) is None:
            continue
        if count_words(_words(header)) > rule.max_header_words:
            return []
        lead = []
        for p in header.iter("p"):
            text = _words(p)
            words = count_words(text)
            linked = sum(count_words(_words(a)) for a in p.iter("a"))
            if words >= rule.min_words and linked <= rule.max_link_share * words:
                lead.append(text)
        return lead
    return []


def add_lead(text: str, lead: list[str]) -> str:
    """*text* with the *lead* paragraphs it lacks put under its headline (or on top)."""
    if not lead:
        return text  # most pages: no need to read the whole text's words
    flat = repeat_key(text)
    missing = [p for p in lead if repeat_key(p) not in flat]
    if not missing:
        return text
    block = "\n\n".join(missing)
    first, sep, rest = text.partition("\n")
    if first.startswith("# ") and sep:
        return f"{first}\n\n{block}\n\n{rest.lstrip()}"
    return f"{block}\n\n{text}" if text else block
