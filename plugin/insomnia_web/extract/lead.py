"""A story's lead: the paragraph its header holds under the headline.

News sites put a story's headline and its lead paragraph (the standfirst) in a ``<header>``
above the body. Readability takes the body and leaves the header out, and the page
extraction drops a header as page chrome, so the lead is lost either way. The lead is read
from the first header that holds the page's ``<h1>`` and a paragraph of prose, before
anything is pruned, and put back under the headline when the chosen text lacks it.

Sites that give the lead no ``<header>`` name it in its class or id instead (``lead``,
``intro``, ``standfirst``, ``article-deck``, ``field-perex``, ``texto-bajada``): the first
block so named after the ``<h1>`` that holds a paragraph of prose is the lead then. A page
that marks its lead neither way gets its first ``<p>`` after the ``<h1>`` when it reads as a
lead by the same tests and is no photo's caption (alone beside a picture, or in a block
named a caption or a credit).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from lxml.html import HtmlElement

from .counts import word_count
from .dedup import repeat_key
from .patterns import BOILERPLATE_BLOCKS, NamePattern
from .prune import names_article_extra, names_boilerplate, names_of, share_below
from .words import count_words

__all__ = [
    "FIRST_PARAGRAPH",
    "LEAD",
    "NAMED_LEAD",
    "FirstParagraphRule",
    "LeadRule",
    "NamedLeadRule",
    "add_lead",
    "story_lead",
]


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


@dataclass(frozen=True)
class NamedLeadRule:
    """A lead that the markup names in its class or id, below the headline."""

    names: NamePattern
    """Class or id words naming a story's lead (standfirst, deck, intro, abstract, in the
    words of several languages' newsrooms: ``perex``, ``bajada``, ``chapo``). Not
    ``summary``: a CMS names its whole body field so (``text-with-summary``)."""
    max_words: int
    """A named block holding more words than this is the story's body or a whole section."""
    outside: frozenset[str]
    """A block inside one of these tags, being one or holding one, is the page's chrome or a
    lead photo and its caption, not the story's lead."""
    max_gap_words: int
    """The lead follows the headline closely: at most this many words between them (a
    kicker, a byline, a date); a block named so further down is another story's summary."""
    sentence_end: re.Pattern[str]
    """A lead is prose: it holds a sentence's end (a price history's "60 days 1 year" or a
    rating snapshot holds none)."""


NAMED_LEAD = NamedLeadRule(
    names=NamePattern(
        r"(?:^|[-_ ])(?:lead|leader|intro|standfirst|subtitle|sub-?title|perex|"
        r"bajada|deck|excerpt|abstract|description|chapo|chapeau)(?:$|[-_ ])"
    ),
    max_words=150,
    outside=frozenset(("nav", "aside", "footer", "form", "figure", "figcaption", "img")),
    max_gap_words=40,
    sentence_end=re.compile(r"[.!?。！？．]"),
)


@dataclass(frozen=True)
class FirstParagraphRule:
    """A lead that neither a header nor a name marks: the first paragraph under the headline."""

    tags: frozenset[str]
    """Tags of a paragraph (a ``<div>`` or a list is a section, a teaser or chrome)."""
    pictures: frozenset[str]
    """A paragraph alone beside one of these (in its parent) is a photo's caption."""
    caption_levels: int
    """... as is one that this many blocks around it (itself first) name a caption, a
    credit or a byline."""


FIRST_PARAGRAPH = FirstParagraphRule(
    tags=frozenset(("p",)),
    pictures=frozenset(("img", "picture", "video", "figure")),
    caption_levels=3,
)


def _words(el: HtmlElement) -> str:
    return " ".join(" ".join(el.itertext()).split())


def story_lead(root: HtmlElement, rule: LeadRule = LEAD) -> list[str]:
    """The lead paragraphs of the story's header, else its named lead, else its first
    paragraph under the headline, else ``[]``."""
    return _header_lead(root, rule) or _lead_after_headline(root, rule, NAMED_LEAD, FIRST_PARAGRAPH)


def _is_prose(text: str, el: HtmlElement, rule: LeadRule) -> bool:
    """True when *text* (the text of *el*) is a paragraph of prose, not a label or links."""
    words = count_words(text)
    linked = sum(count_words(_words(a)) for a in el.iter("a"))
    return words >= rule.min_words and linked <= rule.max_link_share * words


def _lead_after_headline(
    root: HtmlElement, rule: LeadRule, named: NamedLeadRule, first: FirstParagraphRule
) -> list[str]:
    """In one walk after the page's ``<h1>``, within ``named.max_gap_words`` words of text:
    the first block that its class or id names a lead and that reads as one, else the first
    paragraph that reads as a lead and is no photo's caption; ``[]`` when there is neither."""
    headline = next(root.iter(rule.headline), None)
    if headline is None:
        return []
    gap = 0
    paragraph: list[str] = []
    for el in _after(root, headline):
        named_here = _names_lead(el, named)
        if named_here or (not paragraph and el.tag in first.tags and not _is_caption(el, first)):
            text = _words(el)
            if _is_named_lead(text, el, root, rule, named):
                if named_here:
                    return [text]
                paragraph = [text]
        gap += count_words(el.text or "")
        if gap > named.max_gap_words:
            break
    return paragraph


