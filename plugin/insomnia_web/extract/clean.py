"""Remove what is never page text: scripts, styles, templates and hidden elements."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml.html import HtmlElement

from .counts import tag_name, word_count

__all__ = ["is_hidden", "strip_invisible"]

_INVISIBLE_TAGS = frozenset(
    [
        "script",
        "style",
        "template",
        "svg",
        "head",
        "iframe",
        "object",
        "embed",
        "canvas",
        "audio",
        "video",
        "map",
        "datalist",
        "dialog",
    ]
)
# A hidden element or <noscript> is kept when it holds most of the page and at least this many
# words (an app's server-rendered view), so small hidden blocks never come back.
_RESCUE_MIN_WORDS = 200
_HIDDEN_STYLE_RE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.I
)

# Utility classes that CSS frameworks define as ``display: none``; a responsive class beside
# one ("hidden md:block", "d-none d-lg-flex") shows the element on a desktop screen again.
_HIDDEN_CLASSES = frozenset(("hide", "hidden", "d-none", "is-hidden", "u-hidden", "display-none"))
_SHOWN_AGAIN_RE = re.compile(r"[:@]|^d-(?:sm|md|lg|xl|xxl)-|^visible-")


def is_hidden(el: HtmlElement) -> bool:
    """True when *el* is hidden by ``hidden``, ``aria-hidden=true`` (except on a link), an
    inline style or a utility class (``hidden``, ``d-none``) that only ever hides."""
    attrib = el.attrib
    if "hidden" in attrib:
        return True
    if attrib.get("aria-hidden", "").strip().lower() == "true" and el.tag != "a":
        return True  # a link hidden from screen readers is a visible duplicate (card links)
    style = attrib.get("style")
    if style and _HIDDEN_STYLE_RE.search(style):
        return True
    classes = attrib.get("class")
    if not classes:
        return False
    tokens = classes.lower().split()
    if _HIDDEN_CLASSES.isdisjoint(tokens):
        return False
    return not any(_SHOWN_AGAIN_RE.search(token) for token in tokens)


def strip_invisible(root: HtmlElement) -> None:
    """Drop invisible elements from *root* in place, keeping the text that follows them.

    A ``<noscript>`` that holds most of the page's text (the server-rendered view of a
    JavaScript app, as Discourse forums send) is kept as an ordinary block.
    """
    doomed: list[HtmlElement] = []
    hidden: list[HtmlElement] = []
    noscripts: list[HtmlElement] = []
    for el in root.iter():
        tag = tag_name(el)
        if not tag or tag in _INVISIBLE_TAGS:
            doomed.append(el)
        elif tag == "noscript":
            noscripts.append(el)
        elif tag != "html" and tag != "body" and is_hidden(el):
            hidden.append(el)
    _drop(doomed)
    if not hidden and not noscripts:
        return
    total = word_count(root)
    # Streaming server-side rendering (React) ships the real page in a hidden element that a
    # script reveals: a hidden element holding most of the text is content, not chrome.
    _drop(el for el in hidden if not _holds_the_page(el, total))
    for el in noscripts:
        if _holds_the_page(el, total):
            el.tag = "div"
        else:
            _drop((el,))


def _holds_the_page(el: HtmlElement, total: int) -> bool:
    words = word_count(el)
    return words >= _RESCUE_MIN_WORDS and words > 0.5 * total


def _drop(elements: Iterable[HtmlElement]) -> None:
    for el in list(elements):
        if el.getparent() is not None:
            el.drop_tree()
