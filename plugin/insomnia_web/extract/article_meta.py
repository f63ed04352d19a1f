"""Who wrote a page and when: author, published and modified dates, as the page states them.

Read before scripts are removed, in order of trust (the first source that states a value
wins, value by value):

1. JSON-LD objects (``@graph`` included) with ``author``, ``datePublished``,
   ``dateModified``;
2. meta tags: ``article:published_time`` / ``article:modified_time`` (Open Graph),
   ``og:updated_time``, ``citation_publication_date``, ``DC.date``, ``date``, ``pubdate``,
   ``author``, ``article:author`` and ``citation_author`` (a URL is not an author);
3. markup: ``itemprop`` ``datePublished`` / ``dateModified`` / ``author`` (an author
   block's nested ``itemprop="name"`` when it has one), the first ``<time datetime>`` (the
   published date), ``rel="author"`` links. Text read from markup names an author only
   when it is as short as a few names (:data:`MAX_MARKED_AUTHOR_WORDS`): a member card, a
   biography or a name run into its date line is not a name.

Dates are kept only when they are ISO 8601 (a date, or a date and time); they come back
normalised (``2026-03-01`` or ``2026-03-01T09:30:00+00:00``). Nothing is guessed from the
visible text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from lxml.etree import XPath
from lxml.html import HtmlElement

from .declared import parse_ld
from .signals import ld_json_texts
from .words import count_words

__all__ = ["ArticleMeta", "article_meta", "iso_date"]

MAX_AUTHOR_CHARS = 200
MAX_MARKED_AUTHOR_WORDS = 8
"""Most words of an author read from an element's text (not a declared value)."""
_ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
_PUBLISHED_META = (
    "article:published_time",
    "og:published_time",
    "citation_publication_date",
    "dc.date",
    "dc.date.issued",
    "dcterms.created",
    "date",
    "pubdate",
    "publish-date",
)
_MODIFIED_META = ("article:modified_time", "og:updated_time", "dcterms.modified", "last-modified")
_AUTHOR_META = ("author", "article:author", "citation_author", "dc.creator", "parsely-author")


class ArticleMeta(NamedTuple):
    """What the page states about itself; None where it states nothing usable."""

    author: str | None = None
    published: str | None = None
    modified: str | None = None


def iso_date(value: object) -> str | None:
    """*value* as a normalised ISO 8601 date or date-time, or None when it is not one."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not _ISO_RE.match(text):
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.date().isoformat() if len(text) == 10 else parsed.isoformat()


def _clean_author(value: object) -> str | None:
    names: list[str] = []
    items = value if isinstance(value, list) else [value]
    for item in items:
        name = item.get("name") if isinstance(item, dict) else item
        if isinstance(name, str):
            text = " ".join(name.split())
            if text and not text.lower().startswith(("http://", "https://")) and text not in names:
                names.append(text)
    joined = ", ".join(names)
    return joined[:MAX_AUTHOR_CHARS] or None


def _objects(data: Any) -> Iterator[dict[str, Any]]:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            yield item
            graph = item.get("@graph")
            if isinstance(graph, list):
                stack.extend(reversed(graph))


def _from_json_ld(ld_data: Iterable[Any]) -> ArticleMeta:
    author = published = modified = None
    for data in ld_data:
        for obj in _objects(data):
            author = author or _clean_author(obj.get("author"))
            published = published or iso_date(obj.get("datePublished"))
            modified = modified or iso_date(obj.get("dateModified"))
    return ArticleMeta(author, published, modified)


def _meta_tags(root: HtmlElement) -> dict[str, str]:
    found: dict[str, str] = {}
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").strip()
        value = (meta.get("content") or "").strip()
        if key and value:
            found.setdefault(key.lower(), value)
    return found


def _first(tags: dict[str, str], keys: tuple[str, ...], read: Any) -> str | None:
    for key in keys:
        value = read(tags.get(key))
        if value:
            return str(value)
    return None


# Elements with an ``itemprop``, in document order: one scan serves every property read.
_WITH_ITEMPROP = XPath("descendant::*[@itemprop]")


def _from_markup(root: HtmlElement) -> ArticleMeta:
    marked = _WITH_ITEMPROP(root)

    def prop(name: str) -> str | None:
        """The first non-empty value of an element whose ``itemprop`` is exactly *name*."""
        for el in marked:
            if el.get("itemprop") != name:
                continue
            value = str(el.get("datetime") or el.get("content") or el.text_content()).strip()
            if value:
                return value
        return None

    published = iso_date(prop("datePublished"))
    if published is None:
        first_time = next(iter(root.iterfind(".//time[@datetime]")), None)
        published = iso_date(first_time.get("datetime")) if first_time is not None else None
    author = _clean_author(_marked_author(marked))
    if author is None:
        link = next(iter(root.iterfind('.//a[@rel="author"]')), None)
        author = _clean_author(_name_like(link.text_content())) if link is not None else None
    return ArticleMeta(author, published, iso_date(prop("dateModified")))


def _marked_author(marked: Sequence[HtmlElement]) -> str | None:
    """The first ``itemprop="author"`` value: its ``content``, else the ``content`` or text
    of the ``itemprop="name"`` inside it, else its own text when :func:`_name_like`."""
    for el in marked:
        if el.get("itemprop") != "author":
            continue
        value: str | None = el.get("content")
        if value is None:
            name = next((n for n in el.iterdescendants() if n.get("itemprop") == "name"), None)
            if name is not None:
                value = str(name.get("content") or name.text_content())
            else:
                value = _name_like(str(el.text_content()))
        if value and value.strip():
            return value
    return None


def _name_like(text: str) -> str | None:
    """*text* when it is no longer than :data:`MAX_MARKED_AUTHOR_WORDS` words, else None."""
    return text if count_words(text) <= MAX_MARKED_AUTHOR_WORDS else None


def article_meta(root: HtmlElement, ld_data: Sequence[Any] | None = None) -> ArticleMeta:
    """The page's author and dates (read before scripts are removed).

    The markup (microdata, ``<time>``, an author link) is read only for what JSON-LD and
    the meta tags leave unsaid. *ld_data* is the page's JSON-LD parsed
    (:func:`~.declared.parse_ld`) when the caller has read it.
    """
    ld = _from_json_ld(parse_ld(ld_json_texts(root)) if ld_data is None else ld_data)
    tags = _meta_tags(root)
    found = ArticleMeta(
        author=ld.author or _first(tags, _AUTHOR_META, _clean_author),
        published=ld.published or _first(tags, _PUBLISHED_META, iso_date),
        modified=ld.modified or _first(tags, _MODIFIED_META, iso_date),
    )
    if found.author and found.published and found.modified:
        return found
    markup = _from_markup(root)
    return ArticleMeta(
        author=found.author or markup.author,
        published=found.published or markup.published,
        modified=found.modified or markup.modified,
    )
