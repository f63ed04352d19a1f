"""HTML -> :class:`Extracted`: main content (``readable``) or the whole page text (``full``).

``readable`` runs readability-lxml for the main article and, independently, a boilerplate-
pruned whole-page extraction. When readability kept too little of what the page really holds
(a listing, a forum thread, a product page, documentation), the page extraction wins; how
little is too little depends on whether the page declares itself an article (an article
holding its share of every word the page could give, with too few paragraphs written above its
block to set it aside, wins without the page extraction). A prose
article that the page extraction lost altogether (it kept another region, such as a comment
thread) is kept whatever its share; an article that is one post of a thread of post boxes,
or a block below the story that the page text holds above it, is set aside for the page
extraction. Customer review lists (on a product page, or marked
up review by review) go before either extraction runs. After the choice, a story's closing
calls to subscribe go (:mod:`.closing`), a line said twice is read once; on a product page a
sentence that its paragraph repeats and a script's JSON line go, and a product description
that the page declares in JSON-LD but the result lacks is added, and so is a story's lead
paragraph held in its header, named by its class or standing first under the headline
(:mod:`.lead`). The author and dates the
page states come along (:mod:`.article_meta`).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Literal

from lxml.html import HtmlElement

from .article_meta import article_meta
from .boilerplate import prune_article, prune_boilerplate
from .clean import strip_invisible
from .closing import drop_closing_lines, drop_trailing_heading
from .counts import BlockCounts, word_count
from .declared import parse_ld
from .dedup import finish_lines
from .forum import (
    ForumCounts,
    drop_forum_chrome,
    drop_lone_post,
    is_forum_thread,
    may_mark_posts,
)
from .language import page_language
from .lead import add_lead, story_lead
from .model import Extracted
from .parse import parse_html
from .product import finish_product_text, read_product
from .readable import read_article
from .serialize import added_words_at_most, long_line_words_before, serialize
from .shop import drop_shop_chrome, may_list_reviews
from .signals import ArticleClaim, article_claim, ld_json_texts, typed_items
from .tidy import tidy_blocks
from .title import page_title
from .words import count_words

__all__ = ["BUDGET", "Budget", "extract_html"]


@dataclass(frozen=True)
class Budget:
    """How long one page's extraction may take, and what is given up to keep to it."""

    seconds: float = 2.0
    """CPU seconds of the extracting thread after which the best text so far is returned.

    The budget stops a pathological page burning CPU; the wall clock is the caller's
    deadline (a worker process past it is killed). Measured on the wall clock, a page would
    lose readability whenever the machine is busy, its (niced) worker waits for a core or
    its thread waits for the GIL, and the same page would give a different text under load.
    The clock is read a few times per page only."""
    readability_start_share: float = 0.5
    """Readability is skipped when this share of the budget is spent before it starts."""
    readability_max_chars: int = 8_000_000
    """Readability re-reads its candidates' text many times: past this size of source it would
    not finish within a fetch deadline."""
    readability_max_elements: int = 40_000
    """... nor past this many elements left once scripts and hidden elements are gone."""


BUDGET = Budget()


def _body(root: HtmlElement) -> HtmlElement:
    body = root.find("body")
    return body if body is not None else root


# Readability's article is kept when it holds at least this share of the pruned page's words:
# little is needed when the page declares a news or blog story, more for a generic article
# claim (CMSs put one on every page), much more when the page claims nothing, though not so
# much that a story loses to the teasers or the video playlist its page puts beside it (a
# story holds 70-80% of such a page's words).
_ARTICLE_SHARE = {ArticleClaim.NEWS: 0.1, ArticleClaim.GENERIC: 0.15, ArticleClaim.NONE: 0.7}
# When the page extraction lost readability's article (pruned it as chrome, or kept another
# region such as a comment thread), the two disagree on what the page is about and the
# article wins, whatever its share, if it is prose: at least this many words in paragraphs
# (lines of at least PARAGRAPH_MIN_WORDS words; headlines and card blurbs are shorter) ...
LOST_ARTICLE_MIN_PROSE = 60
PARAGRAPH_MIN_WORDS = 20
# ... and the page text holds less than this share of its sentence lines (this many words or
# more).
LOST_ARTICLE_MAX_KEPT = 0.2
SENTENCE_MIN_WORDS = 8
# An article below the story: readability can score a block after the story (an author
# bio, a donation box, a list of signatories, one of the story's later sections) above the
# story itself. The page text then holds paragraphs of prose above the article's first
# sentence line: at least this many words of them ...
PROSE_ABOVE_MIN_WORDS = 60
# ... and more than this share of the article's words; the page extraction wins then.
PROSE_ABOVE_SHARE = 0.5


