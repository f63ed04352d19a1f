"""Product pages: legal fine print goes, the description stays."""

from __future__ import annotations

import json

import pytest

from insomnia_web.extract import extract_html

DESCRIPTION = (
    "<h1>Trail Runner 3</h1>"
    "<p>A light trail shoe with a grippy outsole, a rock plate under the forefoot and a "
    "breathable mesh upper that drains quickly after a river crossing.</p>"
    "<p>The foam midsole keeps its bounce in the cold, and the lacing wraps the midfoot so "
    "the heel stays put on steep descents and loose gravel.</p>"
    "<ul><li>Weight: 280 g</li><li>Drop: 6 mm</li><li>Lugs: 5 mm</li></ul>"
)


def _page(extra: str) -> str:
    return f"<html><body><main>{DESCRIPTION}{extra}</main></body></html>"


def test_disclaimer_and_footnote_blocks_are_dropped() -> None:
    """Blocks named disclaimer, footnotes or legal hold fine print, not the product."""
    fine_print = (
        "<div class='common-bottom-disclaimer'><p>1. Results may vary by terrain.</p></div>"
        "<ol class='footnotes'><li>2. Weight measured on a size 9.</li></ol>"
        "<div class='legal'><p>Offer valid while stocks last, subject to change.</p></div>"
    )
    text = extract_html(_page(fine_print)).text
    assert "rock plate under the forefoot" in text
    assert "Results may vary" not in text
    assert "measured on a size" not in text
    assert "while stocks last" not in text


def _ld(description: str, kind: str = "Product") -> str:
    data = json.dumps({"@context": "https://schema.org", "@type": kind, "description": description})
    return f"<script type='application/ld+json'>{data}</script>"


DECLARED = (
    "<p>A breathable merino tee for long days on the trail &amp; in town.</p>"
    "<p>Knitted from fine wool that wicks sweat, resists odour and dries fast after a wash "
    "in cold water.</p>"
)


def _shop(head: str, main: str) -> str:
    return f"<html><head>{head}</head><body><main>{main}</main></body></html>"


def test_declared_description_missing_from_page_is_added_after_title() -> None:
    """A JSON-LD product description the visible page lacks is added below the title."""
    main = "<h1>Merino Tee</h1><p>$45</p><p>Select a size</p>"
    text = extract_html(_shop(_ld(DECLARED), main)).text
    lines = text.split("\n\n")
    assert lines[0] == "# Merino Tee"
    assert lines[1] == "A breathable merino tee for long days on the trail & in town."
    assert "dries fast after a wash in cold water." in text


def test_declared_description_already_on_page_is_not_repeated() -> None:
    """A description the page already shows is not added a second time."""
    main = f"<h1>Merino Tee</h1>{DECLARED}"
    text = extract_html(_shop(_ld(DECLARED), main)).text
    assert text.count("breathable merino tee") == 1


def test_description_of_other_types_and_short_taglines_are_ignored() -> None:
    """Only a product's description of some length is added, not an organization's."""
    main = "<h1>Merino Tee</h1><p>$45</p>"
    assert "breathable" not in extract_html(_shop(_ld(DECLARED, "Organization"), main)).text
    assert "Soft wool" not in extract_html(_shop(_ld("Soft wool tee."), main)).text


def test_broken_json_ld_is_ignored() -> None:
    """A JSON-LD script that does not parse leaves the extraction unchanged."""
    head = '<script type=\'application/ld+json\'>{"@type": "Product", </script>'
    text = extract_html(_shop(head, "<h1>Merino Tee</h1><p>$45</p>")).text
    assert text == "# Merino Tee\n\n$45"


def test_details_in_a_modal_sheet_are_kept() -> None:
    """Measurements a shop renders into a modal sheet are product content."""
    sheet = (
        "<div class='product-measurements-modal'><h2>Measurements</h2>"
        "<ul><li>Width: 30 in</li><li>Depth: 15 in</li><li>Max load per shelf: 29 lb</li></ul>"
        "</div>"
    )
    text = extract_html(_page(sheet)).text
    assert "Max load per shelf: 29 lb" in text


def test_product_page_article_keeps_one_copy_of_a_repeated_description() -> None:
    """On a product page the article's second copy of the description goes."""
    copy = (
        "<p>Join a live meditation class every Monday night, with time for questions after each "
        "session, and a community of fellow meditators, who share their practice.</p>"
    )
    body = f"<h1>Monday Meditation</h1><div class='product'>{copy}{copy}</div>"
    for kind, copies in (("website", 2), ("product", 1)):
        head = f"<meta property='og:type' content='{kind}'>"
        result = extract_html(_shop(head, body))
        assert result.method == "readability"
        assert result.text.count("Join a live meditation class") == copies


