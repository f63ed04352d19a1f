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
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement

from .counts import BlockCounts, tag_name
from .patterns import HEADING_TAGS, NamePattern
from .rules import matches
from .serialize import INLINE_TAGS

__all__ = ["drop_card_labels"]


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
    return CARD_LABELS.caption_class.search(el.get("class", "")) is not None


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
