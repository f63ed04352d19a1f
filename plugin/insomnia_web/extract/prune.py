"""Pruning steps shared by page and article extraction; each drops one kind of chrome."""

from __future__ import annotations

import functools

from lxml.etree import XPath
from lxml.html import HtmlElement

from .counts import (
    BlockCounts,
    class_and_id,
    growing_word_count,
    link_word_count,
    tag_name,
    word_count,
)
from .listing import CARD_BYLINES, is_card_byline
from .patterns import (
    ARTICLE_EXTRA_RE,
    BOILERPLATE_BLOCKS,
    BOILERPLATE_RE,
    CONTAINER_TAGS,
    DROP_ROLES,
    DROP_TAGS,
    HEADING_TAGS,
    KEEP_RE,
    LINK_BLOCK_TAGS,
    LINK_LINES,
    LINK_LISTS,
    MAX_NAME_CHARS,
    NamePattern,
)
from .rules import matches

__all__ = [
    "drop_article_extras",
    "drop_boilerplate",
    "drop_language_switchers",
    "drop_link_lines",
    "drop_link_lists",
    "drop_titled_sections",
    "names_article_extra",
    "names_boilerplate",
    "names_of",
    "share_below",
]


# Language switchers: a list whose links lead to this many distinct languages.
MIN_SWITCHER_LANGUAGES = 5
_HREFLANG_LINKS = XPath(".//a[@hreflang]")
# A card's title block: its links (a picture and the name) all lead to the item, and it
# holds a heading or is named a title; a block with more links than this is not one card.
MAX_CARD_LINKS = 3
_TITLE_NAME_RE = NamePattern(r"(?:^|[-_ ])(?:title|headline|heading|name)(?:$|[-_ ])")
_HEADING_INSIDE = XPath("boolean(.//h1|.//h2|.//h3|.//h4|.//h5|.//h6)")


def _boilerplate_kind(el: HtmlElement, tag: str, inside_main: bool) -> int:
    """0: content; 1: boilerplate by its tag or role; 2: maybe boilerplate (class, id, form)."""
    if tag == "form":
        return 2  # some sites wrap a whole forum thread or page in a form
    if tag in DROP_TAGS:
        return 1
    if tag in ("header", "footer") and not inside_main:
        return 1
    if not el.attrib:
        return 0  # no role, class or id to name it boilerplate (most paragraphs)
    role = (el.get("role") or "").strip().lower()
    if role in DROP_ROLES:
        return 1
    return 2 if names_boilerplate(el) else 0


def names_of(el: HtmlElement) -> str:
    """*el*'s class and id (:func:`~.counts.class_and_id`), or ``""`` when they are longer
    than names are (:data:`~.patterns.MAX_NAME_CHARS`): every rule that reads an element's
    names reads them through this."""
    features = class_and_id(el)
    return features if len(features) <= MAX_NAME_CHARS else ""


def names_boilerplate(el: HtmlElement) -> bool:
    """True when *el*'s class and id name chrome ("site-footer") and not content ("post")."""
    features = names_of(el)
    return bool(features) and _names_boilerplate(features)


def names_article_extra(el: HtmlElement) -> bool:
    """True when *el*'s class and id name a caption, credit, byline or dateline."""
    features = names_of(el)
    return bool(features) and _names_article_extra(features)


@functools.lru_cache(maxsize=4096)
def _names_boilerplate(features: str) -> bool:
    return bool(BOILERPLATE_RE.search(features)) and not KEEP_RE.search(features)


@functools.lru_cache(maxsize=4096)
def _names_article_extra(features: str) -> bool:
    """True when a class/id string names a caption, credit, byline or dateline."""
    return bool(ARTICLE_EXTRA_RE.search(features)) and not KEEP_RE.search(features)


def _link_box(link: HtmlElement) -> HtmlElement | None:
    """The list that holds *link*: its parent, or the list around its list item."""
    parent = link.getparent()
    if parent is not None and tag_name(parent) == "li":
        parent = parent.getparent()
    return parent


