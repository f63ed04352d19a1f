"""Listings and collections: the page extraction keeps the cards and drops their chrome."""

from __future__ import annotations

import pytest
from lxml.html import HtmlElement

from insomnia_web.extract.cards import (
    drop_listing_status,
    drop_priced_grids,
    drop_repeated_buttons,
)
from insomnia_web.extract.counts import BlockCounts
from insomnia_web.extract.prune import (
    drop_boilerplate,
    drop_language_switchers,
    drop_link_lists,
    drop_titled_sections,
)
from tests.extract.support import body_of
from tests.extract.support import words_of as _text


def _body(html: str) -> HtmlElement:
    return body_of(f"<html><body>{html}</body></html>")


def test_a_rating_block_is_content() -> None:
    """A block classed "rating" stays: product and listing cards show their rating as text."""
    cards = "".join(
        f"<div class=card><h3>Trail boot {i}</h3><p>Light leather boot for long hikes.</p>"
        f"<div class='product-rating'>4.{i} out of 5 stars</div></div>"
        for i in range(6)
    )
    body = _body(f"<main>{cards}</main>")
    drop_boilerplate(body, body, inside_main=False)
    assert "4.3 out of 5 stars" in _text(body)


def test_a_span_around_one_link_is_not_a_link_list() -> None:
    """A card title written as a span around its link stays; a menu of links still goes."""
    text = "A family guide to the lakes, the forests and the villages of the northern valley."
    menu = "".join(f"<li><a href='/m{i}'>Menu {i}</a></li>" for i in range(5))
    body = _body(
        f"<div><ul>{menu}</ul><div class=card><span><a href='/guide'>Valley guide</a></span>"
        f"<p>{text} {text}</p></div></div>"
    )
    drop_link_lists(body, BlockCounts(body))
    assert "Valley guide" in _text(body)
    assert "Menu 2" not in _text(body)


def test_an_index_page_keeps_its_link_lists() -> None:
    """A region that is mostly links (a directory of teams by division) keeps every list."""
    divisions = "".join(
        f"<div><h2>Division {d}</h2><ul>"
        + "".join(f"<li><a href='/t{d}{i}'>Team {d}{i}</a></li>" for i in range(6))
        + "</ul></div>"
        for d in "ABCD"
    )
    body = _body(f"<main><h1>All teams</h1>{divisions}</main>")
    drop_link_lists(body, BlockCounts(body))
    assert "Team A3" in _text(body)
    assert "Team D5" in _text(body)


def test_link_lists_beside_prose_still_go() -> None:
    """A page with prose keeps dropping a menu that sits in its own block."""
    text = "The committee met on Monday and agreed on a new schedule for the spring season."
    menu = "<div><ul>" + "".join(f"<li><a href='/m{i}'>Menu {i}</a></li>" for i in range(5))
    body = _body(f"<main>{menu}</ul></div><p>{text} {text}</p></main>")
    drop_link_lists(body, BlockCounts(body))
    assert "Menu 2" not in _text(body)
    assert "committee" in _text(body)


def test_a_footer_in_main_outside_any_article_goes() -> None:
    """A template's footer placed inside <main> goes; a footer inside an article stays."""
    text = "Our reporters followed the harvest from the first frost to the last market day."
    body = _body(
        f"<main><article><p>{text}</p><footer>Filed under farming</footer></article>"
        "<footer><p>Get the newsletter every Friday morning</p></footer></main>"
    )
    drop_boilerplate(body, body, inside_main=False)
    assert "Filed under farming" in _text(body)
    assert "newsletter" not in _text(body)


_GUIDE = (
    "<p>"
    + " ".join(
        "Choosing a tent starts with the nights you plan to spend outside, the weather you "
        "expect and how far you will carry it on your back each day."
        for _ in range(16)
    )
    + "</p>"
)


def _grid(cards: int, image: bool = True, price: str = "${}.00") -> str:
    picture = "<img src='t.jpg' alt=''>" if image else ""
    return (
        "<ul class=grid>"
        + "".join(
            f"<li><a href='/p{i}'>{picture}Dome tent {i}</a>"
            f"<span>{price.format(100 + i)}</span></li>"
            for i in range(cards)
        )
        + "</ul>"
    )


def test_a_priced_card_grid_beside_a_guide_goes() -> None:
    """A collection with a long guide loses its grid of priced product cards."""
    body = _body(f"<main><h1>Tents</h1>{_grid(8)}{_GUIDE}</main>")
    drop_priced_grids(body)
    assert "Dome tent 3" not in _text(body)
    assert "Choosing a tent" in _text(body)


