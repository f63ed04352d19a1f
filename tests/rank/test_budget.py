"""Budget accounting: label overhead and exact fits."""

from __future__ import annotations

from insomnia_web.rank import SourceDoc, estimate_tokens, select_excerpts
from insomnia_web.rank.budget import (
    MAX_HEADING_WORDS,
    MAX_LINE_CHARS,
    MAX_TITLE_WORDS,
    excerpt_cost,
    label_cost,
    passage_cost,
    selection_cost,
    shown_heading,
    shown_title,
    source_label,
    source_label_cost,
)
from insomnia_web.rank.candidates import query_terms

TEXT = "Reykjavik is the capital of Iceland and its largest city by population."
DOC = SourceDoc(url="https://example.org/iceland", title="Iceland facts", text=TEXT, rank=1)


def test_label_overhead_is_counted() -> None:
    """An excerpt costs its text plus a label line with title and URL."""
    cost = excerpt_cost(DOC.title, DOC.url, None, TEXT)
    assert cost == estimate_tokens(TEXT) + label_cost(DOC.title, DOC.url, None)
    assert label_cost(DOC.title, DOC.url, None) > estimate_tokens(DOC.url)


def test_heading_line_adds_to_the_cost() -> None:
    """A heading path is shown with the excerpt, so it is paid for."""
    assert label_cost("T", "https://a.example", "Install > Linux") > label_cost(
        "T", "https://a.example", None
    )


def test_an_exact_fit_is_taken_and_one_token_less_is_not() -> None:
    """A budget equal to the excerpt's full cost returns it; one token less returns nothing."""
    cost = selection_cost([(DOC.title, DOC.url, None, TEXT)], ())
    assert len(select_excerpts("capital of iceland", [DOC], max_tokens=cost)) == 1
    assert select_excerpts("capital of iceland", [DOC], max_tokens=cost - 1) == []


def test_a_smaller_passage_fills_the_room_a_larger_one_cannot() -> None:
    """When the best passage does not fit, a lower-ranked one that fits is still taken."""
    big = " ".join(["Iceland capital Reykjavik history."] * 25)
    docs = [
        SourceDoc(url="https://big.example", title="Big", text=big, rank=1),
        SourceDoc(url="https://small.example", title="Small", text=TEXT, rank=2),
    ]
    budget = selection_cost([("Small", "https://small.example", None, TEXT)], ()) + 5
    found = select_excerpts("iceland capital reykjavik", docs, max_tokens=budget)
    assert [e.url for e in found] == ["https://small.example"]


def test_an_untitled_source_is_priced_with_its_url_as_the_title() -> None:
    """With no title the label repeats the URL, and that longer label is what is priced."""
    url = "https://example.org/a/long/path/to/the/page"
    assert label_cost("", url, None) == label_cost(url, url, None)
    assert label_cost("", url, None) > label_cost("T", url, None)


def test_a_source_label_is_paid_once_for_all_its_passages() -> None:
    """Two passages of one source cost one label; passages of two sources cost two."""
    one = ("T", "https://a.example/", None, TEXT)
    other = ("U", "https://b.example/", None, TEXT)
    label = source_label_cost("T", "https://a.example/")
    assert selection_cost([one, one], ()) == label + 2 * passage_cost("T", None, TEXT, ())
    assert selection_cost([one, other], ()) > selection_cost([one, one], ())


ASKED = frozenset(query_terms("geography of iceland"))


def test_a_heading_the_title_already_says_is_not_shown_or_paid_for() -> None:
    """Heading parts whose words are all in the title are left out of the heading line."""
    assert shown_heading("Iceland facts", "Iceland facts > Geography", ASKED) == "Geography"
    assert shown_heading("Iceland facts", "Iceland Facts", ASKED) is None
    assert shown_heading("Iceland facts", None, ASKED) is None
    assert passage_cost("Iceland facts", "Iceland facts", TEXT, ASKED) == passage_cost(
        "Iceland facts", None, TEXT, ASKED
    )
    assert passage_cost("T", "Geography", TEXT, ASKED) > passage_cost("T", None, TEXT, ASKED)


def test_a_heading_naming_nothing_the_query_asks_is_not_shown_or_paid_for() -> None:
    """A heading that shares no term with the query is left out, an outer one included."""
    assert shown_heading("Iceland facts", "Iceland facts > Economy", ASKED) is None
    assert shown_heading("Guide", "Geography > Economy", ASKED) is None
    assert shown_heading("Guide", "Economy > Geography", ASKED) == "Geography"
    assert passage_cost("T", "Economy", TEXT, ASKED) == passage_cost("T", None, TEXT, ASKED)


