"""Listing chrome: the labels that every card of a listing repeats around its title.

Blog indexes, news fronts, search results, job boards and shop grids print, on each card,
counters ("27 comments", "44 reactions", "839 ratings") and badges: an advertising mark
("Sponsored", "Ad"), a fulfilment badge ("Free shipping", "Ships from Bulgaria"), a merit or
novelty badge ("Top rated", "Award winner", "New arrival", "Online exclusive"); a block
still waiting for its script says "Loading...". None of them tells the reader anything about
the item, and each sits alone in its own small element. Such an element goes when its whole
text is one of these labels in the page's language (:data:`~.rules.PHRASES`: the badges are
the same vocabulary that :func:`~.cards.drop_card_badges` reads); code is never one.

A card's photo caption and credit (classed ``caption``, ``credit``, ``image-credit``...,
or a ``<figure>`` whose only words are a few) describe the picture, not the item, and go
too. This runs on the page extraction only:
there the page is a listing or a set of blocks, and an article's own figures are kept by
the article extraction.

A card's byline is the item's, not chrome (:func:`is_card_byline`): a few words whose links
all lead to author pages, under the card's linked title, in a card repeated beside others
of the same template. Themes put it in a card "footer" or a list of author links, which
the boilerplate and link-list rules would otherwise take for a page footer or a menu.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.etree import XPath
from lxml.html import HtmlElement

from .counts import BlockCounts, tag_name
from .patterns import HEADING_TAGS, NamePattern
from .rules import matches
from .serialize import INLINE_TAGS

__all__ = ["drop_card_labels", "is_card_byline"]


@dataclass(frozen=True)
class CardLabels:
    """A card's counters, badges and photo credits (:func:`drop_card_labels`)."""

    max_label_words: int = 6
    """A label is short: elements with more words are searched, never tested whole."""
    max_credit_words: int = 3
    """A figure holding no more words than this is a picture with its credit."""
    caption_class: NamePattern = NamePattern(
        r"(?:^|\s)(?:[a-z0-9]+[-_]+)*(?:caption|credit)s?(?:$|\s)"
    )
    """A photo's caption or credit on a card ("caption", "image-credit", "credit-caption"):
    in a listing it describes the picture, not the story."""
    skip_tags: frozenset[str] = frozenset(
        (
            *("td", "th", "tr", "table", "tbody", "thead", "tfoot"),
            *HEADING_TAGS,
            *("code", "pre", "kbd", "samp"),
        )
    )
    """Never searched: a data table's cells are data, a heading is a title and code is
    verbatim (a parameter named ``exclusive``), not labels."""


CARD_LABELS = CardLabels()


@dataclass(frozen=True)
class CardBylines:
    """A card's byline, kept with its card (:func:`is_card_byline`)."""

    max_words: int = 15
    """A byline is short: an author or three and a date ("Renato Losio on Mar 08, 2026")."""
    max_title_levels: int = 3
    """The card's linked title sits in an ancestor at most this many levels above it ..."""
    max_card_levels: int = 3
    """... and that ancestor, or one at most this many levels above it, has a sibling of the
    same tag and class: the card is one of a grid built from one template."""
    author_path: re.Pattern[str] = re.compile(
        r"/(?:authors?|profiles?|people|contributors?|writers?)/", re.IGNORECASE
    )
    """Where an author link leads (``/author/connie-loizos/``, ``/profile/Renato-Losio/``);
    a link marked ``rel="author"`` is one too."""


CARD_BYLINES = CardBylines()
_LINKED_HEADING = XPath(
    "boolean(.//*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6]//a)"
)


def _is_author_link(link: HtmlElement) -> bool:
    """True for a link to an author's page (by its path, or marked ``rel="author"``)."""
    if "author" in (link.get("rel") or "").lower().split():
        return True
    return CARD_BYLINES.author_path.search(link.get("href") or "") is not None


def _repeated(el: HtmlElement) -> bool:
    """True when *el* or one of its nearest ancestors has a sibling of its tag and class."""
    node: HtmlElement | None = el
    for _ in range(CARD_BYLINES.max_card_levels + 1):
        if node is None:
            return False
        key = (node.tag, node.get("class"))
        siblings = (*node.itersiblings(), *node.itersiblings(preceding=True))
        if any(tag_name(sib) and (sib.tag, sib.get("class")) == key for sib in siblings):
            return True
        node = node.getparent()
    return False


def is_card_byline(el: HtmlElement, words: int) -> bool:
    """True when *el* (of *words* words) is a card's byline: short, every link of it leads to
    an author's page, an ancestor close above it holds the card's linked title, and the card
    is one of a grid (:class:`CardBylines`)."""
    if words > CARD_BYLINES.max_words:
        return False
    links = list(el.iter("a"))
    if not links or not all(_is_author_link(link) for link in links):
        return False
    card = el.getparent()
    for _ in range(CARD_BYLINES.max_title_levels):
        if card is None:
            return False
        if _LINKED_HEADING(card):
            return _repeated(card)
        card = card.getparent()
    return False


def _sole_carrier(el: HtmlElement, words: int, counts: BlockCounts) -> HtmlElement | None:
    """The child holding all of *el*'s words, if one does (then both have the same text)."""
    for child in el:
        if tag_name(child) and counts.words.get(child, 0) == words:
            return child
    return None


def _in_sentence(el: HtmlElement, tag: str) -> bool:
    """True for an inline element with text right before or after it in its line."""
    if tag not in INLINE_TAGS:  # an inline element with text beside it is in a sentence
        return False
    if el.tail and el.tail.strip():
        return True
    before = el.getprevious()
    if before is None:
        parent = el.getparent()
        return parent is not None and bool(parent.text and parent.text.strip())
    return bool(before.tail and before.tail.strip())


def _is_caption(el: HtmlElement, tag: str, words: int) -> bool:
    """A photo's caption or credit: classed so, or a figure of a few words ("Getty Images")."""
    if tag == "figure" and words <= CARD_LABELS.max_credit_words:
        return True
    classes = el.get("class")  # most elements have none, and so name no caption
    return classes is not None and CARD_LABELS.caption_class.search(classes) is not None


def _is_label(text: str, language: str | None) -> bool:
    """True when *text* is a card's counter, badge or script placeholder in *language*."""
    return (
        matches("card_counter", language, text)
        or matches("card_badge", language, text)
        or matches("placeholder", language, text)
    )


def drop_card_labels(region: HtmlElement, counts: BlockCounts, language: str | None = "en") -> None:
    """Drop the elements under *region* whose whole text is a card's counter or badge, and
    the captions and credits of its pictures.

    *language* selects the phrases (``card_counter``, ``card_badge``, ``placeholder``).

    *counts* may predate earlier pruning: a word count can only have shrunk since, so an
    element counted short still is. The walk tests only short elements and skips a wrapper
    whose text one child holds whole, so each element's text is read a bounded number of
    times and deep nesting stays linear.
    """
    doomed: list[HtmlElement] = []
    stack = [region]
    while stack:
        el = stack.pop()
        tag = tag_name(el)
        if not tag or tag in CARD_LABELS.skip_tags:
            continue
        words = counts.words.get(el, 0)
        if not words:
            continue
        if el is not region and _is_caption(el, tag, words):
            doomed.append(el)
            continue
        if words > CARD_LABELS.max_label_words or el is region:
            stack.extend(el)
            continue
        carrier = _sole_carrier(el, words, counts)
        if carrier is not None:
            stack.append(carrier)
            continue
        if not _in_sentence(el, tag) and _is_label(" ".join(el.text_content().split()), language):
            doomed.append(el)
            continue
        stack.extend(el)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()
