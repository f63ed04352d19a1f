"""Forum threads: quoted posts, chrome around each post, and who wrote each post when.

A reply that quotes an earlier post (a ``<blockquote>`` or a forum's quote box: phpBB's
``quotecontent``, XenForo's ``bbCodeBlock--quote``, Invision's ``ipsQuote``) prints that
post's words a second time. A long quote whose words also stand elsewhere on the page is
dropped; a short one ("X wrote: yes") stays, since it tells what the reply answers. Either
way the attribution line ("Sam said:") stays, as plain text.

Around each post, forum software prints reaction and like counters, "last edited" notes and
signatures, and above the thread the board's notices; their class names give them away, as
``aria-busy`` gives away a placeholder that scripts fill later. Its action links (reply,
quote, report, the post's number) and the poster's statistics ("Posts: 710") are told by
their whole text, and a date printed in a long and a short form keeps the long one.

Forums print a post's author in a profile column and its date as a link to the post, both of
which pruning removes as chrome. When schema.org microdata marks a post (``Comment``,
``DiscussionForumPosting``) with its author and date, both move into a line right before the
post's text. Runs on the whole page, before either extraction.

A page whose microdata marks several posts holding most of its words is a thread
(:func:`is_forum_thread`): every post is content, so the page extraction alone reads it.
Without microdata, a thread shows its posts as boxes sharing a class that names a post
("post-box", "message"); when readability kept just one of them (:func:`drop_lone_post`),
the page extraction wins.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from lxml.etree import Element, XPath
from lxml.html import HtmlElement

from .counts import BlockCounts, tag_name, word_count
from .dedup import word_runs
from .rules import any_pattern, matches
from .words import word_list

__all__ = [
    "ForumCounts",
    "drop_forum_chrome",
    "drop_lone_post",
    "drop_repeated_quotes",
    "is_forum_thread",
    "may_mark_posts",
]


@dataclass(frozen=True)
class RepeatedQuotes:
    """Quotes repeating another post, and their attribution lines (:func:`drop_repeated_quotes`)."""

    quote_class: re.Pattern[str] = re.compile(
        r"^(?:quote|quotecontent|quotebox|quote_?container|inthreadquotebox|ipsquote|"
        r"bbcode_?quote|bbcodeblock--quote|bbc_standard_quote|ip-ubbcode-quote|post-?quote)$"
    )
    """Class names forum software gives its quote boxes (exact tokens, lowercased): "quote"
    alone, and the BBCode quote blocks of phpBB, vBulletin, XenForo, SMF and Invision."""
    min_words: int = 25
    """A quote shorter than this stays: a line or two tells what the reply answers."""
    run_words: int = 8
    """Quotes are matched against the page in runs of this many words ..."""
    repeat_share: float = 0.5
    """... and dropped when at least this share of their runs stands elsewhere on the page."""
    max_attribution_words: int = 12
    """An attribution ("Sam said:") is short ..."""
    attribution_search_elements: int = 6
    """... and sits among the first few elements of its quote."""


REPEATED_QUOTES = RepeatedQuotes()


# Quick scans before a walk: most pages have no quote and no microdata item. (libxml2's
# XPath reads every element's class more slowly than a loop in Python does.)
_CLASSES = XPath("descendant::*/@class", smart_strings=False)


def _has_quote(root: HtmlElement) -> bool:
    """True when *root* holds a ``<blockquote>`` or a class naming a quote, in any case."""
    if next(root.iterdescendants("blockquote"), None) is not None:
        return True
    return "quote" in " ".join(_CLASSES(root)).lower()


def _marks_posts(root: HtmlElement) -> bool:
    """True when microdata items sit under *root* and one of them, or *root*, is a post.

    Many pages mark an article, a breadcrumb or an organisation, and no post: their tree
    is not walked for posts.
    """
    items = root.iterfind(".//*[@itemscope]")
    first = next(items, None)
    if first is None:
        return False
    return _is_post_item(root) or _is_post_item(first) or any(map(_is_post_item, items))


def may_mark_posts(root: HtmlElement, typed: Iterable[HtmlElement]) -> bool:
    """True when *root* or one of *typed* (its :func:`~.signals.typed_items`, read before
    elements were removed) is a post item.

    When false, no microdata under *root* marks a post: the page is no thread
    (:func:`is_forum_thread`) and has no post bylines to move, with no walk to find out.
    """
    return _is_post_item(root) or any(map(_is_post_item, typed))


def _is_quote(el: HtmlElement) -> bool:
    if tag_name(el) == "blockquote":
        return True
    classes = el.get("class")
    if not classes or "quote" not in classes.lower():
        return False
    return any(REPEATED_QUOTES.quote_class.match(token) for token in classes.lower().split())


def _outer_quotes(root: HtmlElement) -> list[HtmlElement]:
    """Quote elements under *root* that no other quote contains, in document order."""
    return _outermost([el for el in root.iterdescendants(Element) if _is_quote(el)], root)


def _words(texts: Iterable[str]) -> list[str]:
    return word_list(" ".join(texts))


def _shingles(words: list[str]) -> list[tuple[str, ...]]:
    return word_runs(words, REPEATED_QUOTES.run_words)


def _attribution(quote: HtmlElement, language: str | None) -> HtmlElement | None:
    """The element naming who is quoted ("Sam said:"), among the quote's first elements."""
    for seen, el in enumerate(quote.iterdescendants()):
        if seen >= REPEATED_QUOTES.attribution_search_elements:
            return None
        if not tag_name(el) or tag_name(el) == "a":
            continue
        text = " ".join(" ".join(el.itertext()).split())
        if (
            text
            and len(text.split()) <= REPEATED_QUOTES.max_attribution_words
            and matches("quote_attribution", language, text)
        ):
            return el
    return None


