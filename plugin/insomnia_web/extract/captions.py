"""Unnamed photo captions in readability's article: the short text set under a picture.

Readability keeps a story's pictures and the lines under them. A caption named so (a
``<figcaption>``, a ``caption`` or ``credit`` class) goes with the article's other extras
(:func:`.prune.drop_article_extras`); many themes name theirs otherwise (``description``,
``img-metadata``, an ``<em>`` after the ``<img>``). Such a caption is found by its place: the
nearest block around a picture that holds any text holds only one short block after the
picture, and nothing else. A step of a how-to in a list item, a quote, a table cell, a card
of a grid (a block beside another of its tag and class) and a block with a heading are
content, not captions.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.etree import Element
from lxml.html import HtmlElement

from .counts import tag_name, word_count
from .patterns import HEADING_TAGS

__all__ = ["PICTURE_CAPTIONS", "PictureCaptions", "drop_picture_captions"]


@dataclass(frozen=True)
class PictureCaptions:
    """What an unnamed caption under a picture looks like."""

    pictures: tuple[str, ...]
    """Tags of a picture."""
    tags: frozenset[str]
    """Tags of a caption block: a paragraph, a box, or the inline element a theme puts after
    the ``<img>`` in the same paragraph."""
    max_words: int
    """A caption has at most this many words (a photo's subject and its credit)."""
    max_levels: int
    """The block around the picture is looked for this many levels up (a ``<picture>`` in a
    link in a paragraph in the photo's box)."""
    content_parents: frozenset[str]
    """A picture and a line in one of these are content: a how-to step, a quote, a cell."""


PICTURE_CAPTIONS = PictureCaptions(
    pictures=("img", "picture", "video"),
    tags=frozenset(("p", "div", "span", "strong", "em", "small", "sub")),
    max_words=25,
    max_levels=3,
    content_parents=frozenset(("li", "blockquote", "td", "th", "dd")),
)


def drop_picture_captions(article: HtmlElement, rule: PictureCaptions = PICTURE_CAPTIONS) -> None:
    """Drop the unnamed captions under the pictures of *article* in place."""
    doomed: list[HtmlElement] = []
    for picture in article.iter(*rule.pictures):
        caption = _caption_of(picture, article, rule)
        if caption is not None:
            doomed.append(caption)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()


def _caption_of(
    picture: HtmlElement, article: HtmlElement, rule: PictureCaptions
) -> HtmlElement | None:
    """The caption under *picture*: the one block after it in the nearest block around it
    that holds text, when that block holds no other text; ``None`` when there is none."""
    branch = picture
    for _ in range(rule.max_levels):
        box = branch.getparent()
        if box is None or branch is article:
            return None
        words = word_count(box)
        if words:
            return _only_block_after(box, branch, words, rule)
        branch = box
    return None


def _only_block_after(
    box: HtmlElement, branch: HtmlElement, words: int, rule: PictureCaptions
) -> HtmlElement | None:
    """The child of *box* after *branch* that holds all of *box*'s *words*, when it reads as
    a caption and *box* is a photo's box, not content; else ``None``."""
    if tag_name(box) in rule.content_parents or words > rule.max_words or _in_grid(box):
        return None
    seen = False
    for child in box:
        if child is branch:
            seen = True
        elif seen and tag_name(child) in rule.tags and word_count(child) == words:
            if next(child.iter(*HEADING_TAGS, *rule.pictures), None) is None:
                return child
            return None
    return None


def _in_grid(box: HtmlElement) -> bool:
    """True when *box* stands beside an element of its tag and class: a card of a grid."""
    classes = box.get("class")
    if not classes:
        return False
    return any(
        near is not None and tag_name(near) == tag_name(box) and near.get("class") == classes
        for near in (
            next(box.itersiblings(Element, preceding=True), None),
            next(box.itersiblings(Element), None),
        )
    )
