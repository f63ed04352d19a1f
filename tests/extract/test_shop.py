"""Shop pages: product and collection pages keep the product's text and the category guide."""

from __future__ import annotations

from lxml.html import document_fromstring

from insomnia_web.extract.boilerplate import prune_boilerplate
from insomnia_web.extract.clean import strip_invisible

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
