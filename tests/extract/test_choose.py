"""Choosing between readability's article and the whole-page extraction."""

from __future__ import annotations

import pytest
from lxml.html import HtmlElement, document_fromstring

from insomnia_web.extract import extract_html
from insomnia_web.extract import html as html_module
from insomnia_web.extract.counts import BlockCounts, word_count
from insomnia_web.extract.html import _choose
from insomnia_web.extract.readable import readable_article
from insomnia_web.extract.serialize import added_words_at_most, long_line_words_before, serialize
from insomnia_web.extract.signals import ArticleClaim
from insomnia_web.extract.words import count_words

_LEGAL = (
    "We process your data to deliver content and measure its delivery, and we share this "
    "information with our partners on the basis of consent and legitimate interest, which "
    "you may exercise or object to for each purpose, at any time, from this panel."
)
_CONSENT_BANNER = (
    "<div id='onetrust-consent-sdk'><div id='onetrust-pc-sdk'><h4>Your Privacy</h4>"
    + "".join(f"<p>{_LEGAL}</p>" for _ in range(6))
    + "</div></div>"
)
_RECIPES = ["Pasta bake", "Pork chops", "Lentil soup", "Beef stew", "Fish tacos"]
LISTING_WITH_BANNER = (
    "<html><body><main><h1>Dinner Recipes</h1>"
    "<p>Popular five-star dinners for every night of the week.</p><ul>"
    + "".join(
        f"<li><a href='/r/{n}'>{name}</a> quick, easy</li>" for n, name in enumerate(_RECIPES)
    )
    + "</ul></main>"
    + _CONSENT_BANNER
    + "</body></html>"
)


def test_consent_banner_is_never_the_article() -> None:
    """readability's article found inside a consent manager's banner is rejected."""
    assert readable_article(document_fromstring(LISTING_WITH_BANNER)) is None


def test_article_beside_a_consent_banner_is_kept() -> None:
    """An article that outscores the consent banner is still readability's article."""
    story = "".join(
        f"<p>The council voted on the new bridge, paragraph {n}, after a long debate over "
        "costs, traffic and the river's wildlife, and work will start in the spring.</p>"
        for n in range(12)
    )
    page = f"<html><body><article><h1>Bridge</h1>{story}</article>{_CONSENT_BANNER}</body></html>"
    result = extract_html(page)
    assert result.method == "readability"
    assert "paragraph 11" in result.text


_STORY = "\n\n".join(
    f"The council voted on the new bridge, part {n}, after a long debate over costs, traffic "
    "and the river's wildlife, and work will start in the spring."
    for n in range(10)
)
_THREAD = "\n\n".join(
    f"#### Re: bridge (Score:{n % 5})\nby reader{n}\nI think the costs were fine, really, post {n}."
    for n in range(80)
)


def test_article_lost_by_the_page_extraction_is_kept() -> None:
    """An article whose sentences the page text lacks wins whatever its share of the page."""
    text, method = _choose(_STORY, _THREAD, ArticleClaim.NONE)
    assert method == "readability"
    assert text == _STORY


def test_small_article_inside_the_page_text_loses() -> None:
    """An article the page text holds, but holding too little of it, gives way to the page."""
    page = _STORY + "\n\n" + _THREAD
    text, method = _choose(_STORY, page, ArticleClaim.NONE)
    assert method == "page"
    assert text == page


def test_text_inside_a_dialog_is_never_the_article() -> None:
    """A cookie notice opened as a dialog, whatever its class names, is not the article."""
    notice = (
        "<div id='sp-cc-wrapper'><form id='cos-banner' role='dialog'><div class='a-section'>"
        + "".join(f"<p>{_LEGAL}</p>" for _ in range(6))
        + "</div></form></div>"
    )
    page = LISTING_WITH_BANNER.replace(_CONSENT_BANNER, notice)
    assert readable_article(document_fromstring(page)) is None


def test_lost_headlines_are_not_prose() -> None:
    """A lost article made of headlines and one-line blurbs does not outweigh the page."""
    cards = "\n\n".join(
        f"## Home side plays visitors on game {n}\n\nHome team (32-31, eighth) vs. Visitors (19-45)"
        for n in range(8)
    )
    _, method = _choose(cards, _THREAD, ArticleClaim.NONE)
    assert method == "page"


def test_short_lost_paragraph_is_prose() -> None:
    """One lost paragraph of real prose is kept even though it is short."""
    paragraph = " ".join(
        ["Our goal with these quarterly open threads is to let readers ask us"] * 5
    )
    _, method = _choose(paragraph, _THREAD, ArticleClaim.GENERIC)
    assert method == "readability"


