"""Shop pages: product and collection pages keep the product's text and the category guide."""

from __future__ import annotations

from lxml.html import document_fromstring

from insomnia_web.extract.boilerplate import prune_boilerplate
from insomnia_web.extract.clean import strip_invisible
from insomnia_web.extract.prune import drop_boilerplate

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
