"""readability's article on pages made of similar blocks, and its cleaning of the article."""

from __future__ import annotations

from lxml.html import HtmlElement, document_fromstring

from insomnia_web.extract import extract_html
from insomnia_web.extract.counts import text_of
from insomnia_web.extract.parse import parse_html
from insomnia_web.extract.readable import _peers, _TreeDocument, read_article, readable_article

SERVICES = ["Cloud hosting", "Data backup", "Security audits", "Network design"]


def _sentences(topic: str) -> str:
    return (
        f"Our {topic} team plans, builds and runs the service for you, with clear reports, "
        "fixed prices, and a named engineer who answers your calls, day and night, all year."
    )


def _block(topic: str) -> str:
    return (
        "<div class='row'><div class='col'><div class='rich-block'>"
        f"<h2>{topic}</h2><p>{_sentences(topic)}</p><p>{_sentences(topic.lower())}</p>"
        "</div></div></div>"
    )


def _tree(html: str) -> HtmlElement:
    return document_fromstring(html)


SERVICE_PAGE = (
    # CMSs declare og:type "article" on every page, services included.
    "<html><head><meta property='og:type' content='article'></head><body>"
    "<header><a href='/'>Acme</a></header><div class='page'>"
    + "".join(_block(topic) for topic in SERVICES)
    + "</div><footer><p>Acme Ltd.</p></footer></body></html>"
)


def test_one_of_several_similar_blocks_is_a_fragment() -> None:
    """readability's pick among equal blocks built from one template is not the article."""
    assert readable_article(_tree(SERVICE_PAGE)) is None


def test_page_of_similar_blocks_keeps_every_block() -> None:
    """Every section of a page of similar blocks reaches the text, not only one."""
    text = extract_html(SERVICE_PAGE).text
    for topic in SERVICES:
        assert _sentences(topic) in text


def test_article_with_a_short_related_block_is_not_a_fragment() -> None:
    """A long article next to one small block keeps readability's article."""
    body = "".join(f"<p>{_sentences(topic)}</p>" for topic in SERVICES * 3)
    html = (
        "<html><body><article><div class='story'>"
        f"{body}</div></article>{_block('Related offer')}</body></html>"
    )
    article = readable_article(_tree(html))
    assert article is not None
    assert _sentences("Cloud hosting") in " ".join(article.itertext())


def _story(inner: str) -> str:
    return f"<html><body><article><div class='story'>{inner}</div></article></body></html>"


def _step(n: int) -> str:
    return f"Step {n} means checking the pump, the hoses and the seals before the next run."


def test_list_of_sentences_survives_cleaning() -> None:
    """A list whose items are sentences stays in the article (readability scores it below 0)."""
    # Editors often put each point in a list of its own: readability scores each list below 0.
    steps = "</ul><ul>".join(f"<li><p>{_step(n)}</p></li>" for n in range(6))
    body = "".join(f"<p>{_sentences(topic)}</p>" for topic in SERVICES)
    article = readable_article(_tree(_story(f"{body}<ul>{steps}</ul>")))
    assert article is not None
    text = " ".join(article.itertext())
    assert _step(0) in text
    assert _step(5) in text


def test_list_of_links_is_not_a_statement_list() -> None:
    """A list of long links is still dropped by readability's cleaning."""
    links = "</ul><ul>".join(f"<li><p><a href='/a{n}'>{_step(n)}</a></p></li>" for n in range(6))
    body = "".join(f"<p>{_sentences(topic)}</p>" for topic in SERVICES)
    article = readable_article(_tree(_story(f"{body}<ul>{links}</ul>")))
    assert article is not None
    assert _step(0) not in " ".join(article.itertext())


def test_blocks_scoring_below_zero_are_not_peers() -> None:
    """When no candidate scores above zero, no block is taken for a peer of another."""
    blocks = [_tree(f"<div><p>{_sentences(t)}</p></div>").find(".//div") for t in SERVICES]
    candidates = {el: {"content_score": 0.0, "elem": el} for el in blocks}
    assert _peers(candidates, blocks[0]) == []
    candidates[blocks[0]]["content_score"] = 10.0
    candidates[blocks[1]]["content_score"] = 6.0
    assert _peers(candidates, blocks[0]) == [blocks[1]]


def _article_text(inner: str) -> str:
    body = "".join(f"<p>{_sentences(topic)}</p>" for topic in SERVICES)
    article = readable_article(_tree(_story(f"{body}{inner}{body}")))
    assert article is not None
    return " ".join(" ".join(article.itertext()).split())


def test_heading_with_a_header_classed_anchor_survives() -> None:
    """A heading whose anchor link is classed "header" keeps its text in the article."""
    text = _article_text("<h3><a class='header' href='#traits'>Defining a Trait</a></h3>")
    assert "Defining a Trait" in text


def test_heading_with_a_negative_class_survives_cleaning() -> None:
    """A heading whose utility class reads as chrome ("scroll-mt-8") is not cleaned away."""
    text = _article_text("<h3 class='group scroll-mt-8'>Basic Product Data</h3>")
    assert "Basic Product Data" in text