def test_a_title_the_url_already_says_is_left_out_of_the_label() -> None:
    """When the URL's slug holds the title's words, the label is the id and the URL only."""
    url = "https://news.example/2019/11/three-cases-plague-diagnosed-china/"
    assert shown_title("Three cases of plague diagnosed in China", url) == ""
    assert source_label(1, "Three cases of plague diagnosed in China", url) == f"[1] {url}"
    assert source_label(2, "", url) == f"[2] {url}"
    assert source_label(3, url, url) == f"[3] {url}"


def test_a_title_the_url_does_not_say_is_kept_and_the_url_stays_whole() -> None:
    """A title that says something the URL does not stays, before the URL as given."""
    url = "https://www.example.org/a?id=7"
    assert source_label(1, "Iceland facts", url) == f"[1] Iceland facts - {url}"


def test_a_url_whose_path_names_the_page_is_label_enough() -> None:
    """A URL whose path says in words what the page is (three words or more; numbers, file
    endings and index pages aside) is the whole label: the title is not shown too. Two
    names (a repository's owner and name, a section and a topic) do not say it."""
    assert (
        shown_title("Xfinity TV and Streaming", "https://www.xfinity.example/learn/cable-tv") == ""
    )
    assert (
        shown_title(
            "旅行のヒント", "https://ja.example/%E6%97%85%E8%A1%8C%E3%81%AE%E3%82%B3%E3%83%84"
        )
        == ""
    )
    for opaque in (
        "https://space.example/article/3834/1",
        "https://www.example.org/index.html",
        "https://shop.example/p?travel=hacks&hotel=stay",
        "https://bulova.example/global/",
        "https://code.example/psf/requests",
        "https://docs.example/3/library/asyncio.html",
    ):
        assert shown_title("Official watch site", opaque) == "Official watch site", opaque


def test_a_title_naming_another_address_does_not_show_it_in_the_label() -> None:
    """A page's title holding a URL or a host and path (``Python docs -
    https://docs.python.org/3/``) is shown without it: in front of the label's own URL, the
    model took it for the source's address and cited the other site for the page's words."""
    url = "https://pages.example/a/1"
    for title in (
        "Python docs - https://docs.python.org/3/",
        "Python docs | docs.python.org/3/library",
        "www.python.org: Python docs",
    ):
        assert source_label(1, title, url) == f"[1] Python docs - {url}", title
    assert source_label(2, "https://docs.python.org/3/", url) == f"[2] {url}"


def test_a_long_title_is_cut_to_a_few_words() -> None:
    """A title longer than the cap keeps its first words (no trailing stopword) and ``…``."""
    title = "The best live streaming services for sports and news and more in this year"
    shown = shown_title(title, "https://tv.example/p/582896")
    assert shown == "The best live streaming services for sports…"
    assert len(shown.split()) <= MAX_TITLE_WORDS


def test_a_title_part_naming_the_site_is_dropped() -> None:
    """``Title | Site`` on the site's own host shows the title part only."""
    assert shown_title("Tortoise care | Reptile News", "https://www.reptilenews.example/a") == (
        "Tortoise care"
    )
    assert shown_title("Tortoise care - DW", "https://dw.example/a/1") == "Tortoise care"


def test_the_label_is_priced_as_it_is_shown() -> None:
    """A shorter label costs less: a title the URL says is not paid for."""
    url = "https://news.example/iceland/7"
    assert source_label_cost("Iceland", url) == source_label_cost("", url)
    assert source_label_cost("Reykjavik guide", url) > source_label_cost("", url)


def test_a_long_heading_is_cut_like_a_title() -> None:
    """A heading line keeps at most its first words."""
    heading = " ".join(f"word{i}" for i in range(30))
    shown = shown_heading("T", heading, query_terms("word0"))
    assert shown is not None
    assert shown.endswith("…")
    assert len(shown.split()) == MAX_HEADING_WORDS


def test_a_title_without_spaces_is_cut_by_characters() -> None:
    """A title in a script written without spaces is cut to a line's worth of characters."""
    title = "東京都庁" * 40
    shown = shown_title(title, "https://news.example.jp/a/1")
    assert shown.endswith("…")
    assert len(shown) == MAX_LINE_CHARS + 1


def test_only_an_outer_title_part_is_taken_for_the_site_name() -> None:
    """A middle part that happens to occur in the host name stays; separators are kept."""
    url = "https://www.mailnews.example/a/1"
    assert shown_title("Tortoises | News | Reptiles", url) == "Tortoises | News | Reptiles"
    dash = "Tortoises \u2013 Reptiles"
    assert shown_title(dash, url) == dash
