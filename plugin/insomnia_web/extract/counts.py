"""Word and link counts per element, and small element helpers."""

from __future__ import annotations

from lxml.html import HtmlElement

__all__ = ["BlockCounts", "class_and_id", "is_data_table", "tag_name", "word_count"]

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


def tag_name(el: HtmlElement) -> str:
    """The lowercase local tag name of *el*, or ``""`` for comments and processing instructions."""
    tag = el.tag
    name = _NAMES.get(tag)
    if name is None:
        name = tag.rpartition("}")[2].lower() if isinstance(tag, str) else ""
        if len(_NAMES) < _MAX_NAMES:
            _NAMES[tag] = name
    return name


def class_and_id(el: HtmlElement) -> str:
    """The ``class`` and ``id`` attributes of *el*, as one string."""
    return f"{el.get('class', '')} {el.get('id', '')}".strip()


def word_count(el: HtmlElement) -> int:
    """Words of text under *el* (text nodes are counted apart, as in :class:`BlockCounts`)."""
    return len(" ".join(el.itertext()).split())


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
