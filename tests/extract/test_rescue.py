"""Content that pages hide from crawlers or scripts, and chrome inside the content region."""

from __future__ import annotations

from insomnia_web.extract import extract_html

POSTS = "".join(
    f"<div class='crawler-post'><span class='creator'>user{i}</span><div class='post'>"
    f"<p>Post {i} explains in some detail how the update changed the document review tool, "
    f"what broke for the team, and which workaround helped them for now.</p></div></div>"
    for i in range(10)
)


def test_noscript_holding_the_page_is_kept() -> None:
    """A ``<noscript>`` with most of the page's text (a forum's crawler view) is extracted."""
    html = (
        "<html><body><div id='app'>Loading the app</div>"
        f"<noscript data-path='/t/1'><div id='main-outlet'>{POSTS}</div></noscript>"
        "</body></html>"
    )
    text = extract_html(html).text
    for i in range(10):
        assert f"Post {i} explains" in text


def test_noscript_words_in_adjacent_elements_are_counted_apart() -> None:
    """Words of adjacent elements with no space between count apart when judging a noscript."""
    words = "".join(f"<p>word{i}</p>" for i in range(250))
    html = (
        "<html><body><div id='app'>Loading the app</div>"
        f"<noscript><div id='main-outlet'>{words}</div></noscript></body></html>"
    )
    text = extract_html(html, mode="full").text
    assert "word0" in text.split()
    assert "word249" in text.split()


def test_small_noscript_is_dropped() -> None:
    """An ordinary ``<noscript>`` (a "please enable JavaScript" note) is not text."""
    html = (
        "<html><body><p>Real paragraph of the page that the reader came for.</p>"
        "<noscript>Please enable JavaScript to use this site.</noscript></body></html>"
    )
    for mode in ("readable", "full"):
        assert "enable JavaScript" not in extract_html(html, mode=mode).text


def test_hidden_streamed_content_is_kept() -> None:
    """A hidden element holding most of the page (streamed server rendering) is kept."""
    html = f"<html><body><div>Loading...</div><div hidden id='S:1'>{POSTS}</div></body></html>"
    assert "Post 9 explains" in extract_html(html).text


def test_link_lists_inside_main_are_dropped() -> None:
    """A menu of short links inside the main region goes, the prose beside it stays."""
    menu = "<ul>" + "".join(f"<li><a href='/c{i}'>Topic {i}</a></li>" for i in range(15)) + "</ul>"
    body = "".join(
        f"<p>Paragraph {i} of the guide describes the next step of the setup, including the "
        f"settings to check and what the screen should show afterwards.</p>"
        for i in range(6)
    )
    html = (
        f"<html><body><main><div>{menu}</div><div class='guide'>{body}</div></main></body></html>"
    )
    text = extract_html(html).text
    assert "Paragraph 5 of the guide" in text
    assert "Topic 7" not in text


def test_related_section_is_dropped() -> None:
    """A section under a "Related articles" heading is not part of the content."""
    body = "".join(
        f"<p>Sentence group {i} tells the story of the harbour and the boats that used it, "
        f"with dates, names and the reasons the town grew around it.</p>"
        for i in range(6)
    )
    related = (
        "<section><h2>Related articles</h2><p>Another story about lighthouses and keepers.</p>"
        "<p>A third story about fishing fleets.</p></section>"
    )
    html = f"<html><body><main><article>{body}</article>{related}</main></body></html>"
    text = extract_html(html).text
    assert "Sentence group 5" in text
    assert "lighthouses" not in text


def test_index_of_link_lists_is_kept() -> None:
    """Sibling link lists that make up the page (an index) are content, not menus."""
    lists = "".join(
        f"<h2>{letter}</h2><ul>"
        + "".join(f"<li><a href='/{letter}{i}'>{letter}lang {i}</a></li>" for i in range(8))
        + "</ul>"
        for letter in "ABCDEF"
    )
    html = (
        "<html><body><nav><ul><li><a href='/'>Home</a></li></ul></nav>"
        f"<main><h1>List of languages</h1><p>Languages by first letter.</p>{lists}</main>"
        "</body></html>"
    )
    text = extract_html(html).text
    assert "Alang 0" in text
    assert "Flang 7" in text
