"""Readable-mode extraction: main content, boilerplate removal, listings, forums, titles."""

from __future__ import annotations

from insomnia_web.extract import Extracted, extract_html

NAV = (
    "<header><a href='/'>Acme News</a><nav><ul>"
    + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(12))
    + "</ul></nav></header>"
)
FOOTER = (
    "<footer><p>Copyright Acme Corporation. All rights reserved.</p>"
    "<a href='/p'>Privacy</a></footer>"
)
SIDEBAR = (
    "<aside class='sidebar'><h3>Popular</h3><ul>"
    + "".join(f"<li><a href='/x{i}'>Popular story {i}</a></li>" for i in range(8))
    + "</ul></aside>"
)
PARAGRAPHS = [
    "The river rose overnight, flooding the lower town, and residents moved to higher ground "
    "while volunteers filled sandbags along the embankment until early morning.",
    "Officials said the water level, measured at the old bridge, was the highest recorded in "
    "forty years, although the new barrier held, protecting the market square and the school.",
    "Forecasters expect the rain to ease by Thursday, but warned that tributaries upstream "
    "could still swell, and asked people to avoid the riverside paths for the rest of the week.",
]


def page(main: str, title: str = "Flood in the lower town | Acme News", head: str = "") -> str:
    """A page with site chrome around *main*."""
    return (
        f"<html><head><title>{title}</title>{head}</head><body>{NAV}"
        f"<div id='wrap'>{SIDEBAR}<main>{main}</main></div>{FOOTER}"
        "<div class='cookie-banner'><p>We use cookies to improve your experience.</p>"
        "<button>Accept all</button></div></body></html>"
    )


ARTICLE = (
    "<article><h1>Flood in the lower town</h1>"
    + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    + "<p hidden>secret hidden paragraph</p>"
    + "<div style='display:none'>invisible note</div></article>"
)


def test_readable_keeps_article_and_drops_chrome() -> None:
    """Readable mode keeps the article text and drops nav, sidebar, footer and cookie banner."""
    result = extract_html(page(ARTICLE))
    for paragraph in PARAGRAPHS:
        assert paragraph in result.text
    for chrome in ("Section 3", "Popular story", "Copyright", "cookies", "Accept all"):
        assert chrome not in result.text


def test_readable_drops_hidden_elements() -> None:
    """Elements hidden by attribute or inline style are not in the text."""
    text = extract_html(page(ARTICLE)).text
    assert "secret hidden paragraph" not in text
    assert "invisible note" not in text


def test_full_mode_keeps_chrome_but_not_hidden() -> None:
    """Full mode keeps navigation and footer text but still drops hidden elements."""
    result = extract_html(page(ARTICLE), mode="full")
    assert result.method == "full"
    assert "Section 3" in result.text
    assert "Copyright Acme Corporation" in result.text
    assert PARAGRAPHS[1] in result.text
    assert "secret hidden paragraph" not in result.text


def test_result_is_extracted_struct() -> None:
    """The result is an ``Extracted`` naming the method used."""
    result = extract_html(page(ARTICLE))
    assert isinstance(result, Extracted)
    assert result.method in ("readability", "page")


def test_listing_keeps_every_card() -> None:
    """A listing page keeps all of its cards, not just one."""
    cards = "".join(
        f"<div class='card'><h2><a href='/item/{i}'>Garden chair model {i}</a></h2>"
        f"<p>Weatherproof chair number {i} made of recycled teak, stackable and light, "
        f"with a ten year warranty, delivered flat.</p></div>"
        for i in range(12)
    )
    result = extract_html(page(f"<h1>Garden chairs</h1><div class='grid'>{cards}</div>"))
    for i in range(12):
        assert f"Garden chair model {i}" in result.text
        assert f"Weatherproof chair number {i} " in result.text
    assert "Popular story" not in result.text


def test_forum_keeps_every_post() -> None:
    """A forum thread keeps every post, not only the longest one."""
    posts = "".join(
        f"<div class='post'><div class='author'><a href='/u/{i}'>member{i}</a></div>"
        f"<div class='message'><p>Reply {i}: I had the same problem with the boiler, and "
        f"resetting the pressure valve fixed it for about {i + 2} weeks before it came back."
        f"</p></div></div>"
        for i in range(8)
    )
    result = extract_html(page(f"<h1>Boiler keeps losing pressure</h1>{posts}"))
    for i in range(8):
        assert f"Reply {i}: I had the same problem" in result.text


def test_title_from_title_tag_without_site_suffix() -> None:
    """The ``<title>`` is used without its " | Site" suffix."""
    assert extract_html(page(ARTICLE)).title == "Flood in the lower town"


def test_title_prefers_og_title() -> None:
    """``og:title`` wins over ``<title>``."""
    head = '<meta property="og:title" content="River floods lower town">'
    assert extract_html(page(ARTICLE, head=head)).title == "River floods lower town"


def test_title_strips_known_site_name() -> None:
    """A title ending in the ``og:site_name`` loses it, whatever the separator."""
    head = '<meta property="og:site_name" content="Acme News">'
    result = extract_html(page(ARTICLE, title="Flood in the lower town - Acme News", head=head))
    assert result.title == "Flood in the lower town"


def test_title_falls_back_to_h1() -> None:
    """Without ``<title>`` or ``og:title`` the first ``<h1>`` is the title."""
    html = "<html><body><h1>Only heading</h1><p>text</p></body></html>"
    assert extract_html(html).title == "Only heading"


def test_no_title() -> None:
    """A page without any title source has ``title=None``."""
    assert extract_html("<html><body><p>just text</p></body></html>").title is None


def test_declared_article_uses_readability() -> None:
    """A page that declares itself an article (og:type) is extracted by readability."""
    head = '<meta property="og:type" content="article">'
    assert extract_html(page(ARTICLE, head=head)).method == "readability"


def test_hidden_utility_class_drops_block_unless_shown_on_wide_screens() -> None:
    """A block with class ``hidden``/``d-none`` is dropped; one a responsive class shows stays."""
    main = (
        ARTICLE
        + "<div class='hide'>metadata only a script reads</div>"
        + "<div class='hidden md:block'>Shown on desktop screens.</div>"
    )
    text = extract_html(page(main), mode="full").text
    assert "metadata only a script reads" not in text
    assert "Shown on desktop screens." in text


def test_footer_is_dropped_even_when_it_is_all_the_page_holds() -> None:
    """A script-rendered page whose only server-sent text is its footer yields no footer text."""
    footer = (
        "<footer><div class='site-footer'><h5>Help</h5><p>Help Center, Disputes and Reports, "
        "Return and refund policy, Report infringement, Transparency Center, Recalls</p>"
        "<p>Privacy Policy - Sitemap - Terms of Use - Legal Information</p></div></footer>"
    )
    result = extract_html(f"<html><body><div id='app'></div>{footer}</body></html>")
    assert "Help Center" not in result.text
    assert "Privacy Policy" not in result.text


def test_link_hidden_from_screen_readers_is_still_page_text() -> None:
    """A card's ``aria-hidden`` summary link is visible on screen and stays in the text."""
    card = (
        "<p><a href='/s' aria-hidden='true' tabindex='-1'>Walmart now has new colours of the "
        "headphones, which were only sold abroad until this week.</a></p>"
    )
    text = extract_html(page(ARTICLE + card), mode="full").text
    assert "Walmart now has new colours of the headphones" in text
    assert "secret hidden paragraph" not in text
