"""HTML -> :class:`Extracted`: main content (``readable``) or the whole page text (``full``).

``readable`` runs readability-lxml for the main article and, independently, a boilerplate-
pruned whole-page extraction. When readability kept too little of what the page really holds
(a listing, a forum thread, a product page, documentation), the page extraction wins; how
little is too little depends on whether the page declares itself an article. A prose
article that the page extraction lost altogether (it kept another region, such as a comment
thread) is kept whatever its share; an article that is one post of a thread of post boxes
is set aside for the page extraction. Customer review lists (on a product page, or marked
up review by review) go before either extraction runs. After the choice, a story's closing
calls to subscribe go (:mod:`.closing`), a line said twice is read once; on a product page a
sentence that its paragraph repeats and a script's JSON line go, and a product description
that the page declares in JSON-LD but the result lacks is added, and so is a story's lead
paragraph held in its header (:mod:`.lead`). The author and dates the page states come along
(:mod:`.article_meta`).
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
from .closing import drop_closing_lines
from .dedup import finish_lines
from .forum import drop_forum_chrome, drop_lone_post, is_forum_thread
from .language import page_language
from .lead import add_lead, story_lead
from .model import Extracted
from .parse import parse_html
from .product import finish_product_text, read_product
from .readable import readable_article
from .serialize import serialize
from .shop import drop_shop_chrome, may_list_reviews
from .signals import ArticleClaim, article_claim
from .tidy import tidy_blocks
from .title import page_title
from .words import count_words

__all__ = ["BUDGET", "Budget", "extract_html"]


@dataclass(frozen=True)
class Budget:
    """How long one page's extraction may take, and what is given up to keep to it."""

    seconds: float = 2.0
    """Seconds after which the best text so far is returned. Measured on the monotonic clock:
    reading a CPU clock costs a system call that some sandboxes make slow, and a machine too
    busy to give the page its CPU is one where giving up early is right."""
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
# claim (CMSs put one on every page), much more when the page claims nothing.
_ARTICLE_SHARE = {ArticleClaim.NEWS: 0.1, ArticleClaim.GENERIC: 0.15, ArticleClaim.NONE: 0.8}
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


def _prose_words(text: str) -> int:
    """Words of *text* in paragraph-length lines."""
    counts = (count_words(line) for line in text.splitlines())
    return sum(n for n in counts if n >= PARAGRAPH_MIN_WORDS)


def _lost_by_page(article_text: str, page_text: str) -> bool:
    """True when the page text holds almost none of the article's sentence lines."""
    sentences = [
        line.strip()
        for line in article_text.splitlines()
        if count_words(line) >= SENTENCE_MIN_WORDS
    ]
    if not sentences:
        return False
    page_lines = {line.strip() for line in page_text.splitlines()}
    kept = sum(1 for line in sentences if line in page_lines)
    return kept < LOST_ARTICLE_MAX_KEPT * len(sentences)


def _choose(article_text: str, page_text: str, claim: ArticleClaim) -> tuple[str, str]:
    """Pick readability's article unless it holds too little of the page's content.

    An article that the page text lost almost entirely is kept whatever its share.
    """
    article_words = count_words(article_text)
    page_words = count_words(page_text)
    if article_words and article_words >= _ARTICLE_SHARE[claim] * page_words:
        return article_text, "readability"
    prose = _prose_words(article_text) >= LOST_ARTICLE_MIN_PROSE
    if prose and _lost_by_page(article_text, page_text):
        return article_text, "readability"
    return page_text, "page"


def _readability_fits(html: str, root: HtmlElement, spent: float) -> bool:
    """True when readability may run on this page within the budget."""
    if len(html) > BUDGET.readability_max_chars:
        return False
    if spent > BUDGET.readability_start_share * BUDGET.seconds:
        return False
    limit = BUDGET.readability_max_elements
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

    Extraction keeps to a time budget (:data:`BUDGET`): readability is skipped on a page too
    large for it or when the budget is half spent before it starts, and when the budget runs
    out after it, its article is returned without the page extraction.
    """
    started = time.monotonic()

    def spent() -> float:
        return time.monotonic() - started

    root = parse_html(html)
    if root is None:
        return Extracted(title=None, text="", method=mode if mode == "full" else "empty")
    title = page_title(root)
    claim = article_claim(root)
    product = read_product(root)  # JSON-LD, read before scripts are removed
    about = article_meta(root)
    strip_invisible(root)
    if mode == "full":
        return Extracted(title, serialize(_body(root)), "full", None, *about)
    language = page_language(root, content_language)
    lead = story_lead(root)  # read before the header is pruned
    if product.is_product or may_list_reviews(html):
        drop_shop_chrome(root, is_product=product.is_product, language=language)
    thread = is_forum_thread(root)  # every post of a thread is content: page extraction only
    drop_forum_chrome(root, language)
    article_text = ""
    if _readability_fits(html, root, spent()) and not thread:
        article = readable_article(root)  # works on a copy: root stays whole
        if article is not None:
            prune_article(article, language)
            if product.is_product:  # shops print a description twice (mobile, desktop)
                _tidy(article, language)
            article_text = serialize(article)
    article_text = drop_lone_post(root, article_text)  # one post of a thread is not the page
    if article_text and spent() > BUDGET.seconds:  # out of time: the article is the best so far
        return Extracted(title, finish_lines(article_text), "readability", None, *about)
    page_text = serialize(_tidy(prune_boilerplate(root, language), language))
    text, method = _choose(article_text, page_text, claim)
    if not thread:  # a forum post may say anything, a story's prompts go
        text = drop_closing_lines(text, language)
    text = add_lead(text, lead)
    text = finish_product_text(finish_lines(text), product)
    return Extracted(title, text, method, None, *about)
