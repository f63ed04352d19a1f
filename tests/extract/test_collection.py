"""Collections: shop category pages keep their cards and lose what the shop hides or repeats."""

from __future__ import annotations

from lxml.html import HtmlElement

from insomnia_web.extract.cards import (
    drop_card_badges,
    drop_hidden_price_variants,
    drop_listing_status,
    drop_nearby_repeats,
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


def _card(name: str, price: str) -> str:
    return (
        f"<li class=card><img src='/{name}.jpg'><a href='/p/{name}' class=media>{name}</a>"
        f"<h3><a href='/p/{name}'>{name}</a></h3><h3><a href='/p/{name}'>{name}</a></h3>"
        f"<span class=price>{price}</span></li>"
    )


def test_a_card_name_printed_again_in_the_card_is_read_once() -> None:
    """A product card's name printed on its picture link and twice as its title is kept once."""
    body = _body(f"<main><ul>{_card('Dark Roast', '$19.99')}{_card('Light Roast', '$14.99')}</ul>")
    drop_nearby_repeats(body)
    assert words_of(body).count("Dark Roast") == 1
    assert words_of(body).count("Light Roast") == 1


def test_a_repeat_outside_a_product_card_stays() -> None:
    """A name repeated in a post header (no price, no picture) stays: only cards repeat."""
    body = _body(
        "<main><div class=post><a href='/u/jon'>JonB</a><a href='/u/jon'>JonB</a>"
        "<p>Qt 6.4 works for me on Ubuntu 24.04.</p></div></main>"
    )
    drop_nearby_repeats(body)
    assert words_of(body).count("JonB") == 2


def test_a_section_with_one_price_among_many_pictures_is_not_a_card() -> None:
    """Repeated job titles in a gallery of profiles with one price on the page stay."""
    profiles = "".join(
        f"<div><img src='/p{i}.jpg'><h4>Person {i}</h4><p>Designer</p><p>Designer</p></div>"
        for i in range(14)
    )
    body = _body(f"<main><p>Plans from $60 an hour</p>{profiles}</main>")
    drop_nearby_repeats(body)
    assert words_of(body).count("Designer") == 28


def test_a_card_badge_goes_and_sold_out_stays() -> None:
    """A card's "Top Rated", "Brand new" and "Sponsored" stickers go; "Sold out" stays."""
    cards = "".join(
        f"<li><img src='/b{i}.jpg'><span>Top Rated</span><span>New arrival</span>"
        "<b>Brand new</b><i>Sponsored</i><p>FREE 2-Day Delivery</p>"
        f"<a href='/p/{i}'>Trail boot {i}</a><span>$9{i}.00</span><span>Sold out</span></li>"
        for i in range(4)
    )
    body = _body(f"<main><ul>{cards}</ul><p>New</p></main>")
    drop_card_badges(body)
    text = words_of(body)
    assert "Top Rated" not in text
    assert "New arrival" not in text
    assert "Sponsored" not in text
    assert "Brand new" not in text
    assert "Delivery" not in text
    assert text.count("Sold out") == 4
    assert "Trail boot 3" in text
    assert text.endswith("New")


def test_a_skip_link_goes() -> None:
    """A same-page link "Skip to product list" goes; a link to another page saying "Skip" stays."""
    body = _body(
        "<main><a href='#list'>Skip to product list</a><a href='/skip-hire'>Skip hire prices</a>"
        "<ul id=list><li>Sofa</li></ul></main>"
    )
    drop_listing_status(body)
    assert words_of(body) == "Skip hire pricesSofa"


def test_a_reading_time_in_emphasis_goes() -> None:
    """A story card's "2 min read" set in <em> goes like one in a <span>; the title stays."""
    body = _body("<main><h3>Mountain biking far away</h3><em>2 min read</em></main>")
    drop_listing_status(body)
    assert words_of(body) == "Mountain biking far away"
