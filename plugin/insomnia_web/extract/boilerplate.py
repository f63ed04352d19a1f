"""Whole-page extraction with boilerplate removed: for pages that are not one article.

Listings, forum threads, product pages, documentation and collections spread their content
over many similar blocks; an article extractor keeps one of them. Here the page is kept
whole and pruned instead: navigation, headers and footers, sidebars, forms, cookie and
consent banners, share widgets and link-dense blocks go; the rest stays. When the page marks
its main region (``<main>``, ``role=main``) and that region holds the content, only it is kept.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

__all__ = ["prune_article", "prune_boilerplate"]

_DROP_TAGS = frozenset(("nav", "aside", "button", "select", "input", "textarea", "label"))
_DROP_ROLES = frozenset(
    [
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "search",
        "dialog",
        "alertdialog",
        "menu",
        "menubar",
        "toolbar",
    ]
)
_BOILERPLATE_RE = re.compile(
    r"(?:^|[-_ ])(?:nav|navbar|navigation|menu|menubar|submenu|megamenu|footer|site-?footer|"
    r"page-?footer|masthead|site-?header|global-?header|topbar|top-?bar|header-?bar|sidebar|"
    r"side-?bar|breadcrumbs?|crumbs|cookies?|cookie-?banner|consent|gdpr|"
    r"share|sharing|social|social-?links|share-?buttons|newsletter|subscribe|subscription|"
    r"signup|sign-?up|related|related-?posts|recommended|popular|trending|promo|advert|ads|"
    r"ad-?slot|adsbygoogle|sponsor|sponsored|popup|modal|overlay|skip-?link|"
    r"pagination|pager|comment-?form|comments|comment-?list|commentlist|comment-?section|reviews?|ratings?|recommendations?|respond|disqus|toolbar|tags|tag-?cloud|author-?bio|"
    r"language-?switcher|lang-?switch|search-?form|searchbox|search-?bar|offcanvas|"
    r"off-?canvas|drawer|visually-?hidden|sr-only|screen-?reader-?text|print-?only)"
    r"(?:$|[-_ ])",
    re.I,
)
_KEEP_RE = re.compile(
    r"(?:^|[-_ ])(?:main|content|article|post|body|entry|thread)(?:$|[-_ ])", re.I
)
_ARTICLE_EXTRA_RE = re.compile(
    r"(?:^|[-_ ])(?:caption|captions|credit|credits|byline|bylines|dateline|timestamp|"
    r"published|updated|author-?info|author-?name|photo-?credit|image-?credit|wp-caption-text)"
    r"(?:$|[-_ ])",
    re.I,
)
_MAX_SHARE_BY_TAG = 0.85
_MAX_SHARE_BY_CLASS = 0.25
# <main> (or role=main) is the content region when it holds at least this share of the page.
_MIN_MAIN_SHARE = 0.5
# Link lists: most words inside links, and few words per link.
_MAX_LINK_DENSITY = 0.9
_MAX_WORDS_PER_LINK = 4
# A link-dense block holding more than this share of the region is searched, not dropped.
_MAX_LINK_BLOCK_SHARE = 0.3
# The content region narrows to a child holding this share of its words (linked words count
# for half: a list of cards is content, a menu beside the text is not).
_NARROW_SHARE = 0.9
_LINKED_WEIGHT = 0.5
_HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_EXTRA_HEADING_RE = re.compile(
    r"^(?:related(?: \w+)?|you (?:may|might) also (?:like|enjoy)|recommended(?: for you)?|"
    r"more (?:from|stories|articles|news|like this)|(?:most )?popular(?: \w+)?|trending(?: \w+)?|"
    r"read (?:more|next)|up next|latest (?:news|posts|articles|stories)|recent posts|"
    r"share(?: this)?(?: \w+)?|follow us|sign up.*|subscribe.*|(?:our )?newsletter|"
    r"(?:leave a|post a) (?:reply|comment)|comments?|\d+ comments?|"
    r"join the (?:discussion|conversation)|"
    r"about the author|tags|categories|archives|"
    r"customers (?:also|who) .*|frequently bought together|similar (?:products|items))[\s:.!?]*$",
    re.I,
)
_LINK_BLOCK_TAGS = frozenset(("ul", "ol", "div", "section", "table", "p", "dl", "span", "li"))
_CONTAINER_TAGS = frozenset(("html", "body", "main", "article"))


def _tag(el: HtmlElement) -> str:
    tag = el.tag
    return tag.rpartition("}")[2].lower() if isinstance(tag, str) else ""


def _text_len(el: HtmlElement) -> int:
    return len("".join(el.itertext()).split())


def _features(el: HtmlElement) -> str:
    return f"{el.get('class', '')} {el.get('id', '')}".strip()


def _boilerplate_kind(el: HtmlElement, tag: str, inside_main: bool) -> int:
    """0: content; 1: boilerplate by its tag or role; 2: maybe boilerplate (class, id, form)."""
    if tag == "form":
        return 2  # some sites wrap a whole forum thread or page in a form
    if tag in _DROP_TAGS:
        return 1
    if tag in ("header", "footer") and not inside_main:
        return 1
    role = (el.get("role") or "").strip().lower()
    if role in _DROP_ROLES:
        return 1
    features = _features(el)
    if not features or len(features) > 400:
        return 0
    if not _BOILERPLATE_RE.search(features) or _KEEP_RE.search(features):
        return 0
    return 2


class _Counts:
    """Words, words inside links and number of links under each element (one pass)."""

    def __init__(self, root: HtmlElement) -> None:
        self.words: dict[HtmlElement, int] = {}
        self.link_words: dict[HtmlElement, int] = {}
        self.links: dict[HtmlElement, int] = {}
        for el in reversed(list(root.iter())):
            if not isinstance(el.tag, str):
                continue
            total = len(el.text.split()) if el.text else 0
            linked = 0
            links = 0
            for child in el:
                if not isinstance(child.tag, str):
                    continue
                total += self.words.get(child, 0)
                linked += self.link_words.get(child, 0)
                links += self.links.get(child, 0)
                if child.tail:
                    total += len(child.tail.split())
            if el.tag == "a":
                linked = total
                links += 1
            self.words[el] = total
            self.link_words[el] = linked
            self.links[el] = links


def _main_region(root: HtmlElement, words: dict[HtmlElement, int]) -> HtmlElement:
    body = root.find("body")
    if body is None:
        body = root
    total = words.get(body, 0)
    best = None
    for el in body.iter("main", "article", "div", "section"):
        is_main = el.tag == "main" or (el.get("role") or "").lower() == "main"
        if is_main and words.get(el, 0) >= _MIN_MAIN_SHARE * total:
            best = el
            break
    return best if best is not None else body


def _drop_boilerplate(root: HtmlElement, top: HtmlElement, inside_main: bool) -> None:
    """Drop boilerplate blocks under *root*, except those holding most of *top*'s words."""
    total = _word_count(top)
    doomed: list[HtmlElement] = []
    # Walk top-down, skipping subtrees already doomed.
    stack: list[tuple[HtmlElement, bool]] = [(root, inside_main)]
    while stack:
        el, inside = stack.pop()
        tag = _tag(el)
        if not tag:
            continue
        kind = 0 if el is root or tag in _CONTAINER_TAGS else _boilerplate_kind(el, tag, inside)
        if kind:
            # A class name can mislead (a wrapper called "page-with-sidebar"); a tag or role
            # rarely does. Either way, a block holding the bulk of the page stays.
            share = _word_count(el) / total if total else 0.0
            limit = _MAX_SHARE_BY_TAG if kind == 1 else _MAX_SHARE_BY_CLASS
            if share < limit and el.find(".//main") is None:
                doomed.append(el)
                continue
        child_inside = inside or tag in ("main", "article")
        for child in reversed(el):
            stack.append((child, child_inside))
    for el in doomed:
        el.drop_tree()


