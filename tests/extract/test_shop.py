"""Shop pages: product and collection pages keep the product's text and the category guide."""

from __future__ import annotations

import pytest
from lxml.html import document_fromstring

from insomnia_web.extract.boilerplate import prune_boilerplate
from insomnia_web.extract.cards import drop_card_field_names
from insomnia_web.extract.clean import strip_invisible
from insomnia_web.extract.prune import drop_boilerplate, drop_titled_sections
from tests.extract.support import body_of

_GUIDE = "".join(
    f"<p>Choosing a tent, part {i}: weigh the poles, the fabric and the floor area against "
    "the trips you plan, the weather you expect and the number of people who sleep in it, "
    "then compare how fast each model pitches in the rain and how small it packs down.</p>"
    for i in range(12)
)


def _grid(cards: int) -> str:
    return (
        "<ul class=grid>"
        + "".join(
            f"<li><a href='/p{i}'><img src='/t{i}.jpg'>Dome tent {i}</a>"
            "<p>Two doors, two vestibules, a full rain fly and aluminium poles.</p>"
            f"<span>${100 + i}.00</span></li>"
            for i in range(cards)
        )
        + "</ul>"
    )


def test_a_guide_below_main_survives_a_card_grid_inside_main() -> None:
    """A category guide placed after <main> is kept, and the priced grid in <main> goes."""
    html = (
        f"<html><body><main><h1>Tents</h1>{_grid(60)}</main>"
        f"<div class=seo>{_GUIDE}</div></body></html>"
    )
    content = prune_boilerplate(document_fromstring(html))
    text = " ".join(content.text_content().split())
    assert "Choosing a tent, part 7" in text
    assert "Dome tent 3" not in text


def test_a_framework_prefixed_hidden_class_hides() -> None:
    """A block hidden by a prefixed utility class ("wt-display-none") goes; "overflow-hidden"
    only clips, and stays."""
    root = document_fromstring(
        "<html><body><div class='wt-display-none'>Make an offer to the seller</div>"
        "<div class='overflow-hidden'>Hand-thrown stoneware vase</div></body></html>"
    )
    strip_invisible(root)
    text = root.text_content()
    assert "Make an offer" not in text
    assert "stoneware vase" in text


def test_a_card_eligible_for_subscription_is_not_a_newsletter_box() -> None:
    """A product card classed "subscription-eligible" stays; a "subscription-form" goes."""
    cards = "".join(
        f"<li><div class='card subscription-eligible'>Dark roast coffee {i} $19.99</div></li>"
        for i in range(8)
    )
    body = document_fromstring(
        f"<html><body><main><ul>{cards}</ul>"
        "<div class='subscription-form'>Join our list for ten percent off</div>"
        "</main></body></html>"
    ).find("body")
    assert body is not None
    drop_boilerplate(body, body, inside_main=False)
    text = body.text_content()
    assert "Dark roast coffee 5" in text
    assert "ten percent off" not in text


@pytest.mark.parametrize(
    ("page", "kept", "gone"),
    [
        pytest.param(
            "<h1>Blender</h1><p>A 72-ounce pitcher crushes ice in seconds.</p>"
            "<h2>How do you want your item?</h2><p>Pickup today at the store near 95829.</p>"
            "<h2>Customers also bought</h2><p>Starting from $178.99 with free delivery.</p>",
            "crushes ice",
            ("Pickup today", "Starting from"),
            id="delivery-cross-sell",
        ),
        pytest.param(
            "<h1>Hiking boots</h1><p>Waterproof leather uppers and a Vibram sole.</p>"
            "<h3>Shipping and Returns</h3><p>Free returns within thirty days of delivery.</p>"
            "<h2>Bundle &amp; save</h2><p>Add socks and laces and save fifteen percent.</p>"
            "<h2>Get $130 in value</h2><p>Members earn a yearly dividend on purchases.</p>",
            "Vibram sole",
            ("Free returns", "socks and laces", "yearly dividend"),
            id="shipping-bundles-value",
        ),
        pytest.param(
            "<h1>Sofas</h1><p>Deep seats, washable covers and solid oak legs.</p>"
            "<h2>Financing options</h2><p>Minimum purchase required.</p>"
            "<h3>Pay over time, interest-free.</h3><p>Monthly installments at checkout.</p>",
            "solid oak legs",
            ("Minimum purchase", "Monthly installments"),
            id="financing",
        ),
        pytest.param(
            "<h1>Smart feeder</h1><p>A solar roof keeps the camera charged.</p>"
            + "<p>The camera records slow motion video and names every bird that visits.</p>" * 3
            + "<section><h2>User testimonials</h2><h5>Such joy!</h5><p>My kids love it.</p>"
            "</section>",
            "solar roof",
            ("kids love it",),
            id="testimonials",
        ),
    ],
)
def test_shop_headings_end_their_sections(page: str, kept: str, gone: tuple[str, ...]) -> None:
    """Sections under shop headings (delivery choice, other sellers, empty reviews, shipping
    and returns, bundles, financing, testimonials) go; the product's text stays."""
    body = body_of(f"<html><body>{page}</body></html>")
    drop_titled_sections(body)
    text = body.text_content()
    assert kept in text
    for phrase in gone:
        assert phrase not in text


def test_field_names_repeated_on_linked_cards_go() -> None:
    """A card's field names (<dt> inside its link, on every card) go; the values stay."""
    cards = "".join(
        f"<li><a href='/p{i}'><dl><dt>Brand Name</dt><dd>Saucony</dd>"
        f"<dt>Product Name</dt><dd>Triumph {i}</dd></dl></a></li>"
        for i in range(6)
    )
    body = document_fromstring(f"<html><body><ul>{cards}</ul></body></html>").find("body")
    assert body is not None
    drop_card_field_names(body)
    text = body.text_content()
    assert "Triumph 4" in text
    assert "Brand Name" not in text


def test_a_glossary_outside_links_keeps_its_terms() -> None:
    """Terms of a definition list that is not inside a card's link stay."""
    terms = "".join(f"<dt>Price</dt><dd>Plan {i} costs ${i}0 a month</dd>" for i in range(6))
    body = document_fromstring(f"<html><body><dl>{terms}</dl></body></html>").find("body")
    assert body is not None
    drop_card_field_names(body)
    assert "Price" in body.text_content()


def test_a_tooltip_goes() -> None:
    """A role=tooltip block (shown on hover) goes; the badge it explains stays."""
    body = document_fromstring(
        "<html><body><main><p>Handmade stoneware mug, wheel thrown and glazed by hand.</p>"
        "<span>Star Seller</span><div role='tooltip'>Star Sellers have an outstanding "
        "track record for a great customer experience.</div></main></body></html>"
    ).find("body")
    assert body is not None
    drop_boilerplate(body, body, inside_main=False)
    text = body.text_content()
    assert "Star Seller" in text
    assert "outstanding track record" not in text


def test_a_cross_sell_heading_ending_in_an_ellipsis_ends_its_section() -> None:
    """ "You may also like…" (a typographic ellipsis, as WooCommerce prints it) is a heading."""
    body = body_of(
        "<html><body><h1>Sandals</h1><p>A five millimetre Vibram sole.</p>"
        "<section><h2>You may also like…</h2><p>Trail socks in merino wool.</p></section>"
        "</body></html>"
    )
    drop_titled_sections(body)
    text = body.text_content()
    assert "Vibram sole" in text
    assert "merino" not in text