def test_sidebar_block_is_still_dropped() -> None:
    """A block named as chrome inside the story still goes, heading and all."""
    text = _article_text("<div class='sidebar'><h3>Popular now</h3><p>Ten cheap flights</p></div>")
    assert "Popular now" not in text
    assert "Ten cheap flights" not in text


def test_embedded_post_survives() -> None:
    """A quoted post classed after its source ("twitter-tweet") stays in the article."""
    quote = "Delhi has turned into a gas chamber due to smoke from crop burning nearby."
    text = _article_text(f"<blockquote class='twitter-tweet'><p>{quote}</p></blockquote>")
    assert quote in text


def test_section_named_after_its_heading_survives() -> None:
    """A section whose id spells its heading is not dropped for a word in that id."""
    advice = "Your patch will get comments from reviewers; answer each of them politely."
    section = (
        "<section id='respond-to-review-comments'><h2>Respond to review comments</h2>"
        f"<p>{advice}</p></section>"
    )
    assert advice in _article_text(section)


def test_comment_section_is_still_dropped() -> None:
    """A comment thread whose one-word id repeats its heading ("Comments") still goes."""
    section = "<section id='comments'><h2>Comments</h2><p>Great post, thanks a lot!</p></section>"
    assert "Great post" not in _article_text(section)


def test_linked_header_of_an_entry_survives_cleaning() -> None:
    """The linked <header> of each <article> entry (its title) stays with its blurb."""
    entries = "".join(
        f"<article><header><a href='/news/{n}'>Kernel {n}.0 released with faster I/O</a>"
        f"</header><p>{_sentences(topic)}</p></article>"
        for n, topic in enumerate(SERVICES * 2)
    )
    html = f"<html><body><div class='news-list'>{entries}</div></body></html>"
    article = readable_article(_tree(html))
    assert article is not None
    text = " ".join(article.itertext())
    assert "Kernel 0.0 released with faster I/O" in text
    assert "Kernel 7.0 released with faster I/O" in text


def _paragraph(topic: str, n: int) -> str:
    return (
        f"<p>Pick {n} for {topic}: it is quiet, cheap to run, easy to set up, and it comes "
        "with a long warranty, a clear app, local storage, and good support, all year.</p>"
    )


def _sectioned_story(intro_paragraphs: int) -> str:
    intro = "".join(_paragraph("the intro", n) for n in range(intro_paragraphs))
    ranked = "".join(_paragraph("the ranking", n) for n in range(15))
    return (
        "<html><body><nav><a href='/'>Home</a></nav><div class='content-column'>"
        f"<section class='wysiwyg'><div>{intro}</div></section>"
        f"<section class='ranked'><div class='ranked-list'>{ranked}</div></section>"
        "<section class='wysiwyg'><div><h2>Methodology</h2>"
        + _paragraph("the method", 1)
        + "</div></section></div><footer><p>Acme Ltd.</p></footer></body></html>"
    )


def test_story_in_sections_keeps_its_smaller_sections() -> None:
    """The intro and method sections beside a long ranked list stay in the article."""
    article = readable_article(_tree(_sectioned_story(intro_paragraphs=6)))
    assert article is not None
    text = article.text_content()
    assert "the intro" in text
    assert "the method" in text
    assert "the ranking" in text
    assert "Acme Ltd." not in text


def test_short_addition_does_not_lift_the_article() -> None:
    """A single short section beside the main one is not enough to widen the article."""
    article = readable_article(_tree(_sectioned_story(intro_paragraphs=0)))
    assert article is not None
    assert "the method" not in article.text_content()


def test_every_overridden_readability_method_exists_upstream() -> None:
    """Each method our document subclass overrides is still a method of readability's Document.

    The subclass replaces private methods too (``_parse``): a readability release that renames
    one would silently bypass our rule, so the pinned version range is checked here.
    """
    import inspect

    from readability import Document

    from insomnia_web.extract.readable import _TreeDocument

    overridden = [
        name
        for name, value in vars(_TreeDocument).items()
        if inspect.isfunction(value) and name != "__init__"
    ]
    assert len(overridden) >= 9
    missing = [name for name in overridden if not inspect.isfunction(getattr(Document, name, None))]
    assert missing == []


WHITESPACE_TEXTS = [
    "",
    "   ",
    "one",
    "  two words  ",
    "a\tb",
    "a\t  b",
    "a \t\tb",
    "a  \n  b",
    "a\n\n\nb",
    "a\r\n\xa0 b",
    "a\u3000\u3000b\u2028c",
    "a" + " " * 300 + "b",
    "a" + " " * 260 + "\n" + " " * 10 + "b",
    "\n\tlead and trail\t\n",
]


