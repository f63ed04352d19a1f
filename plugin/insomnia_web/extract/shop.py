"""Shop chrome on product pages: what a shop prints beside the product, not about it.

Runs on pages that declare a product (schema.org ``Product`` or ``og:type`` product),
before readability and the page extraction split the page, so both see the same tree.

Customer reviews are the buyers' words, not the product's: a product page lists them under
the description, often more words than the description itself, so the size limit that
protects a class-named block from being dropped ("reviews" can name a whole page) does not
apply to them. A review list is recognised by its items, not by its wrapper's name: three
or more sibling items marked as one review each (``class="review"``, schema.org
``itemprop="review"``, ``data-hook="review"``). The list goes with the widget around it
(the wrapper named after reviews that holds its heading and "Add a review" form), but never
the product's title with it.

Some shops declare no product at all. There a review list goes only when it is plainly
buyers' reviews: each item carries a per-review attribute (``itemprop="review"``,
``data-hook="review"``; a class alone also names an editor's reviews on a review site) and
its own star rating (an editor's review listing links to articles, without stars). A
substring search of the page source (:func:`may_list_reviews`) spares the tree walk on the
many pages without such an attribute.

A store also prints which languages the product supports as a matrix: a row per language,
a column per kind of support (interface, audio, subtitles), a check mark or nothing in each
cell. It says nothing about the product itself a reader looks for in its text; it goes, with
the small block around it (its "Languages:" title, a "See all" link).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.html import HtmlElement

from .counts import class_and_id, tag_name, word_count
from .patterns import NamePattern
from .rules import matches

__all__ = ["drop_language_matrices", "drop_review_lists", "drop_shop_chrome", "may_list_reviews"]


@dataclass(frozen=True)
class ReviewLists:
    """Lists of customer reviews and the widget around them (:func:`drop_review_lists`)."""

    candidates: str = (
        ".//*[contains(@class, 'review') or @itemprop = 'review' or @data-hook = 'review']"
    )
    """Candidates for review items, found without visiting every element in Python."""
    marked: str = ".//*[@itemprop = 'review' or @data-hook = 'review']"
    """On a page that declares no product, only items with a per-review attribute count ..."""
    rating: str = (
        "boolean(.//*[@itemprop = 'reviewRating' or contains(@class, 'star')"
        " or contains(@class, 'rating') or contains(@data-hook, 'rating')])"
    )
    """... and only when they hold their own rating (stars, schema.org reviewRating)."""
    markers: tuple[str, ...] = ('itemprop="review"', 'data-hook="review"', "itemprop='review'")
    """Those attributes as they appear in the page source (a cheap test before a tree walk)."""
    min_reviews: int = 3
    """A list holds at least this many reviews: one or two blocks named "review" are often an
    editor's verdict or a rating summary."""
    widget_name: NamePattern = NamePattern(r"reviews?(?![a-z])")
    """The widget around a review list is named after reviews ("woocommerce-Reviews",
    "customer-reviews_feature_div", "reviews-section")."""


@dataclass(frozen=True)
class LanguageMatrices:
    """Tables of the languages a product supports (:func:`drop_language_matrices`)."""

    mark_cell: re.Pattern[str] = re.compile(r"[\s✔✓✅✗✘×❌]*")
    """A matrix cell holds a check or cross mark, or nothing."""
    check_marks: frozenset[str] = frozenset("✔✓✅")
    min_rows: int = 3
    """A matrix has at least this many language rows (one or two rows are a sentence's worth
    of information, "English, French")."""
    max_caption_words: int = 8
    """The block around a matrix goes with it while it adds at most this many words (its
    title, a "See all" link) ..."""
    max_climb: int = 3
    """... climbing at most this many levels."""


REVIEW_LISTS = ReviewLists()
LANGUAGE_MATRICES = LanguageMatrices()
# Never climb into these: a page-level container is not a shop widget.
_STOP_TAGS = frozenset(("html", "body", "main", "article"))