def test_story_beside_a_teaser_column_is_kept() -> None:
    """A story that claims nothing but holds three quarters of the page text is the article."""
    teasers = "\n\n".join(
        f"## Other story {n}\n\nA short summary line of another story on the site."
        for n in range(7)
    )
    page = _STORY + "\n\n" + teasers
    text, method = _choose(_STORY, page, ArticleClaim.NONE)
    assert method == "readability"
    assert text == _STORY


_BIO = " ".join(
    f"Born in 198{n}, she has been an editor here since 2015, working as a layout artist, "
    "graphic designer and proofreader, and studied German and art history at university."
    for n in range(3)
)


def test_an_article_below_the_story_gives_way_to_the_page() -> None:
    """readability's pick that sits below the story's paragraphs in the page text loses."""
    page = f"# Bridge\n\n{_STORY}\n\n{_BIO}"
    text, method = _choose(_BIO, page, ArticleClaim.GENERIC)
    assert method == "page"
    assert text == page


def test_a_short_lead_above_the_article_keeps_it() -> None:
    """A lead paragraph above the article is not a story the article sits below."""
    lead = (
        "The city will replace the old bridge over the river by next autumn, the council "
        "said on Monday, after two years of debate over its cost and its design."
    )
    story = "\n\n".join(_STORY.split("\n\n")[:2])
    page = f"# Bridge\n\n{lead}\n\n{story}"
    _, method = _choose(story, page, ArticleClaim.NEWS)
    assert method == "readability"


_STORY_HTML = " ".join(
    f"<p>Sentence {n}, of the council report, explains how the new tram line will run.</p>"
    for n in range(15)
)
_NEWS_CLAIM = (
    '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Trams"}</script>'
)


def test_a_story_that_surely_wins_skips_the_page_extraction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A story holding its share of every word the page could give is chosen unpruned."""

    def page_extraction(*args: object) -> None:
        raise AssertionError("the page extraction ran for a story that wins anyway")

    monkeypatch.setattr(html_module, "prune_boilerplate", page_extraction)
    page = (
        f"<html><head>{_NEWS_CLAIM}</head><body><nav><a href='/'>Home</a></nav>"
        f"<article>{_STORY_HTML}</article></body></html>"
    )
    result = extract_html(page)
    assert result.method == "readability"
    assert "Sentence 14, of the council report" in result.text


def test_a_story_that_may_lose_still_meets_the_page_extraction() -> None:
    """Without an article claim, a story beside a large listing is weighed against it."""
    links = "".join(
        f"<li><a href='/p/{n}'>Product {n}</a> in stock, ships in two days</li>" for n in range(150)
    )
    page = (
        f"<html><body><article>{_STORY_HTML}</article><ul class='grid'>{links}</ul></body></html>"
    )
    assert extract_html(page).method == "page"


@pytest.mark.parametrize(
    "markup",
    [
        "<ul><li>one</li><li>two three</li></ul><h2>Title here</h2><pre>x = 1</pre>",
        "<ol start=9><li><h3>Deep</h3><ul><li>nested item</li></ul></li></ol>",
        "<table><tr><th>Name</th><th colspan=3>Wide</th></tr><tr><td>a</td><td></td></tr>"
        "<tr><td>b</td><td>c</td></tr></table>",
        "<p>漢字と<b>かな</b>の文</p><table><tr><td>x</td></tr></table><pre></pre>",
    ],
)
def test_serializing_adds_no_more_words_than_its_bound(markup: str) -> None:
    """Bullets, heading hashes, fences and table pipes stay within the bound that lets a
    winning story skip the page extraction."""
    body = document_fromstring(f"<html><body>{markup}</body></html>").find("body")
    assert body is not None
    assert count_words(serialize(body)) <= word_count(body) + added_words_at_most(body)


def test_an_article_with_much_text_outside_it_meets_the_page_extraction() -> None:
    """The page extraction runs when the page could hold enough prose above the article to
    set it aside, however large the article's share of the page."""
    story = " ".join(
        f"Paragraph {n} of the story tells what the council decided." for n in range(40)
    )
    bio = " ".join(f"Line {n} of the author's biography." for n in range(20))
    root = document_fromstring(f"<html><body><p>{story}</p><p>{bio}</p></body></html>")
    article_text = serialize(root.body[1])
    assert count_words(article_text) >= 0.1 * word_count(root)  # the share a news claim needs
    assert not html_module._article_surely_chosen(article_text, root, None, ArticleClaim.NEWS)


def test_an_article_that_is_nearly_the_whole_page_skips_the_page_extraction() -> None:
    """With too few words outside the article to set it aside, the page extraction is skipped."""
    story = " ".join(
        f"Paragraph {n} of the story tells what the council decided." for n in range(40)
    )
    root = document_fromstring(f"<html><body><p>{story}</p><p>Share this.</p></body></html>")
    article_text = serialize(root.body[0])
    assert html_module._article_surely_chosen(article_text, root, None, ArticleClaim.NEWS)


