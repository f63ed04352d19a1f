"""What a page declares for machines in JSON-LD, read once for every reader of it, and
readable text too thin to be a page's content.

:func:`parse_ld` parses the page's JSON-LD scripts once; :func:`ld_objects` walks every object
of them in document order (the product reader, :mod:`.product`, and the author-and-dates
reader, :mod:`.article_meta`, take them from there). :func:`thin_words` says when readable
text holds fewer than :attr:`ThinText.max_words` words: WebFetch warns about such a page.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .words import count_words

__all__ = [
    "THIN_TEXT",
    "ThinText",
    "json_objects",
    "ld_objects",
    "ld_types",
    "parse_ld",
    "plain_text",
    "thin_words",
]

_TAG_RE = re.compile(r"<[^>]*>")
_BREAK_RE = re.compile(r"<\s*(?:br|/p|/li|/div|/h[1-6])\b[^>]*>", re.I)


@dataclass(frozen=True)
class ThinText:
    """Readable text too short to be a page's content."""

    max_words: int = 30
    """Fewer words than this (less than one short paragraph) is a line or two of chrome: an
    app shell, a consent or browser-check wall."""


THIN_TEXT = ThinText()


def json_objects(data: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in *data*, in document order, without recursion (``@graph`` nests
    them)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(reversed(item.values()))
        elif isinstance(item, list):
            stack.extend(reversed(item))


def parse_ld(ld_texts: Iterable[str]) -> list[Any]:
    """The page's JSON-LD scripts, each parsed once for every reader of them (a script that
    does not parse is left out)."""
    parsed = []
    for source in ld_texts:
        try:
            parsed.append(json.loads(source))
        except (ValueError, RecursionError):
            continue
    return parsed


def ld_objects(ld_data: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Every JSON object of the parsed JSON-LD scripts (:func:`parse_ld`), in document order."""
    for data in ld_data:
        yield from json_objects(data)


def plain_text(fragment: str) -> str:
    """A declared text as plain text: markup removed, entities decoded, one line a paragraph."""
    text = html.unescape(_TAG_RE.sub(" ", _BREAK_RE.sub("\n", fragment)))
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n\n".join(line for line in lines if line)


def ld_types(obj: dict[str, Any]) -> set[str]:
    """The ``@type`` names of a JSON-LD object (one name or a list of them)."""
    kind = obj.get("@type")
    return {k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)}


def thin_words(text: str) -> int | None:
    """The words of *text* when it is thin (fewer than :attr:`ThinText.max_words`), else None.

    A long text is told by its first whitespace tokens alone: :func:`~.words.count_words` never
    counts fewer words than there are tokens."""
    limit = THIN_TEXT.max_words
    if len(text.split(maxsplit=limit)) >= limit:
        return None
    words = count_words(text)
    return words if words < limit else None