def _is_review_item(el: HtmlElement) -> bool:
    """True for an element marked as exactly one review (not "review-summary", "reviews")."""
    if el.get("itemprop") == "review" or el.get("data-hook") == "review":
        return True
    return "review" in (el.get("class") or "").lower().split()


def _is_rated_review(el: HtmlElement) -> bool:
    """True for an item with a per-review attribute that holds its own rating."""
    return bool(el.xpath(REVIEW_LISTS.rating))


def _review_lists(root: HtmlElement, *, is_product: bool = True) -> list[HtmlElement]:
    """Parents of enough review items (rated, marked ones off a product page)."""
    items: dict[HtmlElement, int] = {}
    candidates = root.xpath(REVIEW_LISTS.candidates if is_product else REVIEW_LISTS.marked)
    is_item = _is_review_item if is_product else _is_rated_review
    for el in candidates:
        parent = el.getparent()
        if parent is not None and is_item(el):
            items[parent] = items.get(parent, 0) + 1
    return [parent for parent, count in items.items() if count >= REVIEW_LISTS.min_reviews]


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
        if REVIEW_LISTS.widget_name.search(class_and_id(ancestor)):
            widget = ancestor
    return widget


def may_list_reviews(html: str) -> bool:
    """True when the page source marks an element as one review (worth a tree walk)."""
    return any(marker in html for marker in REVIEW_LISTS.markers)


def drop_review_lists(root: HtmlElement, *, is_product: bool = True) -> None:
    """Drop lists of customer reviews, with the review widget around each."""
    lists = _review_lists(root, is_product=is_product)
    if not lists:
        return
    title_holders = _title_holders(root)
    for widget in [_review_widget(found, title_holders) for found in lists]:
        if widget.getparent() is not None:
            widget.drop_tree()


def _is_language_row(cells: list[str], language: str | None) -> bool:
    """True for a row naming a language, then marks or nothing in every other cell."""
    return (
        len(cells) >= 2
        and matches("language_name", language, " ".join(cells[0].split()))
        and all(LANGUAGE_MATRICES.mark_cell.fullmatch(cell) for cell in cells[1:])
    )


def _is_language_matrix(table: HtmlElement, language: str | None) -> bool:
    """True for a table of language rows with check marks (a header row may lead)."""
    rows = [
        [cell.text_content() for cell in row.iterchildren("td", "th")] for row in table.iter("tr")
    ]
    language_rows = sum(1 for cells in rows if _is_language_row(cells, language))
    if language_rows < LANGUAGE_MATRICES.min_rows or language_rows < len(rows) - 1:
        return False
    marks = LANGUAGE_MATRICES.check_marks
    return any(mark in cell for cells in rows for cell in cells[1:] for mark in marks)


def _matrix_block(table: HtmlElement) -> HtmlElement:
    """*table* with the small block around it: its title and "See all" link, nothing more."""
    block = table
    table_words = word_count(table)
    for level, ancestor in enumerate(table.iterancestors()):
        if level >= LANGUAGE_MATRICES.max_climb or tag_name(ancestor) in _STOP_TAGS:
            break
        if word_count(ancestor) - table_words > LANGUAGE_MATRICES.max_caption_words:
            break
        block = ancestor
    return block


def drop_language_matrices(root: HtmlElement, language: str | None = "en") -> None:
    """Drop tables of supported languages (check marks per language), with their caption.

    *language* selects the names of languages (``language_name``).
    """
    for table in [t for t in root.iter("table") if _is_language_matrix(t, language)]:
        block = _matrix_block(table)
        if block.getparent() is not None:
            block.drop_tree()


def drop_shop_chrome(
    root: HtmlElement, *, is_product: bool = True, language: str | None = "en"
) -> None:
    """Drop what a shop prints beside the product (customer reviews, language matrices).

    *is_product* says whether the page declares a product; without it, only plainly
    buyers' review lists go.
    """
    drop_review_lists(root, is_product=is_product)
    if is_product:
        drop_language_matrices(root, language)
