"""Collections: shop category pages keep their cards and lose what the shop hides or repeats."""

from __future__ import annotations

from lxml.html import HtmlElement

from insomnia_web.extract.cards import (
    drop_hidden_price_variants,
    drop_listing_status,
    drop_repeated_buttons,
)
from tests.extract.support import body_of, words_of


def _body(html: str) -> HtmlElement:
    return body_of(f"<html><body>{html}</body></html>")


def _price(price_class: str, regular: str, sale: str) -> str:
    return (
        f"<div class='{price_class}'><div class=price__container>"
        f"<div class=price__regular><span class=price-item>{regular}</span></div>"
        f"<div class=price__sale><s>{regular}</s><span class=price-item>{sale}</span></div>"
        "</div></div>"
    )


def test_the_sale_block_of_a_card_not_on_sale_goes() -> None:
    """A card not on sale keeps its regular price once; the hidden sale block goes."""
    body = _body(f"<div class=card><h3>Tea cup</h3>{_price('price', '$12.00', '$12.00')}</div>")
    drop_hidden_price_variants(body)
    assert words_of(body).count("$12.00") == 1


def test_the_regular_block_of_a_card_on_sale_goes() -> None:
    """A card on sale keeps its sale block (the struck price and the new one) only."""
    body = _body(
        f"<div class=card><h3>Tea pot</h3>{_price('price price--on-sale', '$40.00', '$30.00')}"
        "</div>"
    )
    drop_hidden_price_variants(body)
    text = words_of(body)
    assert text.count("$40.00") == 1
    assert "$30.00" in text


def test_price_blocks_outside_a_price_container_stay() -> None:
    """Blocks merely named like price variants, with no price container above, stay."""
    body = _body("<div><p class=price__sale>Sale ends Sunday</p></div>")
    drop_hidden_price_variants(body)
    assert words_of(body) == "Sale ends Sunday"


def test_a_heading_repeated_as_a_button_on_every_card_goes() -> None:
    """A hover label written as a heading ("View Details") on every card goes; names stay."""
    cards = "".join(
        f"<div class=card><div class=overlay><h4>View Details</h4></div><h2>Loafer {i}</h2></div>"
        for i in range(6)
    )
    body = _body(f"<main>{cards}</main>")
    drop_repeated_buttons(body)
    assert "View Details" not in words_of(body)
    assert "Loafer 5" in words_of(body)


def test_a_status_line_in_inline_parts_goes() -> None:
    """A result count split into inline parts ("1-24 <span>items of</span> 33") goes."""
    body = _body(
        "<main><p>1-24 <span class=muted>items of</span> 33</p>"
        "<p>Black <b>oxford</b> shoes</p></main>"
    )
    drop_listing_status(body)
    assert words_of(body) == "Black oxford shoes"
