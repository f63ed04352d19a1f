"""Card chrome: grids of priced product cards beside a guide, buttons repeated on each card.

Shop category pages (collections) often hold two things: a grid of product cards (name,
price, "Add to cart") and a long written guide to the category. The grid is a snapshot of
stock that changes daily; the guide is the text a reader came for. When a region holds both,
the grid goes and the guide stays.

A card's field names ("Brand Name", "Price") written as a definition list inside the card's
link and repeated on every card label the values for screen readers and go too.

A listing's status line ("Showing 1-24 of 193 results"), its sort and filter controls, the
links that let a keyboard user skip it ("Skip to product list") and each card's relative
age or reading time ("2 days ago", "5 min read") are chrome as well.

Shopify's default theme family (Dawn and the many themes built on it) prints every card's
price twice, as a regular price and as a sale price, and lets its stylesheet show one: the
sale block only when the price is marked on sale, the regular block otherwise. The hidden
one goes.

A product card often prints its name or its labels twice or three times (on the picture's
link, as a heading shown on hover, as the title; once per screen size): a short text
repeating one of the few just before it in the same card is read once.

A card's merchandising badge ("Top Rated", "New arrival", "Best Seller", "In Stock", "Free
delivery") or ad label ("Sponsored") is a sticker on the picture, not part of what the card
says, and goes; "Sold out" stays: it tells the reader the product cannot be had. The badges
are one vocabulary (:data:`~.rules.PHRASES` ``card_badge``, in the page's language), the
same that :mod:`.listing` reads.

Listings repeat the same call to action on every card ("View company profile", "Listen to
this podcast", "Quick view", "Compare"), as a link, a plain label or a heading shown on
hover; it says nothing about the card and goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.etree import Element
from lxml.html import HtmlElement

from .counts import BlockCounts, tag_name
from .dedup import repeat_key
from .patterns import HEADING_TAGS
from .rules import any_pattern, matches
from .serialize import INLINE_TAGS
from .words import collapsed_at_most

__all__ = [
    "CardCounts",
    "drop_card_badges",
    "drop_card_field_names",
    "drop_hidden_price_variants",
    "drop_listing_status",
    "drop_nearby_repeats",
    "drop_priced_grids",
    "drop_repeated_buttons",
]

# A price: a currency sign before the amount, or a currency after it.
_SIGNS_BEFORE = "$€£¥₹"
_CURRENCIES_AFTER = ("€", "£", "zł", "kr", "Kč", "USD", "EUR", "GBP")
_PRICE_RE = re.compile(rf"[{_SIGNS_BEFORE}]\s?\d|\d\s?(?:{'|'.join(_CURRENCIES_AFTER)})(?!\w)")
_LETTER_RE = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Card:
    """What a product card is (:meth:`CardCounts.is_card`)."""

    max_prices: int = 6
    """A card carries at most this many prices (a price, a struck-out one, a range, a saving)."""
    max_images: int = 12
    """One card shows at most this many pictures (a photo, one shown on hover, swatches)."""


@dataclass(frozen=True)
class PricedGrid:
    """A grid of priced product cards beside a guide (:func:`drop_priced_grids`)."""

    min_cards: int = 4
    """A grid holds at least this many cards ..."""
    min_priced_share: float = 0.6
    """... and this share of its children carry a price."""
    max_card_words: int = 60
    """A card holds this many words on average at most (a name, a price, a line of features)."""
    min_guide_words: int = 400
    """The guide: at least this many words of paragraphs outside the grids and outside links."""
    not_grids: frozenset[str] = frozenset(("table", "thead", "tbody", "tfoot", "tr"))
    """Table rows are data (a price list), never a grid of cards."""


@dataclass(frozen=True)
class RepeatedButtons:
    """A call to action repeated on many cards (:func:`drop_repeated_buttons`), and the field
    names repeated on every card (:func:`drop_card_field_names`)."""

    max_words: int = 4
    """A button's label (a link, or a leaf block) has at most this many words ..."""
    min_repeats: int = 5
    """... and is repeated at least this often (so is a field name)."""
    max_link_levels: int = 3
    """A card's field names sit at most this many levels below the link that is the card."""
    tags: tuple[str, ...] = ("a", "span", "div", "p", "li", *sorted(HEADING_TAGS - {"h1"}))
    """Elements that may be a button."""