@pytest.mark.parametrize(
    "price",
    ["€{}", "£{}", "¥{}", "₹{}", "{}€", "{}£", "{}zł", "{}kr", "{}Kč", "{}USD", "{}EUR", "{}GBP"],
)
def test_a_card_grid_priced_in_any_currency_goes(price: str) -> None:
    """A grid goes whatever currency its cards name, before or after the amount."""
    # A space after the price: a currency glued to the next card's name is no price.
    grid = _grid(8, price=f"{price} ")
    body = _body(f"<main><h1>Tents</h1>{grid}{_GUIDE}</main>")
    drop_priced_grids(body)
    assert "Dome tent 3" not in _text(body)


def test_a_priced_card_grid_without_a_guide_stays() -> None:
    """Without a guide the grid is the content, and stays."""
    body = _body(f"<main><h1>Tents</h1>{_grid(8)}<p>Free shipping over $50.</p></main>")
    drop_priced_grids(body)
    assert "Dome tent 3" in _text(body)


def test_a_price_list_without_pictures_stays() -> None:
    """A bulleted list of prices in the text is not a grid of product cards."""
    body = _body(f"<main>{_grid(8, image=False)}{_GUIDE}</main>")
    drop_priced_grids(body)
    assert "Dome tent 3" in _text(body)


def test_a_button_repeated_on_every_card_goes() -> None:
    """A call to action on every card goes; a repeated place name that is content stays."""
    cards = "".join(
        f"<div class=card><h3>Studio {i}</h3><a href='/r/eu'>Europe</a>"
        f"<a href='/c/{i}'>View company profile</a><span>Quick view</span></div>"
        for i in range(6)
    )
    body = _body(f"<main>{cards}</main>")
    drop_repeated_buttons(body)
    assert "View company profile" not in _text(body)
    assert "Quick view" not in _text(body)
    assert _text(body).count("Europe") == 6
    assert "Studio 4" in _text(body)


def test_a_listing_status_line_goes() -> None:
    """Result count, sort control and a card's age go; a product named "Sort" stays."""
    body = _body(
        "<main><div>Showing 1-24 of 193 results</div><span>Sort by:</span><p>22 products</p>"
        "<small>5 min read</small><time>2 days ago</time>"
        "<h3>Sort &amp; Store boxes</h3><p>Stackable boxes, 3 sizes.</p></main>"
    )
    drop_listing_status(body)
    for status in ("Showing", "results", "Sort by", "22 products", "min read", "days ago"):
        assert status not in _text(body)
    assert "Sort & Store boxes" in _text(body)


def test_a_language_switcher_goes() -> None:
    """Links to the page in five languages go; a list of links all marked English stays."""
    languages = "".join(
        f"<li><a href='https://{code}.example.org/wiki/Lists' hreflang='{code}'>{name}</a></li>"
        for code, name in (
            ("af", "Afrikaans"),
            ("an", "Aragonés"),
            ("de", "Deutsch"),
            ("es", "Español"),
            ("fr", "Français"),
        )
    )
    guides = "".join(
        f"<li><a href='/guide/{i}' hreflang='en'>Guide to lists {i}</a></li>" for i in range(6)
    )
    body = _body(f"<main><h1>Lists</h1><ul>{languages}</ul><ul>{guides}</ul></main>")
    drop_language_switchers(body)
    assert "Aragonés" not in _text(body)
    assert "Guide to lists 5" in _text(body)


def test_sponsored_and_upcoming_event_sections_go() -> None:
    """Sections titled "Sponsored content" and "Upcoming events" beside a list of stories go."""
    stories = "".join(
        f"<article><h3><a href='/s{i}'>Startup {i} raises a round</a></h3>"
        f"<p>The company will hire engineers in {i + 3} cities next year.</p></article>"
        for i in range(8)
    )
    body = _body(
        f"<main>{stories}<div><h3>Sponsored content</h3><p>Cloud security webinar</p></div>"
        "<section><h2>Upcoming events</h2><p>Founder summit, Boston, June 9</p></section></main>"
    )
    drop_titled_sections(body)
    assert "webinar" not in _text(body)
    assert "Founder summit" not in _text(body)
    assert "Startup 7 raises a round" in _text(body)


def test_screen_reader_labels_on_cards_go() -> None:
    """Field names written for screen readers only (show-for-sr, screen-reader) go."""
    cards = "".join(
        f"<article><h3><a href='/c{i}'>Data science course {i}</a></h3>"
        "<div><div class='field__label show-for-sr'>Registration Deadline</div>"
        "<div class='field__item'>Available now</div></div>"
        "<span class='screen-reader'>Sale Price</span><span>USD 55.25</span></article>"
        for i in range(4)
    )
    body = _body(f"<main>{cards}</main>")
    drop_boilerplate(body, body, inside_main=False)
    assert "Registration Deadline" not in _text(body)
    assert "Sale Price" not in _text(body)
    assert "Data science course 3" in _text(body)
    assert "USD 55.25" in _text(body)