def _keep_attribution(quote: HtmlElement, dropping: bool, language: str | None) -> None:
    """Make a quote's attribution plain text, and move it before the quote if that goes.

    A lone linked name reads as a menu and would be pruned with the link lists.
    """
    line = _attribution(quote, language)
    if line is None:
        return
    for link in list(line.iter("a")):
        link.drop_tag()
    if dropping:
        line.tail = None  # the quoted words after it go with the quote
        quote.addprevious(line)


def drop_repeated_quotes(root: HtmlElement, language: str | None = "en") -> bool:
    """Drop long quotes under *root* whose words the page (its whole tree) also holds elsewhere.

    *language* selects the phrases of attribution lines (``quote_attribution``). Returns
    false when *root* holds no quote (the tree is left as it was).
    """
    if not _has_quote(root):
        return False
    quotes = _outer_quotes(root)
    if not quotes:
        return False
    doomed = _repeated(root, quotes)
    for quote in quotes:
        _keep_attribution(quote, quote in doomed, language)
    for quote in doomed:
        quote.drop_tree()
    return True


def _repeated(root: HtmlElement, quotes: list[HtmlElement]) -> list[HtmlElement]:
    """The long quotes whose words the page (its whole tree) also holds elsewhere."""
    quoted = [(quote, _words(quote.itertext())) for quote in quotes]
    quoted = [(quote, words) for quote, words in quoted if len(words) >= REPEATED_QUOTES.min_words]
    if not quoted:
        return []
    page = root.getroottree().getroot()
    counts = Counter(_shingles(_words(page.itertext())))
    doomed = []
    for quote, words in quoted:
        runs = _shingles(words)
        repeated = sum(1 for run in runs if counts[run] >= 2)
        if runs and repeated >= REPEATED_QUOTES.repeat_share * len(runs):
            doomed.append(quote)
    return doomed


# schema.org types of one post in a thread (microdata ``itemtype``, last path segment).
_POST_TYPES = frozenset(("comment", "discussionforumposting"))
_TEXT_PROPS = frozenset(("text", "articlebody"))


@dataclass(frozen=True)
class Bylines:
    """Each post's author and date, moved before its text (:func:`keep_post_bylines`)."""

    max_name_words: int = 6
    """A poster's name or a date longer than this is not one (a profile card marked author)."""
    max_elements: int = 16
    """... nor is an element with more descendants than this."""


BYLINES = Bylines()


def _props(el: HtmlElement) -> set[str]:
    return set((el.get("itemprop") or "").lower().split())