@dataclass(frozen=True)
class ListingStatus:
    """A listing's status line, its controls and its skip links (:func:`drop_listing_status`)."""

    max_parts: int = 4
    """A status line is one line of text, or a few inline parts of one ("1-24 <span>items
    of</span> 33")."""
    max_skip_words: int = 6
    """A link to a place on the same page saying "Skip ..." has at most this many words."""
    tags: tuple[str, ...] = (*sorted(INLINE_TAGS), *sorted(HEADING_TAGS), "div", "p", "li")
    """A status line stands alone in a block, a heading or an inline element."""


@dataclass(frozen=True)
class PriceVariants:
    """The price block a shop theme's stylesheet hides (:func:`drop_hidden_price_variants`).

    Shopify's default themes mark the container ``price--on-sale`` when the sale block shows;
    the regular block shows otherwise. The markup names the theme's blocks.
    """

    prefix: str = "price__"
    container: str = "price"
    on_sale: str = "price--on-sale"
    regular: str = "price__regular"
    sale: str = "price__sale"
    max_levels: int = 3
    """The container sits at most this many levels above the blocks."""


@dataclass(frozen=True)
class NearbyRepeats:
    """A card's name printed again within the card (:func:`drop_nearby_repeats`)."""

    max_words: int = 12
    """A short text (with a letter: "7.9" is a rating repeated on purpose) ..."""
    window: int = 3
    """... repeating one of this many texts before it in the same card is a copy."""
    verbatim: frozenset[str] = frozenset(("table", "pre", "code", "textarea"))
    """Data tables and code repeat values on purpose."""


CARD = Card()
PRICED_GRID = PricedGrid()
REPEATED_BUTTONS = RepeatedButtons()
LISTING_STATUS = ListingStatus()
PRICE_VARIANTS = PriceVariants()
NEARBY_REPEATS = NearbyRepeats()


def _may_hold_price(text: str) -> bool:
    """False when *text* names no currency, so holds no price: a page's whole text is read
    for its currencies many times faster than :data:`_PRICE_RE` reads it for prices."""
    return any(currency in text for currency in (*_SIGNS_BEFORE, *_CURRENCIES_AFTER))


def _own_prices(el: HtmlElement) -> int:
    """Prices in the text that *el* holds directly (its text and its children's tails)."""
    found = len(_PRICE_RE.findall(el.text)) if el.text else 0
    for child in el:
        if child.tail:
            found += len(_PRICE_RE.findall(child.tail))
    return found


class CardCounts:
    """Prices and images under each element of a region (one bottom-up pass), and the price
    blocks of shop themes (classed ``price__...``) met on the way.

    Only elements holding a price or a picture are listed; a region without any price text
    (most articles, threads and manuals) is not walked at all.
    """

    def __init__(self, region: HtmlElement) -> None:
        self.prices: dict[HtmlElement, int] = {}
        self.images: dict[HtmlElement, int] = {}
        self.price_variants: list[HtmlElement] = []
        text = region.text_content()
        if not (_may_hold_price(text) and _PRICE_RE.search(text)):
            return
        prices = self.prices
        images = self.images
        for el in reversed(list(region.iter())):
            tag = tag_name(el)
            if not tag:
                continue
            parent = el.getparent()
            price = prices.get(el, 0) + _own_prices(el)
            if price:
                prices[el] = price
                if parent is not None:
                    prices[parent] = prices.get(parent, 0) + price
            image = images.get(el, 0) + (1 if tag in ("img", "picture") else 0)
            if image:
                images[el] = image
                if parent is not None:
                    images[parent] = images.get(parent, 0) + image
            classes = el.get("class")
            if classes and PRICE_VARIANTS.prefix in classes:
                self.price_variants.append(el)

    def is_card(self, el: HtmlElement) -> bool:
        """True when *el* shows a price or two and a picture: a product card."""
        return 0 < self.prices.get(el, 0) <= CARD.max_prices and self.images.get(el, 0) > 0


def _is_grid(el: HtmlElement, cards: CardCounts, counts: BlockCounts) -> bool:
    """True when most of *el*'s children are short product cards.

    A bulleted list of prices or a price filter has no pictures; table rows are data (a
    price list); long entries are reviews in a ranking: none of them is a grid of cards.
    """
    children = [child for child in el if tag_name(child)]
    if len(children) < PRICED_GRID.min_cards or tag_name(el) in PRICED_GRID.not_grids:
        return False
    found = [child for child in children if cards.is_card(child)]
    if len(found) < PRICED_GRID.min_cards or len(found) < PRICED_GRID.min_priced_share * len(
        children
    ):
        return False
    words = sum(counts.words.get(card, 0) for card in found)
    return words <= PRICED_GRID.max_card_words * len(found)


