"""Shop chrome on product pages: what a shop prints beside the product, not about it.

Runs only on pages that declare a product (schema.org ``Product`` or ``og:type`` product),
before readability and the page extraction split the page, so both see the same tree.

Customer reviews are the buyers' words, not the product's: a product page lists them under
the description, often more words than the description itself, so the size limit that
protects a class-named block from being dropped ("reviews" can name a whole page) does not
apply to them. A review list is recognised by its items, not by its wrapper's name: three
or more sibling items marked as one review each (``class="review"``, schema.org
``itemprop="review"``, ``data-hook="review"``). The list goes with the widget around it
(the wrapper named after reviews that holds its heading and "Add a review" form), but never
the product's title with it.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from .counts import class_and_id, tag_name

__all__ = ["drop_review_lists", "drop_shop_chrome"]

# Candidates for review items, found without visiting every element in Python.
_REVIEW_XPATH = ".//*[contains(@class, 'review') or @itemprop = 'review' or @data-hook = 'review']"
# A list holds at least this many reviews: one or two blocks named "review" are often an
# editor's verdict or a rating summary.
MIN_REVIEWS = 3
# The widget around a review list is named after reviews ("woocommerce-Reviews",
# "customer-reviews_feature_div", "reviews-section").
_REVIEWS_NAME_RE = re.compile(r"reviews?(?![a-z])", re.I)
# Never climb into these: a page-level container is not the review widget.
_STOP_TAGS = frozenset(("html", "body", "main", "article"))


def _is_review_item(el: HtmlElement) -> bool:
    """True for an element marked as exactly one review (not "review-summary", "reviews")."""
    if el.get("itemprop") == "review" or el.get("data-hook") == "review":
        return True
    return "review" in (el.get("class") or "").lower().split()


def _review_lists(root: HtmlElement) -> list[HtmlElement]:
    """Parents of at least MIN_REVIEWS review items."""
    items: dict[HtmlElement, int] = {}
    for el in root.xpath(_REVIEW_XPATH):
        parent = el.getparent()
        if parent is not None and _is_review_item(el):
            items[parent] = items.get(parent, 0) + 1
    return [parent for parent, count in items.items() if count >= MIN_REVIEWS]


def _title_holders(root: HtmlElement) -> set[HtmlElement]:
    """The page's first ``<h1>`` and its ancestors: blocks that hold the product's title."""
    title = next(root.iter("h1"), None)
    return set() if title is None else {title, *title.iterancestors()}


def _review_widget(review_list: HtmlElement, title_holders: set[HtmlElement]) -> HtmlElement:
    """The outermost ancestor of *review_list* named after reviews, or the list itself.

    The climb stops below a page container and below a block that holds the page's title
    (a wrapper of the product and its reviews together).
    """
    widget = review_list
    for ancestor in review_list.iterancestors():
        if tag_name(ancestor) in _STOP_TAGS or ancestor in title_holders:
            break
        if _REVIEWS_NAME_RE.search(class_and_id(ancestor)):
            widget = ancestor
    return widget


def drop_review_lists(root: HtmlElement) -> None:
    """Drop lists of customer reviews, with the review widget around each."""
    lists = _review_lists(root)
    if not lists:
        return
    title_holders = _title_holders(root)
    for widget in [_review_widget(found, title_holders) for found in lists]:
        if widget.getparent() is not None:
            widget.drop_tree()


def drop_shop_chrome(root: HtmlElement) -> None:
    """Drop what a product page prints beside the product (customer reviews)."""
    drop_review_lists(root)