def _item_kind(el: HtmlElement) -> str:
    """The schema.org type of a microdata item ("comment"), or ``""`` for other elements."""
    if el.get("itemscope") is None:
        return ""
    return (el.get("itemtype") or "").rstrip("/").rpartition("/")[2].lower()


def _is_post_item(el: HtmlElement) -> bool:
    return _item_kind(el) in _POST_TYPES


def _short_text(el: HtmlElement, max_words: int = BYLINES.max_name_words) -> str | None:
    """The words of a small element (a name, a date), or ``None`` when it is not small.

    An element with :attr:`Bylines.max_elements` descendants or more is not read (its
    descendants are counted only that far), so a deep tree marked as author stays linear.
    """
    if tag_name(el) == "meta":
        return " ".join((el.get("content") or "").split())  # a name only machines see
    holder, depth = _text_holder(el)
    if holder is None:
        return None  # a chain of more than max_elements lone children
    if not len(holder):  # a leaf, as most elements are: its own text is all there is
        words = " ".join((holder.text or "").split())
        return words if words.count(" ") < max_words else None
    beyond = itertools.islice(holder.iterdescendants(), BYLINES.max_elements - 1 - depth, None)
    if next(beyond, None) is not None:
        return None  # the element and its descendants are more than max_elements
    words = " ".join(" ".join(holder.itertext()).split())
    return words if len(words.split()) <= max_words else None


def _text_holder(el: HtmlElement) -> tuple[HtmlElement | None, int]:
    """The element under *el* that holds all its text, and how deep it is, or ``None``.

    Walks down lone children with no text beside them (the link of a list item, the span
    of a link): the text of *el* is that of the last one. ``None`` when the chain is
    :attr:`Bylines.max_elements` deep or more.
    """
    node, depth = el, 0
    while len(node) == 1 and (not node.text or node.text.isspace()):
        child = node[0]
        if not tag_name(child) or (child.tail and not child.tail.isspace()):
            break
        node, depth = child, depth + 1
        if depth >= BYLINES.max_elements:
            return None, depth
    return node, depth


def _take_text(el: HtmlElement) -> str:
    """Return the words of a small element and empty it (its tail stays)."""
    words = _short_text(el) or ""
    for child in list(el):
        el.remove(child)
    el.text = None
    return words


class _Byline:
    """What microdata says about one post: its author's name, its date, its text element."""

    def __init__(self) -> None:
        self.name: HtmlElement | None = None
        self.date: HtmlElement | None = None
        self.text: HtmlElement | None = None


def _bylines(root: HtmlElement) -> list[_Byline]:  # noqa: C901
    """One top-down walk collecting author name, visible date and text element per post item."""
    found: list[_Byline] = []
    if not _marks_posts(root):
        return found
    stack: list[tuple[HtmlElement, _Byline | None, bool]] = [(root, None, False)]
    while stack:
        el, post, in_author = stack.pop()
        if _is_post_item(el):
            post = _Byline()
            found.append(post)
            in_author = False
        elif post is not None:
            props = _props(el)
            if "author" in props:
                in_author = True
                if post.name is None and el.get("itemscope") is None and _short_text(el):
                    post.name = el
            if in_author and "name" in props and post.name is None and _short_text(el):
                post.name = el
            # A <meta> date or text is machine-readable only, not what readers see.
            visible = tag_name(el) != "meta"
            if not in_author and "datepublished" in props and post.date is None:
                post.date = el if visible and _short_text(el) else None
            if not in_author and props & _TEXT_PROPS and post.text is None and visible:
                post.text = el
        for child in reversed(el):
            if tag_name(child):
                stack.append((child, post, in_author))
    return found


def keep_post_bylines(root: HtmlElement) -> bool:
    """Put each post's author name and date (from microdata) right before its text.

    Forums print the poster in a side column (a profile card) and the date as a link to the
    post; pruning drops both as chrome, yet a thread without them no longer says who said
    what when. Returns true when a line was moved.
    """
    moved = False
    for post in _bylines(root):
        if post.text is None or (post.name is None and post.date is None):
            continue
        line = post.text.makeelement("p", {})
        line.text = _take_text(post.name) if post.name is not None else ""
        if post.date is not None:
            br = line.makeelement("br", {})
            br.tail = _take_text(post.date)
            line.append(br)
        post.text.addprevious(line)
        moved = True
    return moved