def _find_grids(region: HtmlElement, cards: CardCounts) -> tuple[list[HtmlElement], int]:
    """The outermost card grids under *region*, and the paragraph words outside them."""
    grids: list[HtmlElement] = []
    guide_words = 0
    counts = BlockCounts(region)
    stack = [region]
    while stack:
        el = stack.pop()
        tag = tag_name(el)
        if not tag:
            continue
        if cards.prices.get(el, 0) and _is_grid(el, cards, counts):
            grids.append(el)
            continue
        if tag == "p":
            guide_words += counts.words.get(el, 0) - counts.link_words.get(el, 0)
            continue
        stack.extend(el)
    return grids, guide_words


def drop_priced_grids(region: HtmlElement, cards: CardCounts | None = None) -> None:
    """Drop the grids of priced product cards from *region* when it also holds a guide.

    *cards* are *region*'s counts when the caller has them already.
    """
    if cards is None:
        cards = CardCounts(region)
    if cards.prices.get(region, 0) < PRICED_GRID.min_cards:
        return
    grids, guide_words = _find_grids(region, cards)
    if not grids or guide_words < PRICED_GRID.min_guide_words:
        return
    for grid in grids:
        grid.drop_tree()


def _price_variant_blocks(region: HtmlElement) -> list[HtmlElement]:
    """The elements under *region* whose class holds a sale or a regular price block's name
    (a loop over class values: libxml2's XPath tests them more slowly)."""
    names = (PRICE_VARIANTS.sale, PRICE_VARIANTS.regular)
    return [
        el
        for el in region.iterdescendants(Element)
        if (classes := el.get("class")) and any(name in classes for name in names)
    ]


def _price_container(el: HtmlElement) -> HtmlElement | None:
    """The block classed ``price`` that holds the price variant *el*, a few levels up."""
    parent = el.getparent()
    for _ in range(PRICE_VARIANTS.max_levels):
        if parent is None:
            return None
        if PRICE_VARIANTS.container in (parent.get("class") or "").split():
            return parent
        parent = parent.getparent()
    return None


def drop_hidden_price_variants(region: HtmlElement, cards: CardCounts | None = None) -> None:
    """Drop the price block that the theme's stylesheet hides: the sale price of a card that
    is not on sale, the regular price of one that is.

    *cards* are *region*'s counts when the caller has them already (they list the blocks).
    """
    doomed = []
    found = _price_variant_blocks(region) if cards is None else cards.price_variants
    for el in found:
        classes = (el.get("class") or "").split()
        container = _price_container(el)
        if container is None:
            continue
        on_sale = PRICE_VARIANTS.on_sale in (container.get("class") or "").split()
        hidden = PRICE_VARIANTS.regular if on_sale else PRICE_VARIANTS.sale
        if hidden in classes:
            doomed.append(el)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()


def _is_small_card(el: HtmlElement, cards: CardCounts) -> bool:
    """True when *el* is one product card: a price or two and a few pictures, not a page
    section that happens to show one price among its many pictures."""
    return cards.is_card(el) and cards.images.get(el, 0) <= CARD.max_images


def _innermost_cards(region: HtmlElement, cards: CardCounts) -> list[HtmlElement]:
    """The product cards under *region* that hold no smaller card, in document order.

    Only blocks holding a price and a picture are searched: no card hides anywhere else.
    """
    found: list[HtmlElement] = []
    stack = [region]
    while stack:
        el = stack.pop()
        inner = [child for child in el if cards.prices.get(child, 0) and cards.images.get(child, 0)]
        if _is_small_card(el, cards) and not any(cards.is_card(child) for child in inner):
            found.append(el)
            continue
        stack.extend(reversed(inner))
    return found


def _repeats_in(card: HtmlElement) -> list[HtmlElement]:
    """Short texts of *card* that repeat one of the last few texts before them."""
    recent: list[str] = []
    found: list[HtmlElement] = []
    stack = [card]
    while stack:
        el = stack.pop()
        tag = tag_name(el)
        if not tag or tag in NEARBY_REPEATS.verbatim:
            continue
        if len(el):
            stack.extend(reversed(el))
            continue
        words = repeat_key(el.text) if el.text else ""
        if not words:
            continue
        short = words.count(" ") < NEARBY_REPEATS.max_words and _LETTER_RE.search(words)
        if short and words in recent:
            found.append(el)
            continue
        recent = [*recent[1 - NEARBY_REPEATS.window :], words]
    return found


