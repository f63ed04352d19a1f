"""The page extraction's region: the part of the page whose blocks are pruned and kept."""

from __future__ import annotations

from lxml.html import document_fromstring

from insomnia_web.extract.boilerplate import prune_boilerplate
from insomnia_web.extract.serialize import serialize


def test_the_only_article_beside_a_sidebar_is_the_region() -> None:
    """A page's only <article> is kept without the unnamed sidebar column that outweighs it."""
    story = "".join(
        f"<p>The council voted on the new bridge, paragraph {n}, after a long debate over "
        "costs, traffic and the river's wildlife.</p>"
        for n in range(6)
    )
    column = "".join(
        f"<div class='box'><h3>Column piece {n}</h3><p>A longer summary of another piece on "
        "the site, with a sentence or two about what it says and why.</p></div>"
        for n in range(10)
    )
    page = (
        f"<html><body><div class='wrap'><article>{story}</article>"
        f"<div class='col-4'>{column}</div></div></body></html>"
    )
    root = document_fromstring(page)
    text = serialize(prune_boilerplate(root, "en"))
    assert "paragraph 5" in text
    assert "Column piece" not in text


def test_a_listing_of_articles_keeps_them_all() -> None:
    """Cards marked up as articles are many: none of them is taken for the region alone."""
    cards = "".join(
        f"<article><h3>Story {n}</h3><p>A summary of story {n} on the site, a sentence long."
        "</p></article>"
        for n in range(6)
    )
    root = document_fromstring(f"<html><body><main>{cards}</main></body></html>")
    text = serialize(prune_boilerplate(root, "en"))
    assert "Story 0" in text
    assert "Story 5" in text


def test_a_margin_column_goes() -> None:
    """A side column named "marginal" or "sidebarRight" leaves the page extraction."""
    story = "".join(
        f"<p>The council voted on the new bridge, paragraph {n}, after a long debate over "
        "costs, traffic and the river's wildlife.</p>"
        for n in range(12)
    )
    for name in ("columns large-4 marginal", "sidebarRight"):
        column = (
            f"<div class='{name}'><h3>Latest pieces</h3>"
            + "<p>Another piece on the site, in a line or two of summary.</p>" * 4
            + "</div>"
        )
        page = f"<html><body><div class='row'><div>{story}</div>{column}</div></body></html>"
        text = serialize(prune_boilerplate(document_fromstring(page), "de"))
        assert "paragraph 11" in text
        assert "Latest pieces" not in text
