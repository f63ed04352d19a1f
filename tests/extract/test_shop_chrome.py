"""Shop chrome on product pages: customer review lists go, the product stays."""

from __future__ import annotations

import pytest

from insomnia_web.extract import extract_html
from insomnia_web.extract.shop import drop_language_matrices, drop_review_lists, may_list_reviews
from tests.extract.support import body_of, words_of

PRODUCT_HEAD = "<head><meta property='og:type' content='product'></head>"
DESCRIPTION = (
    "<h1>Trail Sandal</h1>"
    "<p>A minimalist sandal on a five millimetre Vibram sole, with an elastic cord that "
    "holds the foot without a buckle and dries in minutes after a river crossing.</p>"
)


def _reviews(count: int, item: str = "class='review even thread-even'") -> str:
    items = "".join(
        f"<li {item}><p>Reviewer {i} says the sole grips well on wet rock, the cord stays "
        "soft after a summer of walking, and the sandal packs flat in a bag.</p></li>"
        for i in range(count)
    )
    return (
        "<div id='reviews' class='woocommerce-Reviews'>"
        f"<h2>{count} reviews for Trail Sandal</h2><ol class='commentlist'>{items}</ol>"
        "<p>Add a review of your own</p></div>"
    )


def _page(head: str, reviews: str) -> str:
    return f"<html>{head}<body><main>{DESCRIPTION}{reviews}</main></body></html>"


def test_customer_reviews_on_a_product_page_go() -> None:
    """A list of customer reviews, its heading and review form leave a product page."""
    text = extract_html(_page(PRODUCT_HEAD, _reviews(12))).text
    assert "elastic cord that holds the foot" in text
    assert "Reviewer 3" not in text
    assert "reviews for Trail Sandal" not in text
    assert "Add a review" not in text


def test_reviews_stay_on_a_page_that_sells_nothing() -> None:
    """A page that declares no product (a review site) keeps its reviews."""
    for head, kept in ((PRODUCT_HEAD, False), ("", True)):
        reviews = _reviews(12, item="itemprop='review'").replace("woocommerce-Reviews", "")
        text = extract_html(_page(head, reviews)).text
        assert ("Reviewer 3" in text) is kept


def test_two_review_blocks_are_not_a_list() -> None:
    """Fewer than three items marked as reviews (an editor's verdict) stay."""
    body = body_of(_page(PRODUCT_HEAD, _reviews(2)))
    drop_review_lists(body)
    assert "Reviewer 1" in words_of(body)


def test_schema_org_review_items_are_recognised() -> None:
    """Items marked itemprop=review form a list too; the wrapper holding the title stays."""
    items = "".join(
        f"<div itemprop='review'><p>Buyer {i} found the strap soft.</p></div>" for i in range(4)
    )
    body = body_of(
        f"<html><body><div class='product-reviews-wrap'>{DESCRIPTION}"
        f"<div class='list'>{items}</div></div></body></html>"
    )
    drop_review_lists(body)
    text = words_of(body)
    assert "Buyer 2" not in text
    assert "Vibram sole" in text


@pytest.mark.timeout(10)
def test_a_deep_product_page_with_reviews_stays_linear() -> None:
    """A review list under 5k nested review blocks goes, the title stays (one climb)."""
    depth = 5_000
    items = "".join(f"<li class='review'>Buyer {i} liked it</li>" for i in range(3))
    html = (
        f"<html>{PRODUCT_HEAD}<body>{DESCRIPTION}"
        + "<div class='reviews'>" * depth
        + f"<ul>{items}</ul>"
        + "</div>" * depth
        + "</body></html>"
    )
    body = body_of(html)
    drop_review_lists(body)
    text = words_of(body)
    assert "Vibram sole" in text
    assert "Buyer 1" not in text


def _rated(i: int, attribute: str) -> str:
    return (
        f"<li {attribute}><i class='a-icon-star a-star-5'>5.0 out of 5 stars</i>"
        f"<p>Reviewer {i} says the sole grips well on wet rock and the cord stays soft.</p></li>"
    )


def test_rated_marked_reviews_go_from_a_page_that_declares_no_product() -> None:
    """Items marked data-hook=review that carry their own stars go even without a declaration."""
    items = "".join(_rated(i, "data-hook='review'") for i in range(5))
    reviews = f"<div id='cm-reviews'><h3>Top reviews</h3><ul>{items}</ul></div>"
    text = extract_html(_page("", reviews)).text
    assert "elastic cord that holds the foot" in text
    assert "Reviewer 3" not in text


def test_rated_class_named_reviews_stay_without_a_product() -> None:
    """Without a product, a class alone (a review site's listing) does not mark a review."""
    items = "".join(_rated(i, "class='review'") for i in range(5))
    body = body_of(_page("", f"<ul>{items}</ul>"))
    drop_review_lists(body, is_product=False)
    assert "Reviewer 3" in words_of(body)
    drop_review_lists(body)
    assert "Reviewer 3" not in words_of(body)


def test_page_source_markers_gate_the_review_walk() -> None:
    """The source test finds a per-review attribute and skips pages without one."""
    assert may_list_reviews('<li data-hook="review">')
    assert may_list_reviews("<div itemprop='review'>")
    assert not may_list_reviews("<div class='reviews'>Write a review</div>")


def _language_block(names: tuple[str, ...], mark: str = "✔") -> str:
    rows = "".join(
        f"<tr><td>{name}</td><td><span>{mark}</span></td><td></td></tr>" for name in names
    )
    return (
        "<div class='details'><div class='block_title'>Languages:</div><div>"
        f"<table><tr><th></th><th>Interface</th><th>Full Audio</th></tr>{rows}</table>"
        "<a href='#'>See all 29 supported languages</a></div></div>"
    )


def test_language_support_matrix_goes_from_a_product_page() -> None:
    """A table of languages with check marks goes, with its title and "See all" link."""
    languages = _language_block(("English", "French", "Spanish - Latin America", "Czech"))
    body = body_of(_page(PRODUCT_HEAD, languages))
    drop_language_matrices(body)
    text = words_of(body)
    assert "Vibram sole" in text
    for gone in ("Czech", "Interface", "Languages", "supported languages"):
        assert gone not in text


def test_feature_matrix_and_short_language_list_stay() -> None:
    """Check marks against features, or two language rows, are not a language matrix."""
    features = _language_block(("Waterproof", "Vegan", "Resoleable", "Machine washable"))
    short = _language_block(("English", "French"))
    body = body_of(_page(PRODUCT_HEAD, features + short))
    drop_language_matrices(body)
    text = words_of(body)
    assert "Resoleable" in text
    assert "French" in text