def test_clean_length_is_the_length_of_readabilitys_cleaned_text() -> None:
    """clean_length gives the length readability's ``clean`` would, without cleaning."""
    from readability.readability import clean

    from insomnia_web.extract.readable import clean_length

    for text in WHITESPACE_TEXTS:
        assert clean_length(text) == len(clean(text)), repr(text)


def test_article_lives_in_the_tree_document() -> None:
    """The article's elements come back in the tree's document, with its element classes
    (lxml.html's own parser would make a ``<label>`` a ``LabelElement``)."""
    story = "".join(
        f"<p>Paragraph {n} of the story, long enough to count, with a <label>label</label> "
        "inside, and then some more words, commas, and sentences to score.</p>"
        for n in range(8)
    )
    tree = parse_html(f"<html><body><div class='story'>{story}</div></body></html>")
    assert tree is not None
    article = readable_article(tree)
    assert article is not None
    labels = list(article.iter("label"))
    assert labels
    assert all(type(label) is HtmlElement for label in labels)


def test_readability_words_debug_messages_only_while_its_debug_log_is_on() -> None:
    """Describing an element for a debug line costs nothing unless that line is written."""
    import logging

    from readability import readability as readability_module

    el = document_fromstring("<div id='main' class='story'><p>Words</p></div>").find(".//div")
    log = logging.getLogger("readability.readability")
    assert readability_module.describe(el) == ""
    assert readability_module.text_content(el) == ""
    level = log.level
    log.setLevel(logging.DEBUG)
    try:
        assert "main" in readability_module.describe(el)
        assert readability_module.text_content(el) == "Words"
    finally:
        log.setLevel(level)


def test_readabilitys_text_length_measures_its_cleaned_text() -> None:
    """readability's own text length, now measured without cleaning, is unchanged."""
    from readability import readability as readability_module

    from insomnia_web.extract.readable import _readability_text_length

    el = document_fromstring(
        "<div>  Tabs\t\tand   runs\n\n of   <b>white</b>\n space " + " " * 300 + "end </div>"
    ).find(".//div")
    assert readability_module.text_length is _readability_text_length
    expected = len(readability_module.clean(el.text_content()))
    assert readability_module.text_length(el) == expected


def test_the_article_names_its_block_in_the_tree_it_was_read_from() -> None:
    """read_article names the element of the given tree (not of readability's copy) that
    holds the story, and leaves the tree whole."""
    story = "".join(f"<p>{_sentences(topic)} {_sentences(topic)}</p>" for topic in SERVICES)
    tree = _tree(
        "<html><body><nav><a href='/'>Home</a></nav>"
        f"<div id='main'><h1>Our services</h1><div id='story'>{story}</div></div>"
        "</body></html>"
    )
    found = read_article(tree)
    assert found is not None
    assert found.block is tree.get_element_by_id("story")
    assert len(found.block) == len(SERVICES)


def test_the_unlikely_pass_drops_named_blocks_whole_and_judges_every_sibling_after_them() -> None:
    """A block named as chrome goes with all it holds, and every element after it, nested or
    not, is still judged by its own name."""
    from insomnia_web.extract.readable import _TreeDocument

    tree = _tree(
        "<html><body><div class='sidebar'><p class='content'>Inside</p></div>"
        "<div class='story'><p>Kept</p><div class='comment'>Gone</div>"
        "<div><span class='menu'>Gone too</span><p>Kept too</p></div></div>"
        "<div class='footer'>Last</div></body></html>"
    )
    doc = _TreeDocument(tree)
    doc._html(True)
    doc.remove_unlikely_candidates()
    text = " ".join(doc.html.itertext())
    assert "Inside" not in text
    assert "Gone" not in text
    assert "Last" not in text
    assert "Kept" in text
    assert "Kept too" in text


def test_text_of_reads_what_text_content_reads() -> None:
    """``text_of`` gives an element's ``text_content()``: nested text, inner tails, no own tail,
    an empty leaf's empty text."""
    root = parse_html(
        "<div id=a> One,<b>two <i>deep</i></b> tail &amp; more\n\t"
        "<p>Caf\u00e9 \u4e2d</p><em></em><s>x<!-- note --></s></div>after"
    )
    assert root is not None
    for el in root.iter():
        assert text_of(el) == el.text_content()
    div = root.get_element_by_id("a")
    assert text_of(div) == " One,two deep tail & more\n\tCaf\u00e9 \u4e2dx"


def test_link_density_is_the_linked_share_of_the_text() -> None:
    """readability's link density is the linked share of a block's text, 0 without links."""
    root = parse_html(
        "<div id=plain>Nothing here is linked at all.</div>"
        "<div id=half>Half <a href='/x'>of this</a> is.</div>"
        "<div id=empty>An empty link <a href='/y'></a> links nothing.</div>"
    )
    assert root is not None
    doc = _TreeDocument(root)
    density = {
        key: doc.get_link_density(root.get_element_by_id(key)) for key in ("plain", "half", "empty")
    }
    assert density["plain"] == 0.0
    assert density["empty"] == 0.0
    assert density["half"] == len("of this") / len("Half of this is.")
