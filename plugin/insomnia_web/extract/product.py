"""Product pages: what a page declares about the product it sells.

A page is a product page when its schema.org data (JSON-LD or microdata) describes a
``Product`` or its ``og:type`` is a product. Shops also describe each product in JSON-LD
(``Product.description``) for search engines, and many render that same description only
inside a drawer, a dialog or a widget that a script fills in, which the extraction cannot see.
When the extracted text holds little of the declared description, the description is put back
after the page's title.

Shops also fill one field with the same text several times over (a marketplace listing whose
"Reviews" field holds the publisher's blurbs three times, joined by commas): a sentence that
repeats, nearly word for word, an earlier sentence of the same paragraph is a copy and goes
(:func:`~.dedup.drop_repeated_sentences`).

Shop widgets keep their settings in an element's text (a buy box's prices, a consent
banner's options) and some of it reaches the text: a line that is a JSON object is data for
a script, never words about the product, and goes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lxml.html import HtmlElement

from .declared import ld_objects, ld_types, parse_ld, plain_text
from .dedup import drop_repeated_sentences
from .signals import ld_json_texts, og_type, typed_items
from .words import count_words, word_list

__all__ = [
    "ProductInfo",
    "add_missing_description",
    "drop_json_lines",
    "finish_product_text",
    "read_product",
]

_PRODUCT_TYPES = frozenset(("Product", "ProductGroup", "IndividualProduct", "ProductModel"))


@dataclass(frozen=True)
class MissingDescription:
    """A declared description put back in the text (:func:`add_missing_description`)."""

    min_words: int = 15
    """A declared description shorter than this is a tagline ("Classic fit, organic cotton"),
    not a description worth adding."""
    max_covered_share: float = 0.5
    """It is added when the extracted text holds less than this share of its words."""


MISSING_DESCRIPTION = MissingDescription()


def _is_product(obj: dict[str, Any]) -> bool:
    return bool(ld_types(obj) & _PRODUCT_TYPES)


@dataclass(frozen=True)
class ProductInfo:
    """Whether the page sells a product, and the description it declares for it."""

    is_product: bool
    description: str | None


def _declares_product_in_markup(root: HtmlElement, typed: Iterable[HtmlElement]) -> bool:
    if og_type(root).startswith("product"):
        return True  # "product", "product.item", "product.group"
    return any("schema.org/Product" in el.get("itemtype", "") for el in typed)


def read_product(
    root: HtmlElement,
    ld_data: Sequence[Any] | None = None,
    typed: Sequence[HtmlElement] | None = None,
) -> ProductInfo:
    """Read the page's product declarations (before scripts are removed).

    The description is the longest one a product declares in JSON-LD, as plain text, or
    ``None`` when there is none worth adding. *ld_data* is the page's JSON-LD parsed
    (:func:`~.declared.parse_ld`) and *typed* its :func:`~.signals.typed_items` when the
    caller has read them.
    """
    found = False
    best = ""
    for obj in ld_objects(parse_ld(ld_json_texts(root)) if ld_data is None else ld_data):
        if not _is_product(obj):
            continue
        found = True
        description = obj.get("description")
        if isinstance(description, str) and len(description) > len(best):
            best = description
    text = plain_text(best)
    description = text if count_words(text) >= MISSING_DESCRIPTION.min_words else None
    if found:
        return ProductInfo(True, description)
    items = typed_items(root) if typed is None else typed
    return ProductInfo(_declares_product_in_markup(root, items), description)


def _covered_share(description: str, text: str) -> float:
    wanted = Counter(word_list(description))
    found = Counter(word_list(text))
    return sum((wanted & found).values()) / max(sum(wanted.values()), 1)


def add_missing_description(text: str, description: str | None) -> str:
    """Add *description* to the extracted *text* (after its title) unless *text* holds it."""
    if not description:
        return text
    if _covered_share(description, text) >= MISSING_DESCRIPTION.max_covered_share:
        return text
    title, rest = "", text
    if text.startswith("# "):
        title, _, rest = text.partition("\n")
    return "\n\n".join(part for part in (title, description, rest.strip()) if part)


def _is_json_object(line: str) -> bool:
    """True for a line that parses as a JSON object with keys (``{"price": 15.49}``)."""
    if not line.startswith('{"'):
        return False
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def drop_json_lines(text: str) -> str:
    """*text* without lines that are JSON objects (a script's data printed as text)."""
    lines = text.split("\n")
    kept = [line for line in lines if not _is_json_object(line)]
    return text if len(kept) == len(lines) else "\n".join(kept)


def finish_product_text(text: str, product: ProductInfo) -> str:
    """The extracted *text* of a page, finished for the product it declares (if any).

    Repeated sentences and script data go from a product page; a declared description the
    text lacks is added.
    """
    if product.is_product:
        text = drop_json_lines(drop_repeated_sentences(text))
    return add_missing_description(text, product.description)
