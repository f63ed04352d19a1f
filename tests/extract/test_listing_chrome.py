"""Listing chrome: counters, advertising marks, badges and side boxes on cards go."""

from __future__ import annotations

import pytest
from lxml.html import HtmlElement

from insomnia_web.extract.counts import BlockCounts
from insomnia_web.extract.listing import drop_card_labels
from insomnia_web.extract.prune import drop_boilerplate, drop_titled_sections
from tests.extract.support import body_of
from tests.extract.support import words_of as _text


def _body(html: str) -> HtmlElement:
    return body_of(f"<html><body>{html}</body></html>")


def _pruned(html: str) -> str:
    body = _body(html)
    drop_card_labels(body, BlockCounts(body))
    return _text(body)


def test_card_counters_and_badges_go() -> None:
    """A card's counts, its ad mark and its shipping and merit badges go."""
    cards = "".join(
        f"<article><h2><a href='/p{i}'>Why caching matters {i}</a></h2>"
        f"<a href='/p{i}#c'><span><img src=r.svg alt=''></span>{i + 2} reactions</a>"
        f"<a href='/p{i}#c'>{i} comments</a><span>Sponsored</span><p>{i + 7} Ratings</p>"
        "<div><span>Free shipping</span></div><p>Ships from Bulgaria</p>"
        "<ul><li>Top Rated</li></ul>"
        "</article>"
        for i in range(3)
    )
    text = _pruned(f"<main>{cards}</main>")
    labels = ("reactions", "comments", "Ratings", "Sponsored", "shipping", "Ships from")
    for label in (*labels, "Top Rated"):
        assert label not in text
    assert "Why caching matters 2" in text


def test_labels_inside_sentences_and_tables_stay() -> None:
    """A counter inside a sentence, a title and a data table's cells are content and stay."""
    html = (
        "<main><p>The thread drew 300 comments in a day.</p><h2>100 Likes</h2><p>A poem.</p>"
        "<p><span>Sponsored</span> content is marked on every page of the site.</p>"
        "<table><tr><th>Post</th><th>Replies</th></tr><tr><td>Intro</td><td>4 replies</td>"
        "</tr></table></main>"
    )
    text = _pruned(html)
    assert "300 comments" in text
    assert "4 replies" in text
    assert "Sponsored content" in text
    assert "100 Likes" in text


def test_novelty_badges_and_stock_photo_credits_go_and_code_stays() -> None:
    """ "New arrival", "Award Winner", "Online Exclusive" and "Getty Images" go; code stays."""
    cards = "".join(
        f"<li><div>New arrival</div><div>Award Winner</div><span>Online Exclusive</span>"
        f"<a href='/b{i}'>Trail boot {i}</a><figure><img src=b.jpg><span>Getty Images</span>"
        "</figure></li>"
        for i in range(3)
    )
    code = "<ul><li><code>loading</code> (str): eager or lazy.</li></ul>"
    html = f"<main><ul>{cards}</ul>{code}</main>"
    text = _pruned(html)
    for label in ("New arrival", "Award Winner", "Exclusive", "Getty"):
        assert label not in text
    assert "Trail boot 2" in text
    assert "loading (str)" in text


@pytest.mark.timeout(10)
def test_a_deep_chain_around_a_label_is_walked_in_linear_time() -> None:
    """A label under many wrappers is found without reading its text at every level."""
    depth = 50_000
    html = "<div>" * depth + "<span>12 comments</span>" + "</div>" * depth
    body = _body(f"<main><h1>Posts</h1>{html}</main>")
    drop_card_labels(body, BlockCounts(body))
    assert "comments" not in _text(body)


def test_card_photo_captions_and_credits_go() -> None:
    """A card's photo caption and credit go; the card's title and summary stay."""
    cards = "".join(
        f"<article><a href='/s{i}'><img src='p{i}.jpg' alt=''></a>"
        f"<div class='credit-caption'><div class='caption'><p>Scientists hold a tusk {i}."
        f"<b class='credit'>Rob Stein/NPR</b></p></div></div>"
        f"<h2><a href='/s{i}'>Reviving the mammoth {i}</a></h2>"
        f"<p class='teaser'>Gene editing brings an extinct giant closer.</p></article>"
        for i in range(3)
    )
    text = _pruned(f"<main>{cards}</main>")
    assert "tusk" not in text
    assert "Rob Stein" not in text
    assert "Reviving the mammoth 2" in text
    assert "Gene editing" in text


def test_logo_walls_and_follow_prompts_go() -> None:
    """Sections headed "Trusted by" or "Stay connected" are chrome."""
    story = "<p>" + "A long story about the city council and its new budget plan. " * 6 + "</p>"
    html = (
        f"<div>{story}</div>"
        "<div><h2>Trusted by 500+ teams</h2><p>Acme Globex Initech</p></div>"
        "<div><h3>Stay connected</h3><p>Facebook Instagram</p></div>"
    )
    body = _body(html)
    drop_titled_sections(body)
    text = _text(body)
    assert "city council" in text
    assert "Globex" not in text
    assert "Instagram" not in text


def test_wiki_section_edit_links_go() -> None:
    """A wiki's "[edit]" link beside each section heading is page chrome."""
    body = _body(
        "<main><div><h2>A</h2><span class='mw-editsection'>[<a href='?action=edit'>edit</a>]"
        "</span></div><p>Languages listed by name, with the year each first appeared.</p>"
        "<ul><li>ABC</li><li>Ada</li><li>ALGOL 60</li><li>APL</li></ul></main>"
    )
    drop_boilerplate(body, body, inside_main=False)
    text = _text(body)
    assert "edit" not in text
    assert "Ada" in text