@dataclass(frozen=True)
class PostChrome:
    """What forum software prints around each post (:func:`drop_post_chrome`)."""

    chrome_class: re.Pattern[str] = re.compile(
        r"(?<!\S)(?:reactionsbar|reactionsummary|[\w-]*reaction-bar|ipsreact|post-?likes|"
        r"likessummary|like_?count|like-count|reaction-count|message-lastedit|"
        r"post-?signature|message-signature|signaturecontainer|extrauserinfo|"
        r"notices|js-notices|alert-dismissible|ai-?summary(?:-[\w-]+)?)(?!\S)"
    )
    """Class names (exact tokens, lowercased): reaction and like counters, "last edited"
    notes, signatures, a poster's statistics (XenForo 1's ``extraUserInfo``), the board's
    notices, a machine-written summary of the thread."""
    max_share: float = 0.5
    """A block holding more than this share of the page is never chrome."""
    max_control_words: int = 12
    """A control ("Reply") or a poster's statistic ("Posts: 710") is a few words at most."""
    control_tags: frozenset[str] = frozenset(("a", "span", "li", "p", "div", "dd", "dl"))
    post_number: re.Pattern[str] = re.compile(r"^#\d{1,6}$")
    """A post's number linking to the post itself ("#12"); a rank in a list is no link."""


POST_CHROME = PostChrome()


def _is_chrome(el: HtmlElement) -> bool:
    """True when *el* is a placeholder or its class or id names post chrome, or it is the
    short form of a date (:func:`_is_short_variant`)."""
    if not el.attrib:
        return False  # most elements: nothing to read
    if el.get("aria-busy") == "true":
        return True  # a placeholder that scripts fill later (related threads): not yet content
    classes = el.get("class")
    if classes is not None and _names_chrome(classes):
        return True
    ident = el.get("id")  # a name of chrome is one token: class and id are read apart
    if ident is not None and _names_chrome(ident):
        return True
    return classes is not None and "short" in classes and _is_short_variant(el)


@functools.lru_cache(maxsize=4096)
def _names_chrome(names: str) -> bool:
    """True when a class or id value names post chrome (a page repeats a few names)."""
    return POST_CHROME.chrome_class.search(names.lower()) is not None


class _Controls:
    """Tells post controls and poster statistics (:func:`_is_control`) on one tree, whose
    elements' words are *words*, with the pattern of both rules' *phrases* in the page's
    language (:func:`.rules.any_pattern`)."""

    def __init__(self, words: dict[HtmlElement, int], phrases: re.Pattern[str] | None) -> None:
        self.words = words
        self.phrases = phrases
        self.texts: dict[HtmlElement, str] = {}  # the texts read, by element

    def text(self, el: HtmlElement, words: int) -> str | None:
        """:func:`_short_text` of *el* (holding *words* words): its parent's when that was
        read and holds no other word (the rest of its text is whitespace), else read."""
        parent = el.getparent()
        text = self.texts.get(parent) if self.words.get(parent) == words else None
        if text is None:
            text = _short_text(el, POST_CHROME.max_control_words)
            if text:
                self.texts[el] = text
        return text


def _is_control(el: HtmlElement, words: int, controls: _Controls) -> bool:
    """True when *el* (holding *words* words) is a post control or a poster statistic.

    Without phrases in the page's language only a post's number can be a control, and only
    links are read.
    """
    tag = tag_name(el)
    if not 0 < words <= POST_CHROME.max_control_words or tag not in POST_CHROME.control_tags:
        return False
    phrases = controls.phrases
    if phrases is None and tag != "a":
        return False
    if el.tail and el.tail.strip():
        return False  # words right after it: a phrase inside a sentence
    text = controls.text(el, words)
    if not text:
        return False
    if tag == "a" and POST_CHROME.post_number.match(text):
        return True
    return phrases is not None and phrases.fullmatch(text) is not None


_CONTROL_RULES = ("post_control", "poster_stat")