def _is_caption(el: HtmlElement, first: FirstParagraphRule) -> bool:
    """True when *el* is a photo's caption: a block around it names a caption or a credit,
    or it is the only paragraph beside a picture."""
    parent = el.getparent()
    if parent is not None and _alone_beside_picture(el, parent, first):
        return True
    blocks = itertools.islice(itertools.chain((el,), el.iterancestors()), first.caption_levels)
    return any(names_article_extra(up) for up in blocks)


def _alone_beside_picture(el: HtmlElement, parent: HtmlElement, first: FirstParagraphRule) -> bool:
    """True when *parent* holds a picture and no paragraph but *el*."""
    if next(parent.iter(*first.pictures), None) is None:
        return False
    return not any(p is not el for p in parent.iter(*first.tags))


def _after(root: HtmlElement, headline: HtmlElement) -> Iterator[HtmlElement]:
    """The elements after *headline* (under *root*) in document order, not those inside it:
    the subtrees of its following siblings, then of each ancestor's, innermost first. The
    elements before it are not walked."""
    node: HtmlElement | None = headline
    while node is not None and node is not root:
        for sibling in node.itersiblings():
            yield from (el for el in sibling.iter() if isinstance(el.tag, str))
        node = node.getparent()


def _names_lead(el: HtmlElement, named: NamedLeadRule) -> bool:
    """True when *el*'s class or id names a lead ("article-intro", "entry__subtitle")."""
    features = names_of(el)
    return bool(features) and bool(named.names.search(features))


def _is_named_lead(
    text: str, el: HtmlElement, root: HtmlElement, rule: LeadRule, named: NamedLeadRule
) -> bool:
    """True when the named block *el* (its text *text*) reads as a lead: prose of a sentence
    or more, no picture (a lead photo and its caption), outside the page's chrome."""
    if count_words(text) > named.max_words or not _is_prose(text, el, rule):
        return False
    if not named.sentence_end.search(text) or next(el.iter(*named.outside), None) is not None:
        return False
    return not _in_chrome(el, root, named)


def _in_chrome(el: HtmlElement, root: HtmlElement, named: NamedLeadRule) -> bool:
    """True when *el* or a block around it is chrome by its tag or its name ("author-bio");
    a block named so that holds a large share of the page is a wrapper ("off-canvas-wrap")
    that the pruning keeps, and says nothing."""
    if names_boilerplate(el):
        return True
    ancestors = list(el.iterancestors())
    if any(up.tag in named.outside for up in ancestors):
        return True
    named_chrome = [up for up in ancestors if names_boilerplate(up)]
    if not named_chrome:
        return False
    total = word_count(root)
    return any(share_below(up, total, BOILERPLATE_BLOCKS.max_share_by_class) for up in named_chrome)


def _header_lead(root: HtmlElement, rule: LeadRule) -> list[str]:
    """The lead paragraphs of the first header holding the headline."""
    for header in root.iter(*rule.containers):
        if next(header.iter(rule.headline), None) is None:
            continue
        if count_words(_words(header)) > rule.max_header_words:
            return []
        return [text for p in header.iter("p") if _is_prose(text := _words(p), p, rule)]
    return []


def _spaceless(text: str) -> str:
    """:func:`.dedup.repeat_key` of *text* without its spaces: a drop cap set apart ("W hile")
    or a word split over two tags is the same text."""
    return repeat_key(text).replace(" ", "")


def _verbatim_in(paragraph: str, text: str) -> bool:
    """True when *text* holds *paragraph* as it stands, so its :func:`_spaceless` form too.

    Lowercasing, keeping word characters and pairing CJK characters all read a character
    by itself (a piece of a text gives a piece of its form), except the capital sigma,
    lowercased by what follows it: a paragraph holding one is not tested this way.
    """
    return "\u03a3" not in paragraph and paragraph in text


def add_lead(text: str, lead: list[str]) -> str:
    """*text* with the *lead* paragraphs it lacks put under its headline (or on top)."""
    unseen = [p for p in lead if not _verbatim_in(p, text)]
    if not unseen:
        return text  # most pages: no need to read the whole text's words
    flat = _spaceless(text)
    missing = [p for p in unseen if _spaceless(p) not in flat]
    if not missing:
        return text
    block = "\n\n".join(missing)
    first, sep, rest = text.partition("\n")
    if first.startswith("# ") and sep:
        return f"{first}\n\n{block}\n\n{rest.lstrip()}"
    return f"{block}\n\n{text}" if text else block
