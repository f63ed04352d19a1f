"""Author and dates as the page states them: JSON-LD, then meta tags, then markup."""

from __future__ import annotations

import pytest

from insomnia_web.extract import extract_html
from insomnia_web.extract.article_meta import iso_date

BODY = "<article><h1>Tea</h1><p>" + "Tea is brewed from the leaves of a shrub. " * 8 + "</p>"


def page(head: str = "", body: str = "") -> str:
    """An article page with *head* markup and extra *body* markup."""
    return f"<html><head><title>Tea</title>{head}</head><body>{BODY}{body}</article></body></html>"


def test_json_ld_gives_author_and_both_dates() -> None:
    """A JSON-LD article (inside @graph) names its authors and its dates."""
    ld = (
        '<script type="application/ld+json">{"@graph": [{"@type": "NewsArticle", '
        '"author": [{"@type": "Person", "name": "Ann Lee"}, {"name": "Bo Chen"}], '
        '"datePublished": "2026-03-01T09:30:00Z", "dateModified": "2026-03-02"}]}</script>'
    )
    out = extract_html(page(ld))
    assert out.author == "Ann Lee, Bo Chen"
    assert out.published == "2026-03-01T09:30:00+00:00"
    assert out.modified == "2026-03-02"


def test_meta_tags_fill_in_what_json_ld_does_not_say() -> None:
    """Open Graph article times and the author meta tag are read; a URL is not an author."""
    head = (
        '<meta property="article:published_time" content="2025-11-05T08:00:00+01:00">'
        '<meta property="article:modified_time" content="2025-11-06">'
        '<meta property="article:author" content="https://example.com/ann">'
        '<meta name="author" content="Ann  Lee">'
    )
    out = extract_html(page(head))
    assert (out.author, out.published, out.modified) == (
        "Ann Lee",
        "2025-11-05T08:00:00+01:00",
        "2025-11-06",
    )


def test_time_element_and_rel_author_are_the_last_resort() -> None:
    """Without declarations, the first <time datetime> and a rel=author link are used."""
    out = extract_html(
        page(
            body='<p>By <a rel="author" href="/u">Kim Park</a></p>'
            '<time datetime="2024-02-29">Feb 29</time>'
        )
    )
    assert out.author == "Kim Park"
    assert out.published == "2024-02-29"
    assert out.modified is None


def test_a_marked_author_block_gives_its_name_not_its_whole_text() -> None:
    """An ``itemprop="author"`` block (a forum post's member card) names its author by a
    nested ``itemprop="name"``; its other text (rank, join date, post count) is not a name."""
    card = (
        '<div itemprop="author" itemscope itemtype="https://schema.org/Person">'
        '<meta itemprop="name" content="SmellSharpe"><a href="/m/1">SmellSharpe</a>'
        "<span>Well-known member</span><dl><dt>Joined</dt><dd>Dec 29, 2021</dd>"
        "<dt>Messages</dt><dd>2,093</dd></dl></div>"
    )
    assert extract_html(page(body=card)).author == "SmellSharpe"


@pytest.mark.parametrize(
    "block",
    [
        '<div itemprop="author">Jossi Loibl (born 1962) has written about wine and food for '
        "more than 25 years, as a freelance author for magazines and papers.</div>",
        '<p><a rel="author" href="/u/rg">Roger Gonzalez @rgonzalezcbs Nov 19, 2019 at 6:46 pm '
        "ET • 2 min read</a></p>",
    ],
)
def test_marked_text_longer_than_a_name_is_no_author(block: str) -> None:
    """Marked text of more words than a few names (an author's biography, a name run into
    a date line) is not taken for the author: no author beats a paragraph on every label."""
    assert extract_html(page(body=block)).author is None


def test_a_page_that_states_nothing_has_no_metadata() -> None:
    """No declarations and no <time>: author and dates stay None (nothing is guessed)."""
    out = extract_html(page(body="<p>Published March 1, 2026 by Ann.</p>"))
    assert (out.author, out.published, out.modified) == (None, None, None)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-03-01", "2026-03-01"),
        ("2026-03-01T09:30Z", "2026-03-01T09:30:00+00:00"),
        (" 2026-03-01 09:30:00 ", "2026-03-01T09:30:00"),
        ("March 1, 2026", None),
        ("2026-13-01", None),
        (20260301, None),
    ],
)
def test_only_iso_dates_are_kept(value: object, expected: str | None) -> None:
    """ISO 8601 dates and date-times are normalised; anything else is dropped."""
    assert iso_date(value) == expected