def drop_language_switchers(root: HtmlElement) -> bool:
    """Drop lists of links to the page in other languages (each marked with ``hreflang``).

    Wikis and multilingual sites list every translation of the page by the language's own
    name ("Afrikaans", "Aragonés", ...); the list names languages, not content. A list is
    one when its links lead to at least MIN_SWITCHER_LANGUAGES distinct languages (a site
    that marks all its links ``hreflang="en"`` has one). Returns true when one was dropped.
    """
    by_box: dict[HtmlElement, set[str]] = {}
    for link in _HREFLANG_LINKS(root):
        box = _link_box(link)
        if box is not None and box is not root:
            by_box.setdefault(box, set()).add(str(link.get("hreflang", "")).strip().lower())
    dropped = False
    for box, languages in by_box.items():
        if len(languages) >= MIN_SWITCHER_LANGUAGES and box.getparent() is not None:
            box.drop_tree()
            dropped = True
    return dropped


def drop_boilerplate(
    root: HtmlElement, top: HtmlElement, inside_main: bool, counts: BlockCounts | None = None
) -> None:
    """Drop boilerplate blocks under *root*, except those holding most of *top*'s words.

    A ``<footer>`` stays only inside a story (an ``<article>``, or *root* itself when
    *inside_main* is true), where it holds the story's tags or author; one that sits in the
    main region outside any story is the page's footer, placed there by the template.
    Language switchers go first (:func:`drop_language_switchers`). *counts*, when given,
    are the counts of a tree holding *root* and *top* as it is: words are read from them
    instead of counted again.
    """
    if drop_language_switchers(root):
        counts = None
    words = counts.words if counts is not None else None
    total = words.get(top, 0) if words is not None else word_count(top)
    doomed: list[HtmlElement] = []
    # Walk top-down, skipping subtrees already doomed. Each element carries whether it is
    # inside the main region and whether it is inside a story.
    stack: list[tuple[HtmlElement, bool, bool]] = [(root, inside_main, inside_main)]
    while stack:
        el, inside, in_story = stack.pop()
        tag = tag_name(el)
        if not tag:
            continue
        kind = 0 if el is root or tag in CONTAINER_TAGS else _boilerplate_kind(el, tag, inside)
        if tag == "footer" and not in_story and el is not root:
            kind = 1
        if kind:
            # A class name can mislead (a wrapper called "page-with-sidebar"); a tag or role
            # rarely does. Either way, a block holding the bulk of the page stays.
            rule = BOILERPLATE_BLOCKS
            limit = rule.max_share_by_tag if kind == 1 else rule.max_share_by_class
            if tag == "footer" or (el.get("role") or "").strip().lower() == "contentinfo":
                limit = 1.01  # a page footer is never the content, even on an empty page
            if (
                share_below(el, total, limit, words)
                and el.find(".//main") is None
                and not (kind == 2 and _card_byline(el, words))
            ):
                doomed.append(el)
                continue
        child_inside = inside or tag in ("main", "article")
        child_in_story = in_story or tag == "article"
        for child in reversed(el):
            stack.append((child, child_inside, child_in_story))
    for el in doomed:
        el.drop_tree()


def _card_byline(el: HtmlElement, words: dict[HtmlElement, int] | None) -> bool:
    """True when class-named chrome *el* is a card's byline (:func:`~.listing.is_card_byline`);
    its words are read only as far as a byline's length (a sidebar is not counted whole)."""
    if words is not None:
        return is_card_byline(el, words.get(el, 0))
    limit = CARD_BYLINES.max_words
    count = 0
    for count in growing_word_count(el):
        if count > limit:
            return False
    return is_card_byline(el, count)


def share_below(
    el: HtmlElement, total: int, limit: float, words: dict[HtmlElement, int] | None = None
) -> bool:
    """True when *el* holds less than *limit* of *total* words (its text is read only until
    it holds that much: a wrapper holding the page is not counted to the end), or is read
    from *words* (:attr:`BlockCounts.words`) when they are given."""
    if not total:
        return limit > 0.0
    if words is not None:
        return words.get(el, 0) / total < limit
    return all(count / total < limit for count in growing_word_count(el))


