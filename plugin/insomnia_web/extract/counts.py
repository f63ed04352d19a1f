"""Word and link counts per element, and small element helpers."""

from __future__ import annotations

from lxml.html import HtmlElement

__all__ = ["BlockCounts", "class_and_id", "tag_name", "word_count"]


def tag_name(el: HtmlElement) -> str:
    """The lowercase local tag name of *el*, or ``""`` for comments and processing instructions."""
    tag = el.tag
    return tag.rpartition("}")[2].lower() if isinstance(tag, str) else ""


def class_and_id(el: HtmlElement) -> str:
    """The ``class`` and ``id`` attributes of *el*, as one string."""
    return f"{el.get('class', '')} {el.get('id', '')}".strip()


def word_count(el: HtmlElement) -> int:
    """Words of text under *el* (text nodes are counted apart, as in :class:`BlockCounts`)."""
    return len(" ".join(el.itertext()).split())


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
