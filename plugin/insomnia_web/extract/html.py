"""HTML -> :class:`Extracted`: main content (``readable``) or the whole page text (``full``).

``readable`` runs readability-lxml for the main article and, independently, a boilerplate-
pruned whole-page extraction. When readability kept too little of what the page really holds
(a listing, a forum thread, a product page, documentation), the page extraction wins; how
little is too little depends on whether the page declares itself an article. A prose
article that the page extraction lost altogether (it kept another region, such as a comment
thread) is kept whatever its share; an article that is one post of a thread of post boxes
is set aside for the page extraction. Customer review lists (on a product page, or marked
up review by review) go before either extraction runs. After the choice, a line said twice
is read once; on a product page a sentence that its paragraph repeats and a script's JSON
line go, and a product description that the page declares in JSON-LD but the result lacks
is added. The author and dates the page states come along (:mod:`.article_meta`).
"""

from __future__ import annotations

from typing import Literal

from lxml.html import HtmlElement

from .article_meta import article_meta
from .boilerplate import prune_article, prune_boilerplate
from .clean import strip_invisible
from .forum import drop_forum_chrome, drop_lone_post, is_forum_thread
from .language import page_language
from .lines import finish_lines
from .model import Extracted
from .parse import parse_html
from .product import finish_product_text, read_product
from .readable import readable_article
from .serialize import serialize
from .shop import drop_shop_chrome, may_list_reviews
from .signals import ArticleClaim, article_claim
from .tidy import drop_legal_lines, drop_repeated_blocks
from .title import page_title
from .words import count_words

__all__ = ["extract_html"]

# readability re-reads the text of its candidates many times: past this size it would not
# finish within a fetch deadline, so very large documents get the page extraction alone.
READABILITY_MAX_CHARS = 8_000_000


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


def _prosecount_words(text: str) -> int:
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
    prose = _prosecount_words(article_text) >= LOST_ARTICLE_MIN_PROSE
    if prose and _lost_by_page(article_text, page_text):
        return article_text, "readability"
    return page_text, "page"


def _tidy(content: HtmlElement) -> HtmlElement:
    # The page extraction and a product page's article only: inside one story, repeats (an
    # interview's questions, a meal plan's items) and a wire service's copyright line belong
    # to the text.
    drop_legal_lines(content)
    drop_repeated_blocks(content)
    return content


def extract_html(html: str, *, mode: Literal["readable", "full"] = "readable") -> Extracted:
    """Extract the title and Markdown-like text of an HTML page.

    ``mode="readable"`` keeps the main content; ``mode="full"`` keeps all visible text (only
    scripts, styles and hidden elements are removed).
    """
    root = parse_html(html)
    if root is None:
        return Extracted(title=None, text="", method=mode if mode == "full" else "empty")
    title = page_title(root)
    claim = article_claim(root)
    product = read_product(root)  # JSON-LD, read before scripts are removed
    about = article_meta(root)
    strip_invisible(root)
    language = page_language(root)
    if mode == "full":
        return Extracted(title, serialize(_body(root)), "full", None, *about)
    if product.is_product or may_list_reviews(html):
        drop_shop_chrome(root, is_product=product.is_product)
    thread = is_forum_thread(root)  # every post of a thread is content: page extraction only
    drop_forum_chrome(root)
    article_text = ""
    if len(html) <= READABILITY_MAX_CHARS and not thread:
        article = readable_article(root)  # works on a copy: root stays whole
        if article is not None:
            prune_article(article, language)
            if product.is_product:  # shops print a description twice (mobile, desktop)
                _tidy(article)
            article_text = serialize(article)
    article_text = drop_lone_post(root, article_text)  # one post of a thread is not the page
    page_text = serialize(_tidy(prune_boilerplate(root, language)))
    text, method = _choose(article_text, page_text, claim)
    text = finish_product_text(finish_lines(text), product)
    return Extracted(title, text, method, None, *about)