def test_product_is_recognised_from_json_ld_microdata_or_open_graph() -> None:
    """A page is a product page by JSON-LD, schema.org microdata or og:type product."""
    from insomnia_web.extract.parse import parse_html
    from insomnia_web.extract.product import read_product

    def product(html: str) -> bool:
        root = parse_html(html)
        assert root is not None
        return read_product(root).is_product

    body = "<p>Cast iron skillet</p>"
    assert product(_shop(_ld("Skillet"), body))
    assert product(_shop("<meta property='og:type' content='product.item'>", body))
    assert product(
        f"<html><body><div itemtype='https://schema.org/Product'>{body}</div></body></html>"
    )
    assert not product(_shop("<meta property='og:type' content='article'>", body))


def test_cross_sell_sections_are_dropped() -> None:
    """Sections under "Complete the look" or "Pairs well with" sell other products."""
    for heading in ("Complete the look", "Pairs well with:"):
        cross_sell = (
            f"<section><h2>{heading}</h2><h3>Trail Socks</h3>"
            "<p>Cushioned merino socks that keep feet dry on long runs.</p></section>"
        )
        text = extract_html(_page(cross_sell)).text
        assert "rock plate under the forefoot" in text
        assert "Cushioned merino socks" not in text


def test_customer_review_sections_are_dropped() -> None:
    """Sections under "Top reviews from ..." or "Customers say" are reviews, not the product."""
    for heading in ("Top reviews from the United States", "Customers say", "Reviews"):
        reviews = (
            f"<section><h2>{heading}</h2><h3>Great shoe</h3>"
            "<p>Wore them for a whole season and the soles still grip well.</p></section>"
        )
        text = extract_html(_page(reviews)).text
        assert "rock plate under the forefoot" in text
        assert "soles still grip" not in text


@pytest.mark.parametrize(
    ("widgets", "chrome"),
    [
        pytest.param(
            "<div class='product-usps'><p>Free returns within 30 days</p></div>"
            "<div class='klarna-placement'><p>Pay in 3 interest-free instalments</p></div>"
            "<div class='delivery-info'><p>Express delivery in 3 working days</p></div>"
            "<div class='loyalty-banner'><p>Earn 176 points with this order</p></div>"
            "<div class='size-guide'><p>Find your size in our chart</p></div>",
            ("Free returns", "interest-free", "Express delivery", "176 points", "chart"),
            id="payment-delivery-loyalty-size",
        ),
        pytest.param(
            "<div class='price-alert'><p>Tell me when the price drops</p></div>"
            "<div class='stock-status'><p>Only 3 left in the warehouse</p></div>"
            "<div class='gift-wrap'><p>Add gift wrapping for 2 dollars</p></div>"
            "<div class='ask-a-question'><p>Have a question about this item</p></div>",
            ("price drops", "3 left", "gift wrapping", "question about"),
            id="price-stock-gift-questions",
        ),
        pytest.param(
            "<div class='variant-picker'><p>Choose a colour: forest, slate</p></div>"
            "<div class='swatches'><p>Forest green swatch</p></div>"
            "<div class='quantity'><p>Quantity one</p></div>"
            "<div class='add-to-cart'><p>Add to bag and check out</p></div>",
            ("Choose a colour", "swatch", "Quantity one", "Add to bag"),
            id="variant-quantity-cart",
        ),
    ],
)
def test_shop_widgets_are_dropped_by_their_names(widgets: str, chrome: tuple[str, ...]) -> None:
    """Payment, delivery, loyalty, size-guide, price-alert, stock, gift and question widgets,
    variant pickers and cart controls beside the product are shop chrome."""
    text = extract_html(_page(widgets)).text
    assert "rock plate under the forefoot" in text
    for phrase in chrome:
        assert phrase not in text


BLURBS = (
    "A graceful volume about the natural world and the memory of what it once held. "
    "MacKinnon makes a passionate case for rewilding the places we live in today. "
    "Highly recommended. "
)


def test_a_paragraph_repeating_its_sentences_keeps_one_copy_on_a_product_page() -> None:
    """Sentences a product page's paragraph repeats (even with other dashes) go."""
    copy = BLURBS.replace("the memory", "-- the memory")
    body = f"<h1>The Once and Future World</h1><p>{BLURBS}{copy}</p>"
    for kind, copies in (("website", 2), ("product", 1)):
        head = f"<meta property='og:type' content='{kind}'>"
        text = extract_html(_shop(head, body)).text
        assert text.count("passionate case for rewilding") == copies
        assert text.count("Highly recommended.") == 2  # too short to call a copy


def test_script_data_printed_as_a_line_goes_from_a_product_page() -> None:
    """A line that is a JSON object (a widget's settings) goes; JSON-like prose stays."""
    data = json.dumps({"displayPrice": "EUR 15.49", "priceAmount": 15.49, "hideMobile": False})
    body = f'{DESCRIPTION}<div>{data}</div><p>{{"Sizes": 36 to 47</p>'
    for kind, kept in (("website", True), ("product", False)):
        head = f"<meta property='og:type' content='{kind}'>"
        text = extract_html(_shop(head, body)).text
        assert ("priceAmount" in text) is kept
        assert "rock plate" in text
        assert '{"Sizes": 36 to 47' in text
