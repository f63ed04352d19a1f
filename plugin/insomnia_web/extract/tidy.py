"""Last pruning steps on the kept content: repeated blocks and copyright lines.

Responsive pages print the same description twice (a mobile and a desktop copy, a summary
above and a tab below); a reader needs it once (a short block said twice in a row is left
to :mod:`.dedup`). Copyright and "all rights reserved" lines are legal chrome wherever they
sit. Both run on the element about to be serialized, after the article or page extraction
has chosen it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.html import HtmlElement

from .counts import tag_name, text_of
from .dedup import repeat_key
from .rules import holds_any, searched_phrases

__all__ = ["drop_legal_lines", "drop_repeated_blocks", "tidy_blocks"]

_BLOCK_TAGS = frozenset(
    (
        "p",
        "li",
        "dd",
        "dt",
        "blockquote",
        "div",
        "section",
        "article",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
    )
)
# Code and tables repeat lines on purpose (a row of the same values, a repeated statement).
_VERBATIM_TAGS = frozenset(("pre", "code", "table", "textarea"))
_HOLDING_TAGS = _BLOCK_TAGS | _VERBATIM_TAGS  # a child with one of these makes a block hold


@dataclass(frozen=True)
class RepeatedBlocks:
    """A block said twice (:func:`drop_repeated_blocks`)."""

    min_words: int = 5
    """Only a block of at least this many words goes: short labels ("Add to cart", "Read
    more", a date) repeat on every card and belong to each one."""


@dataclass(frozen=True)
class LegalLines:
    """Copyright and "all rights reserved" lines (:func:`drop_legal_lines`)."""

    max_words: int = 25
    """A copyright line longer than this is prose that mentions copyright, not a notice."""
    sign: re.Pattern[str] = re.compile(r"^\W*(?:©|\(c\))", re.I)
    """A copyright sign opens a notice in every language; the words of one are phrases
    (``legal_line``)."""


REPEATED_BLOCKS = RepeatedBlocks()
LEGAL_LINES = LegalLines()


def _leaf_blocks(root: HtmlElement) -> list[tuple[HtmlElement, str, str]]:
    """Blocks without block children, in document order, with their text (read once) and
    its normalized words."""
    if tag_name(root) in _VERBATIM_TAGS:
        return []
    holding = _holding_blocks(root)
    verbatim = _inside_verbatim(root)
    found: list[tuple[HtmlElement, str, str]] = []
    for el in root.iterdescendants(*_BLOCK_TAGS):
        if el not in holding and el not in verbatim:
            text = text_of(el)
            found.append((el, text, repeat_key(text)))
    return found


def _holding_blocks(root: HtmlElement) -> set[HtmlElement]:
    """The elements of *root* (itself included) that hold a block or verbatim element.

    Each element is marked once, from the first such element below it, so deep trees stay
    linear."""
    holding: set[HtmlElement] = set()
    for el in root.iterdescendants(*_HOLDING_TAGS):
        parent = el.getparent()
        while parent not in holding:
            holding.add(parent)
            if parent is root:
                break
            parent = parent.getparent()
    return holding


def _inside_verbatim(root: HtmlElement) -> set[HtmlElement]:
    """The elements below *root*'s code, preformatted text, tables and text areas."""
    inside: set[HtmlElement] = set()
    for el in root.iterdescendants(*_VERBATIM_TAGS):
        if el not in inside:
            inside.update(el.iterdescendants())
    return inside


def _is_legal(text: str, count: int, phrases: tuple[re.Pattern[str], ...]) -> bool:
    """True for a copyright line: *count* words at most the limit, and the sign or one of
    the ``legal_line`` *phrases* in its whitespace-collapsed *text*."""
    if count > LEGAL_LINES.max_words:
        return False
    text = " ".join(text.split())
    return LEGAL_LINES.sign.search(text) is not None or holds_any(phrases, text)


def _is_repeat(words: str, count: int, seen: set[str]) -> bool:
    if count < REPEATED_BLOCKS.min_words:
        return False
    if words in seen:
        return True
    seen.add(words)
    return False


def tidy_blocks(root: HtmlElement, language: str | None = "en") -> None:
    """Drop short copyright lines and repeated blocks in one walk (both rules below).

    *language* selects the phrases of copyright lines (``legal_line``).
    """
    seen: set[str] = set()
    phrases = searched_phrases("legal_line", language)  # looked up once for every block
    for el, text, words in _leaf_blocks(root):
        count = words.count(" ") + 1  # the words of the key, counted once for both rules
        if _is_legal(text, count, phrases) or _is_repeat(words, count, seen):
            el.drop_tree()


def drop_repeated_blocks(root: HtmlElement) -> None:
    """Drop each block whose words repeat an earlier block's, keeping the first copy."""
    seen: set[str] = set()
    for el, _, words in _leaf_blocks(root):
        if _is_repeat(words, words.count(" ") + 1, seen):
            el.drop_tree()


def drop_legal_lines(root: HtmlElement, language: str | None = "en") -> None:
    """Drop short copyright and "all rights reserved" blocks."""
    phrases = searched_phrases("legal_line", language)
    for el, text, words in _leaf_blocks(root):
        if _is_legal(text, words.count(" ") + 1, phrases):
            el.drop_tree()