def test_a_card_title_wrapped_in_one_linked_heading_stays() -> None:
    """A short card title (a block around one linked heading) stays; a headed menu goes."""
    text = "A thriller set on a Caribbean island where buccaneers uncover a hidden past."
    cards = "".join(
        f"<li><div class=title><a href='/t{i}'><h3>Scream {i}</h3></a></div><p>{text}</p></li>"
        for i in range(6)
    )
    menu = "<div><h4>Movies</h4>" + "".join(f"<a href='/m{i}'>Genre {i}</a>" for i in range(5))
    body = _body(f"<main>{menu}</div><ul>{cards}</ul></main>")
    drop_link_lists(body, BlockCounts(body))
    assert "Scream 5" in _text(body)
    assert "Genre 3" not in _text(body)


def test_a_card_name_linked_twice_to_one_place_stays() -> None:
    """A ranked row's logo and name, both linked to the product, stay; a pair of links to
    two places, named a title or not, is still a menu."""
    text = "Rankings weigh the reviews, the features and the price of every product listed."
    rows = "".join(
        f"<div class=row><div>{i}.</div><div class=entry><a href='/p/{i}'><img src=l.png></a>"
        f"<div><a href='/p/{i}' class='product-title'>Tool{i}</a></div></div><p>{text}</p></div>"
        for i in range(6)
    )
    menu = "<div class=title><a href='/a'>About</a> <a href='/b'>Blog</a></div>"
    body = _body(f"<main>{menu}{rows}</main>")
    drop_link_lists(body, BlockCounts(body))
    assert "Tool5" in _text(body)
    assert "Blog" not in _text(body)


def test_a_block_marked_nocontent_goes() -> None:
    """A block the site marks as not content (class nocontent, robots-nocontent) goes."""
    stories = "".join(
        f"<li><a href='/n{i}'>Cloud outage report number {i}</a></li>" for i in range(6)
    )
    body = _body(
        f"<main><ul>{stories}</ul><div class='widget nocontent'><h3>Webinars</h3>"
        "<p>Register for the live session</p></div>"
        "<span class='robots-nocontent'>Advertisement below</span></main>"
    )
    drop_boilerplate(body, body, inside_main=False)
    assert "Register" not in _text(body)
    assert "Advertisement" not in _text(body)
    assert "Cloud outage report number 5" in _text(body)


def test_boilerplate_read_from_given_counts_goes_as_when_counted_again() -> None:
    """Words read from the caller's counts drop the same blocks as words counted afresh."""
    story = " ".join(
        f"Sentence {n} of the report says what the council decided." for n in range(30)
    )
    page = (
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<div class='site-footer-links'>About us and contact</div><main><p>{story}</p>"
        f"<div class='sidebar'>{story}</div></main><footer>Copyright</footer>"
    )
    counted, given = _body(page), _body(page)
    drop_boilerplate(counted, counted, inside_main=False)
    drop_boilerplate(given, given, inside_main=False, counts=BlockCounts(given))
    assert _text(given) == _text(counted)
    assert "About us" not in _text(given)
    assert "Sentence 29" in _text(given)


def _card(i: int, byline: str) -> str:
    blurb = "A short look at how the new release changes the way teams ship their code."
    return (
        f"<li><div class=card><h4 class=card__title><a href='/news/{i}'>Story {i}</a></h4>"
        f"<p>{blurb}</p>{byline}</div></li>"
    )


def _footer_byline(i: int) -> str:
    return (
        f"<div class=card__footer><a href='/profile/writer-{i}/'>Writer {i}</a> on Mar 0{i}</div>"
    )


def test_a_card_byline_named_footer_stays() -> None:
    """A byline that a grid's cards keep in a "footer" block stays with each card."""
    cards = "".join(_card(i, _footer_byline(i)) for i in range(1, 5))
    body = _body(f"<main><ul class=cards>{cards}</ul></main>")
    drop_boilerplate(body, body, inside_main=False)
    assert "Writer 3 on Mar 03" in _text(body)


def test_a_lone_block_of_author_links_named_footer_goes() -> None:
    """A "footer" block of author links outside a grid of cards is still chrome."""
    text = "Our reporters followed the harvest from the first frost to the last market day."
    body = _body(
        f"<main><h1><a href='/story'>Harvest</a></h1><p>{text} {text} {text}</p>"
        f"{_footer_byline(1)}</main>"
    )
    drop_boilerplate(body, body, inside_main=False)
    assert "Writer 1" not in _text(body)


def test_a_card_list_of_author_links_stays() -> None:
    """A card's list of author links is its byline, not a menu; a menu beside still goes."""
    authors = "<ul class=author-list><li><a href='/author/ann-lee/'>Ann Lee</a></li></ul>"
    cards = "".join(_card(i, authors) for i in range(1, 5))
    menu = "<ul>" + "".join(f"<li><a href='/m{i}'>Menu {i}</a></li>" for i in range(5)) + "</ul>"
    body = _body(f"<main>{menu}<ul class=cards>{cards}</ul></main>")
    drop_link_lists(body, BlockCounts(body))
    assert _text(body).count("Ann Lee") == 4
    assert "Menu 2" not in _text(body)