def _drop_titled_extras(root: HtmlElement) -> None:
    """Drop sections introduced by a boilerplate heading ("Related articles", "Share this").

    The section is the largest ancestor of the heading that starts with it and holds less
    than a quarter of *root*'s words; a heading without such a wrapper takes the siblings
    that follow it, up to the next heading.
    """
    headings = [
        h
        for h in root.iter("h1", "h2", "h3", "h4", "h5", "h6")
        if _EXTRA_HEADING_RE.match(" ".join(h.text_content().split())[:80])
    ]
    if not headings:
        return
    total = max(_word_count(root), 1)
    doomed: list[HtmlElement] = []
    for heading in headings:
        section = heading
        parent = heading.getparent()
        while parent is not None and parent is not root:
            first = next(parent.iter("h1", "h2", "h3", "h4", "h5", "h6"), None)
            if first is not heading or _word_count(parent) > 0.25 * total:
                break
            section = parent
            parent = parent.getparent()
        doomed.append(section)
        if section is heading:
            for sibling in heading.itersiblings():
                if _tag(sibling) in _HEADING_TAGS:
                    break
                doomed.append(sibling)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()


def _word_count(el: HtmlElement) -> int:
    return len(" ".join(el.itertext()).split())


def prune_boilerplate(root: HtmlElement) -> HtmlElement:
    """Remove boilerplate from *root* in place and return the element holding the content."""
    body = root.find("body")
    _drop_boilerplate(root, body if body is not None else root, inside_main=False)
    _drop_titled_extras(body if body is not None else root)
    counts = _Counts(root)
    region = _main_region(root, counts.words)
    _drop_link_dense(region, counts)
    return _narrow(region, _Counts(region))