def _long_line_words_above(body: HtmlElement, min_words: int) -> int:
    """Words of the serialized lines of *min_words* words or more above the line of the
    element with id ``stop``, which starts with the word STOP (after a marker, if any)."""
    total = 0
    for line in serialize(body).splitlines():
        if "STOP" in line.split()[:2]:
            return total
        words = count_words(line)
        total += words if words >= min_words else 0
    raise AssertionError("no stop line")


_TEN = "one two three four five six seven eight nine ten"


@pytest.mark.parametrize(
    "markup",
    [
        f"<div>{_TEN} <nav><a href='/'>Home</a></nav> {_TEN}</div>",
        f"<ul><li><div>{_TEN} nine<br>{_TEN}</div></li></ul>",
        f"<p>{_TEN} <span>{_TEN}</span><aside><p>{_TEN}</p></aside> {_TEN}</p>",
        "<table><tr>"
        + "<td>a</td>" * 10
        + "</tr><tr><td><div>b</div></td>"
        + "<td>c</td>" * 9
        + "</tr></table>",
        f"<ul><li>{_TEN} {_TEN}</li><li>{_TEN} a b c d e f g h i</li></ul>",
        f"<pre>{_TEN}\n{_TEN}</pre><h2>{_TEN} {_TEN}</h2>",
        f"<table role='presentation'><tr><td>{_TEN}</td><td><div>{_TEN} {_TEN}</div>"
        f"<p id='stop'>STOP {_TEN}</p></td></tr><tr><td>a</td><td>b</td></tr></table>",
        f"<div>{_TEN} <span>{_TEN}<div>{_TEN}</div></span> {_TEN}<div>"
        f"<p id='stop'>STOP {_TEN}</p></div>{_TEN} {_TEN}</div>",
    ],
)
def test_long_lines_above_an_element_stay_within_their_bound(markup: str) -> None:
    """However pruning removes one element, the paragraph-length lines written above an
    element hold no more words than the bound the page-extraction skip reads, whether the
    bound walks every element or reads the tree's word counts."""
    stop_markup = "" if "id='stop'" in markup else f"<p id='stop'>STOP {_TEN}</p>"
    page = f"<html><body>{markup}{stop_markup}<p>{_TEN} {_TEN}</p></body></html>"
    for index in range(len(list(document_fromstring(page).iter()))):
        root = document_fromstring(page)
        body = root.find("body")
        stop = root.get_element_by_id("stop")
        bounds = [
            long_line_words_before(root, stop, html_module.PARAGRAPH_MIN_WORDS, words)
            for words in (None, BlockCounts(root).words)
        ]
        removed = list(root.iter())[index]
        if removed is not stop and removed not in set(stop.iterancestors()):
            removed.drop_tree()
        assert _long_line_words_above(body, html_module.PARAGRAPH_MIN_WORDS) <= min(bounds)


def test_short_lines_above_the_article_block_let_the_page_extraction_be_skipped() -> None:
    """A story whose page holds only menus above it and much text below it is chosen without
    the page extraction; a paragraph of prose above it makes the page extraction run."""
    story = " ".join(
        f"Paragraph {n} of the story tells what the council decided." for n in range(40)
    )
    menu = "".join(f"<li><a href='/s/{n}'>Section {n}</a></li>" for n in range(30))
    footer = " ".join(f"Line {n} of the site's long footer text." for n in range(60))
    for above, skipped in (("", True), (f"<p>{footer}</p>", False)):
        root = document_fromstring(
            f"<html><body><ul>{menu}</ul>{above}<div id='story'><p>{story}</p></div>"
            f"<footer><p>{footer}</p></footer></body></html>"
        )
        block = root.get_element_by_id("story")
        article_text = serialize(block)
        assert (
            html_module._article_surely_chosen(article_text, root, None, ArticleClaim.NEWS, None)
            is False
        )
        chosen = html_module._article_surely_chosen(
            article_text, root, None, ArticleClaim.NEWS, block
        )
        assert chosen is skipped


@pytest.mark.parametrize(
    ("ld_type", "claim"),
    [
        ('"NewsArticle"', ArticleClaim.NEWS),
        ('["WebPage", "NewsArticle"]', ArticleClaim.NEWS),
        ('[ "WebPage" , "Article" ]', ArticleClaim.GENERIC),
        ('["WebPage", "CollectionPage"]', ArticleClaim.NONE),
    ],
)
def test_every_type_of_a_json_ld_type_list_is_read(ld_type: str, claim: ArticleClaim) -> None:
    """A JSON-LD ``@type`` list claims an article when any of its types does, not only the
    first."""
    from insomnia_web.extract.signals import article_claim

    page = (
        '<html><head><script type="application/ld+json">'
        f'{{"@context": "https://schema.org", "@type": {ld_type}, "headline": "A"}}'
        "</script></head><body><p>Text.</p></body></html>"
    )
    assert article_claim(document_fromstring(page)) == claim