def _is_short_variant(el: HtmlElement) -> bool:
    """A date's short form ("1 yr") printed beside its long form ("June 14, 2024").

    Responsive pages put both in one ``<time>`` and show one by CSS; the long one is kept.
    """
    if "short" not in el.get("class", ""):
        return False
    parent = el.getparent()
    if parent is None or tag_name(parent) != "time":
        return False
    return any("long" in sibling.get("class", "") for sibling in el.itersiblings(preceding=True))


def drop_post_chrome(root: HtmlElement, language: str | None = "en") -> BlockCounts | None:
    """Drop reaction bars, like counts, edit notes, signatures and notices around posts,
    post controls (reply, quote, report) and the short form of a date.

    *language* selects the phrases of controls and statistics (``post_control``,
    ``poster_stat``); the class names and the post number apply to every page. Returns the
    counts of *root* when nothing was dropped (they still hold for the tree), else ``None``.
    """
    counts, dropped = _drop_post_chrome(root, language)
    return None if dropped else counts


def _drop_post_chrome(root: HtmlElement, language: str | None) -> tuple[BlockCounts, bool]:
    """:func:`drop_post_chrome`, returning the counts of *root* as they were before, and
    whether anything was dropped."""
    counts = BlockCounts(root, links=False)  # links counted only if the page extraction asks
    words = counts.words
    limit = POST_CHROME.max_share * words.get(root, 0)
    phrases = any_pattern(_CONTROL_RULES, language)  # the same as matches_any, looked up once
    controls = _Controls(words, phrases)
    doomed = []
    for el in root.iterdescendants(Element):  # lxml's own loop: most elements match nothing
        n = words.get(el, 0)
        if n > limit:
            continue
        # The word count first: most elements are more than a few words, or none.
        short = 0 < n <= POST_CHROME.max_control_words
        if (short and _is_control(el, n, controls)) or _is_chrome(el):
            doomed.append(el)
    for el in _outermost(doomed, root):
        el.drop_tree()
    return counts, bool(doomed)


def _outermost(elements: list[HtmlElement], root: HtmlElement) -> list[HtmlElement]:
    """Those of *elements* (in document order) that no other of them contains.

    Each ancestor is looked at once (answers are remembered), so deep trees stay linear.
    """
    chosen = set(elements)
    covered: dict[HtmlElement, bool] = {root: False}
    result = []
    for el in elements:
        path = []
        node = el.getparent()
        while node is not None and node not in covered:
            path.append(node)
            node = node.getparent()
        inside = covered.get(node, False) if node is not None else False
        for ancestor in reversed(path):
            inside = inside or ancestor in chosen
            covered[ancestor] = inside
        if not inside:
            result.append(el)
        covered[el] = True
    return result


@dataclass(frozen=True)
class Thread:
    """A page that is a forum thread (:func:`is_forum_thread`)."""

    min_posts: int = 3
    """At least this many posts are marked ..."""
    min_share: float = 0.5
    """... and hold at least this share of its words (comments under a story hold less)."""


THREAD = Thread()


def is_forum_thread(root: HtmlElement) -> bool:
    """True when microdata marks several posts holding most of the page's words.

    A question-and-answer page (one with an ``Answer`` item) is not counted: there the
    article extraction finds the question and its answers.
    """
    if not _marks_posts(root):
        return False
    outer: list[HtmlElement] = []  # posts not inside another (a thread wraps its replies)
    count = 0
    stack: list[tuple[HtmlElement, bool]] = [(root, False)]
    while stack:
        el, inside = stack.pop()
        kind = _item_kind(el)
        if kind:
            if kind == "answer":
                return False
            if kind in _POST_TYPES:
                count += 1
                if not inside:
                    outer.append(el)
                inside = True
        stack.extend((child, inside) for child in el if tag_name(child))
    if count < THREAD.min_posts:
        return False
    return sum(word_count(post) for post in outer) >= THREAD.min_share * word_count(root)


class ForumCounts(NamedTuple):
    """Word counts of the tree that :func:`drop_forum_chrome` cleaned."""

    exact: BlockCounts | None
    """The tree's counts, when the cleanup left the tree as it was."""
    most: BlockCounts | None
    """Counts no lower than the tree's words, element by element: the exact ones, or those
    read before a cleanup that only removed text (dropped elements, merged text nodes);
    ``None`` when it also moved text (a byline taken from an attribute)."""