def _prose_words(text: str) -> int:
    """Words of *text* in paragraph-length lines."""
    counts = (count_words(line) for line in text.splitlines())
    return sum(n for n in counts if n >= PARAGRAPH_MIN_WORDS)


def _sentence_lines(text: str) -> list[str]:
    """The lines of *text* long enough to be sentences, stripped."""
    return [line.strip() for line in text.splitlines() if count_words(line) >= SENTENCE_MIN_WORDS]


def _lost_by_page(article_text: str, page_text: str) -> bool:
    """True when the page text holds almost none of the article's sentence lines."""
    sentences = _sentence_lines(article_text)
    if not sentences:
        return False
    page_lines = {line.strip() for line in page_text.splitlines()}
    kept = sum(1 for line in sentences if line in page_lines)
    return kept < LOST_ARTICLE_MAX_KEPT * len(sentences)


def _prose_above(article_text: str, page_text: str) -> int | None:
    """Words of the page text's paragraphs above the article's first sentence line, or None
    when the page text holds none of the article's sentence lines."""
    sentences = set(_sentence_lines(article_text))
    above = 0
    for line in page_text.splitlines():
        text = line.strip()
        if text in sentences:
            return above
        words = count_words(text)
        if words >= PARAGRAPH_MIN_WORDS:
            above += words
    return None


def _below_the_story(article_text: str, page_text: str, article_words: int) -> bool:
    """True when the page text holds much of a story's prose above the article."""
    above = _prose_above(article_text, page_text)
    return above is not None and _sets_aside(above, article_words)


def _choose(article_text: str, page_text: str, claim: ArticleClaim) -> tuple[str, str]:
    """Pick readability's article unless it holds too little of the page's content, or sits
    below the story that the page text holds above it.

    An article that the page text lost almost entirely is kept whatever its share.
    """
    article_words = count_words(article_text)  # the page text is counted only beside an article
    if article_words and article_words >= _ARTICLE_SHARE[claim] * count_words(page_text):
        if _below_the_story(article_text, page_text, article_words):
            return page_text, "page"
        return article_text, "readability"
    prose = _prose_words(article_text) >= LOST_ARTICLE_MIN_PROSE
    if prose and _lost_by_page(article_text, page_text):
        return article_text, "readability"
    return page_text, "page"


def _article_surely_chosen(
    article_text: str,
    root: HtmlElement,
    counts: BlockCounts | None,
    claim: ArticleClaim,
    block: HtmlElement | None = None,
) -> bool:
    """True when :func:`_choose` picks the article whatever the page extraction of *root*
    holds, so the page extraction need not run. Pruning only removes text, so an upper
    bound of the page text's words is the words of the whole tree (read from *counts* when
    the caller has counts of it, or counts no lower, element by element) plus those
    serializing may add. The article must hold its share of that bound,
    and the prose the page text could hold above it must fall short of what sets an article
    aside (:func:`_below_the_story`): that prose is at most the words outside the article
    (the bound less the article's own words, which came from the same tree), and at most
    the words of the paragraph-length lines the tree writes before the article's *block*
    (its element in *root*, when readability names one), whatever pruning removes."""
    article_words = count_words(article_text)
    if not article_words:
        return False
    words = counts.words.get(root, 0) if counts is not None else word_count(root)
    added = added_words_at_most(root)
    most = words + added
    if article_words < _ARTICLE_SHARE[claim] * most:
        return False
    if not _sets_aside(most + added - article_words, article_words):
        return True
    if block is None:
        return False
    known = counts.words if counts is not None else None
    above = long_line_words_before(root, block, PARAGRAPH_MIN_WORDS, known)
    return not _sets_aside(above, article_words)


def _sets_aside(prose_above: int, article_words: int) -> bool:
    """True when *prose_above* words of paragraphs above an article of *article_words*
    words set it aside for the page text (:func:`_below_the_story`)."""
    return prose_above >= PROSE_ABOVE_MIN_WORDS and prose_above > PROSE_ABOVE_SHARE * article_words