def drop_nearby_repeats(region: HtmlElement, cards: CardCounts | None = None) -> None:
    """Drop a short text that a product card prints again a moment later (its name on its
    picture link, its hover heading and its title; a label once per screen size).

    *cards* are the counts of *region* or of an element holding it, when the caller has them.
    """
    if cards is None:
        cards = CardCounts(region)
    doomed = [el for card in _innermost_cards(region, cards) for el in _repeats_in(card)]
    for el in doomed:
        el.drop_tree()


def drop_card_badges(
    region: HtmlElement, cards: CardCounts | None = None, language: str | None = "en"
) -> None:
    """Drop the merchandising badges of product cards ("Top Rated", "New arrival").

    *language* selects the badge phrases (:data:`~.rules.PHRASES` ``card_badge``).
    """
    if cards is None:
        cards = CardCounts(region)
    doomed = [
        el
        for card in _innermost_cards(region, cards)
        for el in card.iter()
        if tag_name(el)
        and not len(el)
        and el.text
        and matches("card_badge", language, " ".join(el.text.split()))
    ]
    for el in doomed:
        el.drop_tree()


def _button_label(el: HtmlElement, actions: re.Pattern[str]) -> str:
    """The words of *el* when it looks like a button (a link, or a leaf block or span) and
    they are a call to action (a ``card_action`` phrase, *actions*)."""
    if el.tag != "a" and (len(el) or not el.text):
        return ""
    text = el.text_content() if len(el) else el.text or ""  # a leaf's text is its own
    words = collapsed_at_most(text, REPEATED_BUTTONS.max_words)
    if words is not None and actions.fullmatch(words):
        return repeat_key(words)
    return ""


def drop_listing_status(region: HtmlElement, language: str | None = "en") -> None:
    """Drop the listing's result count, its sort, filter and "Load more" controls, its
    "Skip listing" links, and the cards' "2 days ago" and "5 min read" lines.

    *language* selects the phrases (``listing_status`` and ``skip_link``).
    """
    status = any_pattern(("listing_status",), language)  # looked up once for every element
    doomed = (
        [el for el in region.iter(*LISTING_STATUS.tags) if status.fullmatch(_status_text(el))]
        if status is not None
        else []
    )
    doomed.extend(el for el in region.iter("a") if _is_skip_link(el, language))
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()


def _is_skip_link(el: HtmlElement, language: str | None) -> bool:
    """True for a link to a place on the same page that skips a part ("Skip listing")."""
    href = el.get("href") or ""
    text = " ".join(el.text_content().split()) if href.startswith("#") else ""
    return text.count(" ") < LISTING_STATUS.max_skip_words and matches("skip_link", language, text)


def _status_text(el: HtmlElement) -> str:
    """The text of *el* when it is one line: no children, or a few inline ones without
    children of their own ("1-24 <span>items of</span> 33"); otherwise ``""``."""
    if not len(el):
        return " ".join(el.text.split()) if el.text else ""
    if len(el) > LISTING_STATUS.max_parts:
        return ""
    for child in el:
        if len(child) or (tag_name(child) and tag_name(child) not in INLINE_TAGS):
            return ""
    return " ".join(el.text_content().split())


def _near_link(el: HtmlElement) -> bool:
    """True when a link holds *el* within a few levels (a card that is one link)."""
    parent = el.getparent()
    for _ in range(REPEATED_BUTTONS.max_link_levels):
        if parent is None:
            return False
        if parent.tag == "a":
            return True
        parent = parent.getparent()
    return False


def drop_card_field_names(region: HtmlElement) -> None:
    """Drop the field names of cards that are one link around a definition list ("Brand
    Name", "Price"): repeated on every card, they label the values for screen readers."""
    by_name: dict[str, list[HtmlElement]] = {}
    for term in region.iter("dt"):
        if not len(term) and term.text and _near_link(term):
            by_name.setdefault(repeat_key(term.text), []).append(term)
    for terms in by_name.values():
        if len(terms) >= REPEATED_BUTTONS.min_repeats:
            for term in terms:
                term.drop_tree()


def drop_repeated_buttons(region: HtmlElement, language: str | None = "en") -> None:
    """Drop short calls to action repeated on many cards ("View profile", "Quick view").

    *language* selects the phrases (``card_action``).
    """
    actions = any_pattern(("card_action",), language)  # looked up once for every element
    if actions is None:
        return
    by_label: dict[str, list[HtmlElement]] = {}
    for el in region.iter(*REPEATED_BUTTONS.tags):
        label = _button_label(el, actions)
        if label:
            by_label.setdefault(label, []).append(el)
    for buttons in by_label.values():
        if len(buttons) >= REPEATED_BUTTONS.min_repeats:
            for button in buttons:
                if button.getparent() is not None:
                    button.drop_tree()
