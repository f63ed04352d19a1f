"""Word and link counts per element, and small element helpers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from lxml import etree
from lxml.html import HtmlElement

from .words import count_words

__all__ = [
    "BlockCounts",
    "class_and_id",
    "growing_word_count",
    "is_data_table",
    "link_word_count",
    "parent_link_words",
    "parent_words",
    "tag_name",
    "text_of",
    "word_count",
]

MAX_TABLE_LINK_SHARE = 0.5
"""Most of a data table's words that may sit inside links (a layout table of menu links has
nearly all of them)."""


MIN_HEADER_CELLS = 3
"""A table with this many header cells is data even when most of its words are links (a
table of laureates, releases or packages links every name)."""


# Tag -> local lowercase name, remembered: every pruning step asks for the names of every
# element, and a page uses few distinct tags (the cap bounds a page made of made-up ones).
_NAMES: dict[object, str] = {}
_MAX_NAMES = 4096

# ``iter`` filter: elements only, no comments or processing instructions.
_ELEMENTS = etree.Element


def tag_name(el: HtmlElement) -> str:
    """The lowercase local tag name of *el*, or ``""`` for comments and processing instructions."""
    tag = el.tag
    name = _NAMES.get(tag)
    if name is None:
        name = tag.rpartition("}")[2].lower() if isinstance(tag, str) else ""
        if len(_NAMES) < _MAX_NAMES:
            _NAMES[tag] = name
    return name


def text_of(el: HtmlElement) -> str:
    """The text under *el*, its nodes joined as they stand: ``el.text_content()``, read by
    libxml2 in one call instead of through an XPath expression set up for each element (a
    leaf's text is its own: read without setting up the serializer)."""
    if not len(el):
        return el.text or ""
    return str(etree.tostring(el, method="text", encoding=str, with_tail=False))


def class_and_id(el: HtmlElement) -> str:
    """The ``class`` and ``id`` attributes of *el*, as one string."""
    return f"{el.get('class', '')} {el.get('id', '')}".strip()


def word_count(el: HtmlElement) -> int:
    """Words of text under *el* (text nodes are counted apart, as in :class:`BlockCounts`)."""
    return count_words(" ".join(el.itertext()))


# Text nodes read at a time by :func:`growing_word_count`.
_CHUNK_NODES = 256


def growing_word_count(el: HtmlElement) -> Iterator[int]:
    """The :func:`word_count` of *el* as it grows, text chunk by text chunk (the last is the
    total): a test that only needs to know whether a count passes a bound can stop early."""
    texts = el.itertext()
    total = 0
    while chunk := list(itertools.islice(texts, _CHUNK_NODES)):
        total += count_words(" ".join(chunk))
        yield total


def link_word_count(el: HtmlElement) -> int:
    """Words under *el* inside links (a link inside a link counts once), as in :class:`BlockCounts`.

    For the few elements a step looks at, this reads less than counting the whole tree.
    """
    total = 0
    nested: set[HtmlElement] = set()
    for link in el.iter("a"):
        if link not in nested:
            total += word_count(link)
            nested.update(link.iterdescendants("a"))
    return total


def parent_words(
    parent: HtmlElement,
    child: HtmlElement,
    child_words: int,
    stop: Callable[[int], bool] | None = None,
) -> int:
    """:func:`word_count` of *parent*, given the *child_words* of its child *child*.

    Walking up from an element, each step reads only the text beside the path. With *stop*,
    counting ends as soon as ``stop(words so far)`` is true (a test that stays true as the
    count grows), and the count returned is partial.
    """
    text = parent.text
    total = child_words + (count_words(text) if text else 0)
    for node in parent:
        if node is not child:
            total += word_count(node)
        tail = node.tail
        if tail:
            total += count_words(tail)
        if stop is not None and stop(total):
            return total
    return total


def parent_link_words(parent: HtmlElement, child: HtmlElement, child_links: int, words: int) -> int:
    """:func:`link_word_count` of *parent* (holding *words* words), given its child's."""
    if parent.tag == "a":
        return words
    return child_links + sum(link_word_count(node) for node in parent if node is not child)


def is_data_table(table: HtmlElement) -> bool:
    """True when *table* holds data: two rows or more, cells side by side, few links.

    A table marked ``role="presentation"``, one that nests another table, and one without
    words are layout, not data.
    """
    if tag_name(table) != "table" or (table.get("role") or "").lower() == "presentation":
        return False
    if next(table.iterdescendants("table"), None) is not None:
        return False
    rows = list(table.iterdescendants("tr"))
    if len(rows) < 2 or max(len(row.findall("td")) + len(row.findall("th")) for row in rows) < 2:
        return False
    words = word_count(table)
    if not words:
        return False
    if sum(1 for _ in table.iterdescendants("th")) >= MIN_HEADER_CELLS:
        return True
    linked = sum(word_count(a) for a in table.iter("a"))
    return linked <= MAX_TABLE_LINK_SHARE * words


class BlockCounts:
    """Words, words inside links and number of links under each element (one pass).

    Every element has an entry in :attr:`words`; :attr:`link_words` and :attr:`links` hold
    only elements with a link inside, so read them with ``.get(el, 0)``. Comments and
    processing instructions are not counted (the parser and the cleaner remove them).

    Words are counted in one pass and links in a second, from the words: with
    ``links=False`` the second pass runs on first use of the link counts (the tree must not
    have changed meanwhile), so a caller that seldom needs them (the forum cleanup, which
    hands its counts on to a page extraction that runs on few pages) skips it.
    """

    def __init__(self, root: HtmlElement, *, links: bool = True) -> None:
        self._root = root
        self.words = _words_under(root)
        self._links: tuple[dict[HtmlElement, int], dict[HtmlElement, int]] | None = None
        if links:
            self._links = _links_under(root, self.words)

    def still_hold(self) -> bool:
        """True when the counted tree still has every element it had. Pruning only removes
        elements (their text with them), so the counts then hold for the tree as it is."""
        return sum(1 for _ in self._root.iter(_ELEMENTS)) == len(self.words)

    @property
    def link_words(self) -> dict[HtmlElement, int]:
        """Words inside links under each element that holds a link."""
        return self._link_counts()[0]

    @property
    def links(self) -> dict[HtmlElement, int]:
        """Links under each element that holds one (the element itself included)."""
        return self._link_counts()[1]

    def _link_counts(self) -> tuple[dict[HtmlElement, int], dict[HtmlElement, int]]:
        if self._links is None:
            self._links = _links_under(self._root, self.words)
        return self._links


def _words_under(root: HtmlElement) -> dict[HtmlElement, int]:
    """The words under each element of *root*, as :class:`BlockCounts` counts them."""
    words: dict[HtmlElement, int] = {}
    # Children come before parents: each element's count is final when it is reached, and
    # is added to its parent's running total (its tail's words belong to the parent).
    # (ASCII text is counted inline: the call costs more than the split on most nodes.)
    for el in reversed(list(root.iter(_ELEMENTS))):
        text = el.text
        total = words.get(el, 0)
        if text:
            total += len(text.split()) if text.isascii() else count_words(text)
        words[el] = total
        if el is root:
            break
        tail = el.tail
        if tail:
            total += len(tail.split()) if tail.isascii() else count_words(tail)
        parent = el.getparent()
        words[parent] = words.get(parent, 0) + total
    return words


def _links_under(
    root: HtmlElement, words: dict[HtmlElement, int]
) -> tuple[dict[HtmlElement, int], dict[HtmlElement, int]]:
    """Words inside links and links under each element of *root* that holds a link, given
    the *words* under each element (a link inside a link counts its words once)."""
    link_words: dict[HtmlElement, int] = {}
    links: dict[HtmlElement, int] = {}
    for el in reversed(list(root.iter(_ELEMENTS))):  # children before parents, as above
        if el.tag == "a":
            link_words[el] = words[el]
            links[el] = links.get(el, 0) + 1
        found = links.get(el)
        if found and el is not root:
            parent = el.getparent()
            links[parent] = links.get(parent, 0) + found
            link_words[parent] = link_words.get(parent, 0) + link_words[el]
    return link_words, links