def _article_or_page(
    article_text: str,
    root: HtmlElement,
    counted: ForumCounts,
    claim: ArticleClaim,
    language: str | None,
    block: HtmlElement | None,
) -> tuple[str, str]:
    """The text and method :func:`_choose` picks, the page extraction of *root* run only
    when the article (read from *block*) is not surely chosen
    (:func:`_article_surely_chosen`, given counts no lower than the tree's)."""
    if article_text and _article_surely_chosen(article_text, root, counted.most, claim, block):
        return article_text, "readability"
    page_text = serialize(_tidy(prune_boilerplate(root, language, counted.exact), language))
    return _choose(article_text, page_text, claim)


def _readability_fits(
    html: str, root: HtmlElement, spent: float, counts: BlockCounts | None = None
) -> bool:
    """True when readability may run on this page within the budget. *counts* of *root*,
    when the caller has them, hold an entry per element (the cleaning left no comment)."""
    if len(html) > BUDGET.readability_max_chars:
        return False
    if spent > BUDGET.readability_start_share * BUDGET.seconds:
        return False
    limit = BUDGET.readability_max_elements
    if counts is not None:
        return len(counts.words) <= limit
    return next(itertools.islice(root.iter(), limit, None), None) is None


def _tidy(content: HtmlElement, language: str | None) -> HtmlElement:
    # The page extraction and a product page's article only: inside one story, repeats (an
    # interview's questions, a meal plan's items) and a wire service's copyright line belong
    # to the text.
    tidy_blocks(content, language)
    return content


def extract_html(
    html: str,
    *,
    mode: Literal["readable", "full"] = "readable",
    content_language: str | None = None,
) -> Extracted:
    """Extract the title and Markdown-like text of an HTML page.

    ``mode="readable"`` keeps the main content; ``mode="full"`` keeps all visible text (only
    scripts, styles and hidden elements are removed).

    The page's language selects the visible-text rules (:mod:`.rules`): ``<html lang>``,
    else a ``Content-Language`` meta tag, else *content_language* (the HTTP header's value),
    else a guess from the text (:mod:`.language`).

    Extraction keeps to a CPU-time budget (:data:`BUDGET`): readability is skipped on a page too
    large for it or when the budget is half spent before it starts, and when the budget runs
    out after it, its article is returned without the page extraction.
    """
    started = time.thread_time()

    def spent() -> float:
        return time.thread_time() - started

    root = parse_html(html)
    if root is None:
        return Extracted(title=None, text="", method=mode if mode == "full" else "empty")
    title = page_title(root)
    ld_texts = list(ld_json_texts(root))  # JSON-LD, read before scripts are removed
    claim = article_claim(root, ld_texts)
    typed = typed_items(root)  # microdata types, read once: later removals add none
    ld_data = parse_ld(ld_texts)  # parsed once for the product and the author-and-dates readers
    product = read_product(root, ld_data, typed)
    about = article_meta(root, ld_data)
    strip_invisible(root)
    if mode == "full":
        return Extracted(title, serialize(_body(root)), "full", None, *about)
    language = page_language(root, content_language)
    lead = story_lead(root)  # read before the header is pruned
    if product.is_product or may_list_reviews(html):
        drop_shop_chrome(root, is_product=product.is_product, language=language)
    posts = may_mark_posts(root, typed)  # most pages mark no post: no walk looks for them
    thread = posts and is_forum_thread(root)  # every post is content: page extraction only
    counted = drop_forum_chrome(root, language, posts=posts)  # its counts, or bounds of them
    counts = counted.exact
    article_text = ""
    block = None
    if _readability_fits(html, root, spent(), counts) and not thread:
        found = read_article(root)  # works on a copy: root stays whole
        if found is not None:
            article, block = found
            prune_article(article, language)
            if product.is_product:  # shops print a description twice (mobile, desktop)
                _tidy(article, language)
            article_text = serialize(article)
    article_text = drop_lone_post(root, article_text)  # one post of a thread is not the page
    if article_text and spent() > BUDGET.seconds:  # out of time: the article is the best so far
        return Extracted(title, finish_lines(article_text), "readability", None, *about)
    text, method = _article_or_page(article_text, root, counted, claim, language, block)
    if not thread:  # a forum post may say anything, a story's prompts go
        text = drop_trailing_heading(drop_closing_lines(text, language))
    text = add_lead(text, lead)
    text = finish_product_text(finish_lines(text), product)
    return Extracted(title, text, method, None, *about)