def _narrow(region: HtmlElement, counts: _Counts) -> HtmlElement:
    """Descend into the one child that holds nearly all of the region's (weighted) words."""
    while True:
        own = counts.words.get(region, 0) - _LINKED_WEIGHT * counts.link_words.get(region, 0)
        if own <= 0:
            return region
        best = None
        for child in region:
            child_own = counts.words.get(child, 0) - _LINKED_WEIGHT * counts.link_words.get(
                child, 0
            )
            if child_own >= _NARROW_SHARE * own:
                best = child
                break
        if best is None:
            return region
        region = best


def _drop_article_extras(article: HtmlElement) -> None:
    """Drop captions, credits, bylines and datelines: around an article, not part of it."""
    doomed: list[HtmlElement] = []
    stack = [article]
    while stack:
        el = stack.pop()
        for child in el:
            tag = _tag(child)
            if not tag:
                continue
            features = _features(child)
            if tag == "figcaption" or (
                features
                and len(features) <= 400
                and _ARTICLE_EXTRA_RE.search(features)
                and not _KEEP_RE.search(features)
            ):
                doomed.append(child)
                continue
            stack.append(child)
    for el in doomed:
        el.drop_tree()


def prune_article(article: HtmlElement) -> None:
    """Remove leftover chrome (share bars, related links, menus) from an article in place."""
    _drop_boilerplate(article, article, inside_main=True)
    _drop_article_extras(article)
    _drop_titled_extras(article)
    _drop_link_dense(article, _Counts(article))


def _drop_link_dense(region: HtmlElement, counts: _Counts) -> None:
    """Drop menus, tag clouds and link lists: blocks of many short links and little else."""
    doomed: list[HtmlElement] = []
    region_words = counts.words.get(region, 0)
    stack = [region]
    while stack:
        el = stack.pop()
        for child in el:
            tag = _tag(child)
            if not tag or tag == "a":
                continue
            total = counts.words.get(child, 0)
            links = counts.links.get(child, 0)
            if total and links and tag in _LINK_BLOCK_TAGS:
                density = counts.link_words.get(child, 0) / total
                small = total <= _MAX_LINK_BLOCK_SHARE * region_words
                short_links = total / links <= _MAX_WORDS_PER_LINK
                if density > _MAX_LINK_DENSITY and short_links and small:
                    doomed.append(child)
                    continue
            stack.append(child)
    for el in doomed:
        el.drop_tree()
