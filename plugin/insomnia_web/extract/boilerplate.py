"""Whole-page extraction with boilerplate removed: for pages that are not one article.

Listings, forum threads, product pages, documentation and collections spread their content
over many similar blocks; an article extractor keeps one of them. Here the page is kept
whole and pruned instead: navigation, headers and footers, sidebars, forms, cookie and
consent banners, share widgets, sections under "Related" headings and link lists go, and so
do figure captions, linked teasers of other stories (:mod:`.teasers`), a grid of priced
product cards beside a long buying guide (anywhere on the page, as shops put the guide
below ``<main>``), a button repeated on every card, the field names
repeated on every card, a card's name printed again within the card, a card's
merchandising badges, the price block a shop theme's stylesheet hides (on pages and
articles alike) and a listing's result count and sort controls. When the page marks its
main region (``<main>``, ``role=main``) and that region holds the content, only it is kept;
so is the region's only ``<article>`` when it holds a fair share of the region (a story beside
its sidebar); the region then narrows to a child that holds nearly all its words.
"""

from __future__ import annotations

import itertools

from lxml.html import HtmlElement

from .captions import drop_picture_captions
from .cards import (
    CardCounts,
    drop_card_badges,
    drop_card_field_names,
    drop_hidden_price_variants,
    drop_listing_status,
    drop_nearby_repeats,
    drop_priced_grids,
    drop_repeated_buttons,
)
from .counts import BlockCounts
from .listing import drop_card_labels
from .patterns import MAIN_REGION
from .prune import (
    drop_article_extras,
    drop_boilerplate,
    drop_link_lines,
    drop_link_lists,
    drop_titled_sections,
)
from .teasers import drop_linked_teasers

__all__ = ["prune_article", "prune_boilerplate"]


def _main_region(root: HtmlElement, words: dict[HtmlElement, int]) -> HtmlElement:
    """The page's main region (``<main>``, ``role=main``) when it holds the content, else
    ``<body>``; narrowed to the region's only ``<article>`` when that holds enough of it."""
    body = root.find("body")
    if body is None:
        body = root
    total = words.get(body, 0)
    best = None
    for el in body.iter("main", "article", "div", "section"):
        is_main = el.tag == "main" or (el.get("role") or "").lower() == "main"
        if is_main and words.get(el, 0) >= MAIN_REGION.min_main_share * total:
            best = el
            break
    region = best if best is not None else body
    article = _single_article(region, words)
    return article if article is not None else region


def _single_article(region: HtmlElement, words: dict[HtmlElement, int]) -> HtmlElement | None:
    """The only ``<article>`` of *region* when it holds enough of its words, else None."""
    articles = itertools.islice(region.iter("article"), 2)
    article = next(articles, None)
    if article is None or next(articles, None) is not None:
        return None
    enough = words.get(article, 0) >= MAIN_REGION.single_article_share * words.get(region, 0)
    return article if enough else None


def _drop_captions(root: HtmlElement) -> None:
    """Drop figure captions: a photo's caption and credit go as they do from an article."""
    for caption in list(root.iter("figcaption")):
        caption.drop_tree()


def prune_boilerplate(
    root: HtmlElement, language: str | None = None, counts: BlockCounts | None = None
) -> HtmlElement:
    """Remove boilerplate from *root* in place and return the element holding the content.

    *language* (a primary subtag) selects the visible-text rules; ``None`` applies none.
    *counts* are *root*'s counts when the caller has them (for the tree as it is).
    """
    body = root.find("body")
    drop_boilerplate(root, body if body is not None else root, inside_main=False, counts=counts)
    drop_titled_sections(body if body is not None else root, language)
    drop_linked_teasers(body if body is not None else root)
    _drop_captions(body if body is not None else root)
    # Shops often put the card grid in <main> and the category guide below it, outside
    # <main>: the grid must go before <main> is picked as the region, or the guide is lost.
    top = body if body is not None else root
    cards = CardCounts(top)  # counted once: the cards that later steps leave whole stay right
    drop_hidden_price_variants(top, cards)
    drop_priced_grids(top, cards)
    if counts is None or not counts.still_hold():
        counts = BlockCounts(root)
    region = _main_region(root, counts.words)
    drop_link_lists(region, counts)
    drop_card_labels(region, counts, language)
    drop_repeated_buttons(region, language)
    drop_card_field_names(region)
    drop_listing_status(region, language)
    drop_nearby_repeats(region, cards)
    drop_card_badges(region, cards, language)
    return _narrow(region, counts if counts.still_hold() else BlockCounts(region))


def _own_words(el: HtmlElement, counts: BlockCounts) -> float:
    """Words of *el*, its linked words weighted down (:attr:`MainRegion.linked_weight`)."""
    return counts.words.get(el, 0) - MAIN_REGION.linked_weight * counts.link_words.get(el, 0)


def _narrow(region: HtmlElement, counts: BlockCounts) -> HtmlElement:
    """Descend into the one child that holds nearly all of the region's (weighted) words."""
    while True:
        own = _own_words(region, counts)
        if own <= 0:
            return region
        best = _main_child(region, counts, MAIN_REGION.narrow_share * own)
        if best is None:
            return region
        region = best


def _main_child(region: HtmlElement, counts: BlockCounts, needed: float) -> HtmlElement | None:
    """The first child of *region* with at least *needed* (weighted) words, or None. A child
    holds no more than the words its earlier siblings leave of the region's: the children
    are read only while those suffice."""
    left = counts.words.get(region, 0)
    for child in region:
        if left < needed:
            return None
        if _own_words(child, counts) >= needed:
            return child
        left -= counts.words.get(child, 0)
    return None


def prune_article(article: HtmlElement, language: str | None = None) -> None:
    """Remove leftover chrome (share bars, related links, link lines, menus, captions) from an
    article in place."""
    drop_boilerplate(article, article, inside_main=True)
    drop_hidden_price_variants(article)
    drop_article_extras(article)
    drop_picture_captions(article)
    drop_titled_sections(article, language)
    drop_link_lists(article, BlockCounts(article))
    drop_link_lines(article)