def drop_titled_sections(root: HtmlElement, language: str | None = "en") -> None:
    """Drop sections introduced by a boilerplate heading ("Related articles", "Share this").

    The section is the largest ancestor of the heading that starts with it and holds less
    than a quarter of *root*'s words; a heading without such a wrapper takes the siblings
    that follow it, up to the next heading.
    """
    headings = [
        h
        for h in root.iter(*HEADING_TAGS)
        if matches("closing_heading", language, " ".join(h.text_content().split())[:80])
    ]
    if not headings:
        return
    total = max(word_count(root), 1)
    doomed: list[HtmlElement] = []
    for heading in headings:
        section = heading
        parent = heading.getparent()
        while parent is not None and parent is not root:
            first = next(parent.iter(*HEADING_TAGS), None)
            if first is not heading or word_count(parent) > 0.25 * total:
                break
            section = parent
            parent = parent.getparent()
        doomed.append(section)
        if section is heading:
            for sibling in heading.itersiblings():
                if tag_name(sibling) in HEADING_TAGS:
                    break
                doomed.append(sibling)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()


def drop_link_lists(region: HtmlElement, counts: BlockCounts) -> None:
    """Drop menus, tag clouds and link lists: blocks of many short links and little else.

    Sibling link lists that together hold most of the region are its content (a list of
    articles), and stay; so do all link lists of a region that is mostly links: an index
    page (a sitemap, a directory, a list of teams) is nothing but its lists.
    """
    doomed: list[HtmlElement] = []
    region_words = counts.words.get(region, 0)
    if counts.link_words.get(region, 0) >= LINK_LISTS.index_page_link_share * region_words:
        return
    stack = [region]
    while stack:
        el = stack.pop()
        lists: list[HtmlElement] = []
        for child in el:
            links = counts.links.get(child, 0)
            if not links:  # no link below: no link list either
                continue
            tag = tag_name(child)
            if tag == "a":
                continue
            total = counts.words.get(child, 0)
            if total and tag in LINK_BLOCK_TAGS:
                density = counts.link_words.get(child, 0) / total
                small = total <= LINK_LISTS.max_block_share * region_words
                short_links = total / links <= LINK_LISTS.max_words_per_link
                # One item's linked title is content (tested last: it reads the block).
                if (
                    density > LINK_LISTS.max_link_density
                    and short_links
                    and small
                    and not _is_card_title(child, links)
                    and not is_card_byline(child, total)
                ):
                    lists.append(child)
                    continue
            stack.append(child)
        listed = sum(counts.words.get(child, 0) for child in lists)
        if len(lists) < 2 or listed < LINK_LISTS.content_share * region_words:
            doomed.extend(lists)
    for el in doomed:
        el.drop_tree()


def drop_link_lines(article: HtmlElement) -> None:
    """Drop an article's paragraphs that are mostly a link ("Read more: ...", a related
    story's title), unless together they are a good part of the article (a resource list).
    """
    rule = LINK_LINES
    doomed: list[HtmlElement] = []
    doomed_words = 0
    for paragraph in article.iter("p"):
        words = word_count(paragraph)
        if not words or words > rule.max_words:
            continue
        if link_word_count(paragraph) >= rule.min_link_share * words:
            doomed.append(paragraph)
            doomed_words += words
    if not doomed or doomed_words > rule.max_article_share * word_count(article):
        return
    for paragraph in doomed:
        if paragraph.getparent() is not None:
            paragraph.drop_tree()


def _is_card_title(el: HtmlElement, links: int) -> bool:
    """True when *el* is one item's linked title, not a menu: a ``<span>`` around one link
    (part of a line), or a block whose links all lead to one place (a card's logo and name)
    and that holds a heading or names a title ("Scream 7", "product-title"). A menu's links
    lead to several places, headed or not."""
    if links == 1 and tag_name(el) == "span":
        return True
    anchors = list(el.iter("a")) if links <= MAX_CARD_LINKS else []
    if not anchors or len({a.get("href") for a in anchors}) != 1:
        return False
    if _HEADING_INSIDE(el):
        return True
    names = " ".join(class_and_id(node) for node in (el, *anchors))
    return bool(_TITLE_NAME_RE.search(names))


def drop_article_extras(article: HtmlElement) -> None:
    """Drop captions, credits, bylines and datelines: around an article, not part of it."""
    doomed: list[HtmlElement] = []
    stack = [article]
    while stack:
        el = stack.pop()
        for child in el:
            tag = tag_name(child)
            if not tag:
                continue
            if tag == "figcaption" or names_article_extra(child):
                doomed.append(child)
                continue
            stack.append(child)
    for el in doomed:
        el.drop_tree()