def drop_forum_chrome(
    root: HtmlElement, language: str | None = "en", *, posts: bool = True
) -> ForumCounts:
    """Drop what a forum thread repeats or wraps around its posts, in place.

    *language* (a primary subtag) selects the visible-text rules; ``None`` applies none.
    *posts* false says that no microdata marks a post (:func:`may_mark_posts`): no byline
    is looked for. Returns the counts of *root* (:class:`ForumCounts`): exact when the tree
    was left as it was (most pages that are no thread), so the page extraction need not
    count its words again, and an upper bound of every element's words when only text was
    removed.
    """
    counts, dropped = _drop_post_chrome(root, language)
    quoted = drop_repeated_quotes(root, language)
    moved = keep_post_bylines(root) if posts else False
    if moved:
        return ForumCounts(None, None)
    return ForumCounts(None if quoted or dropped else counts, counts)


# A class token naming one post of a thread: "post", "message", "reply", alone or in a
# compound ("post-box", "h-reply-post-box", "message-inner"); split on "-" and "_".
_POST_CLASS_PARTS = frozenset(("post", "message", "reply"))


@dataclass(frozen=True)
class LostThread:
    """Readability kept one post of a thread of post boxes (:func:`drop_lone_post`)."""

    min_posts: int = 3
    """A thread shows at least this many posts ..."""
    kept_share: float = 0.8
    """... a post counts as kept when this share of its words stands in the article ..."""
    ratio: float = 2.0
    """... and readability lost the thread when it kept exactly one post (an article with
    replies below it keeps none), while the posts hold this many times the article's words."""


LOST_THREAD = LostThread()


@functools.lru_cache(maxsize=4096)
def _post_token(classes: str) -> str:
    """The first token of a ``class`` value naming a post ("post-box"), or ``""``.

    Only a value holding one of the words as written ("post", not "Post") is read.
    """
    if not any(part in classes for part in _POST_CLASS_PARTS):
        return ""
    for token in classes.lower().split():
        if _POST_CLASS_PARTS.intersection(re.split(r"[-_]", token)):
            return token
    return ""


def _thread_posts(root: HtmlElement) -> list[HtmlElement]:
    """The largest group of elements sharing a tag and a post class token, outermost only.

    Each post of a thread is one such element; of the groups (post boxes, their bodies,
    their signatures) the one holding the most words is the posts themselves.
    """
    groups: dict[tuple[str, str], list[HtmlElement]] = {}
    for el in root.iterdescendants(Element):
        classes = el.get("class")
        if not classes or not ("post" in classes or "message" in classes or "reply" in classes):
            continue  # the words of _POST_CLASS_PARTS, tested inline: most values hold none
        token = _post_token(classes)
        if token:
            groups.setdefault((tag_name(el), token), []).append(el)
    best: list[HtmlElement] = []
    best_words = 0
    for members in groups.values():
        posts = _outermost(members, root)
        if len(posts) < LOST_THREAD.min_posts:
            continue
        words = sum(word_count(post) for post in posts)
        if words > best_words:
            best, best_words = posts, words
    return best


def drop_lone_post(root: HtmlElement, article_text: str) -> str:
    """Readability's *article_text*, or ``""`` when it kept one post of a thread on *root*.

    Readability picks the densest block; on a thread whose posts stand in boxes of their
    own, that is the longest post, and the other replies are lost. The page extraction
    reads them all. A question-and-answer page keeps its answers in one block, so there
    readability kept them all and stays; a story with comments below keeps no post and stays.
    """
    if not article_text:
        return article_text
    posts = _thread_posts(root)
    if not posts:
        return article_text
    article = Counter(word_list(article_text))
    kept = 0
    total = 0
    for post in posts:
        words = _words(post.itertext())
        total += len(words)
        present = Counter(words) & article
        if words and sum(present.values()) >= LOST_THREAD.kept_share * len(words):
            kept += 1
    if kept == 1 and total >= LOST_THREAD.ratio * sum(article.values()):
        return ""
    return article_text
