"""The body text a page declares for machines, read when the visible text is almost empty.

Pages that draw their content with script often declare it in JSON-LD for search engines:
an article's ``articleBody``, a how-to's description and steps. When the readable text of a
page holds fewer than :attr:`ThinText.max_words` words, the longest body the page declares
(and only one longer than what was read) takes its place: it is the page's own text, and the
best there is when the markup shows a line or two of chrome. A page whose visible text was
read is never touched, whatever its JSON-LD says (an ``articleBody`` is often cut short).
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
    "declared_body",
    "json_objects",
    "ld_objects",
    "ld_types",
    "parse_ld",
    "plain_text",
    "thin_words",
    "with_declared_body",
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
    """Every JSON object in *data*, in document order, without recursion (``@graph`` and
    how-to steps nest them)."""
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


_STEP_TYPES = frozenset(("HowToStep", "HowToDirection", "HowToTip"))


def _steps(obj: dict[str, Any]) -> Iterator[str]:
    """The texts of a how-to's steps, directions and tips, in order (sections read through)."""
    for item in json_objects(obj.get("step")):
        text = item.get("text")
        if ld_types(item) & _STEP_TYPES and isinstance(text, str):
            yield text


def _bodies(obj: dict[str, Any]) -> Iterator[str]:
    body = obj.get("articleBody")
    if isinstance(body, str):
        yield body
    if "HowTo" in ld_types(obj):
        description = obj.get("description")
        yield "\n".join([description if isinstance(description, str) else "", *_steps(obj)])


def declared_body(ld_data: Iterable[Any]) -> str:
    """The longest body the page declares in its parsed JSON-LD (:func:`parse_ld`), as plain
    text (``""`` when none)."""
    best = ""
    for obj in ld_objects(ld_data):
        for body in _bodies(obj):
            text = plain_text(body)
            if len(text) > len(best):
                best = text
    return best


def thin_words(text: str) -> int | None:
    """The words of *text* when it is thin (fewer than :attr:`ThinText.max_words`), else None.

    A long text is told by its first whitespace tokens alone: :func:`~.words.count_words` never
    counts fewer words than there are tokens."""
    limit = THIN_TEXT.max_words
    if len(text.split(maxsplit=limit)) >= limit:
        return None
    words = count_words(text)
    return words if words < limit else None


def with_declared_body(text: str, ld_data: Iterable[Any]) -> str:
    """*text*, or the page's declared body (in its parsed JSON-LD) when *text* is thin and
    the body holds more."""
    words = thin_words(text)
    if words is None:
        return text
    body = declared_body(ld_data)
    return body if count_words(body) > words else text
