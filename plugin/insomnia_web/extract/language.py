"""The language of a page, cheaply: declared, or guessed from its script and common words.

The page's own declaration wins: ``<html lang>``, then a ``Content-Language`` meta tag. A page
that declares nothing is guessed from a sample of its text: kana means Japanese, Hangul
Korean, other Han characters Chinese; Latin text is the language of :data:`GUESS` whose
common words it holds most of, when they are frequent enough to tell. Anything else is
unknown (``None``), and unknown pages get the structural rules only.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lxml.html import HtmlElement

__all__ = ["GUESS", "page_language"]


@dataclass(frozen=True)
class Guess:
    """How a language is guessed from undeclared text."""

    sample_chars: int = 20_000
    """Text read from the start of the body."""
    min_hits: int = 8
    """Common words the winning language needs in the sample."""
    min_lead: float = 1.5
    """The winner needs this many times the runner-up's common words."""
    common_words: tuple[tuple[str, frozenset[str]], ...] = (
        ("en", frozenset(("the", "and", "of", "to", "is", "that", "for", "with", "this", "are"))),
        ("de", frozenset(("der", "die", "und", "das", "ist", "nicht", "mit", "den", "auf", "für"))),
        ("fr", frozenset(("le", "les", "des", "et", "est", "une", "dans", "pour", "que", "qui"))),
        ("es", frozenset(("el", "los", "las", "y", "es", "una", "en", "para", "que", "por"))),
    )


GUESS = Guess()
_LANG_RE = re.compile(r"^\s*([a-zA-Z]{2,3})(?:[-_]|\s*$)")
_KANA_RE = re.compile("[\u3040-\u30ff]")
_HANGUL_RE = re.compile("[\uac00-\ud7af]")
_HAN_RE = re.compile("[\u4e00-\u9fff]")
_LATIN_WORD_RE = re.compile(r"[^\W\d_]+")


def _primary(value: str | None) -> str | None:
    match = _LANG_RE.match(value or "")
    return match.group(1).lower() if match else None


def _declared(root: HtmlElement) -> str | None:
    found = _primary(root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang"))
    if found:
        return found
    for meta in root.iter("meta"):
        if (meta.get("http-equiv") or "").lower() == "content-language":
            found = _primary((meta.get("content") or "").split(",")[0])
            if found:
                return found
    return None


def _sample(root: HtmlElement, limit: int) -> str:
    body = root.find("body")
    parts: list[str] = []
    size = 0
    for text in (body if body is not None else root).itertext():
        parts.append(text)
        size += len(text)
        if size >= limit:
            break
    return " ".join(parts)[:limit]


def guess_language(text: str, guess: Guess = GUESS) -> str | None:
    """The language of undeclared *text*, or ``None`` when the guess is not clear."""
    if _KANA_RE.search(text):
        return "ja"
    if _HANGUL_RE.search(text):
        return "ko"
    if len(_HAN_RE.findall(text[:2000])) >= guess.min_hits:
        return "zh"
    counts = Counter(_LATIN_WORD_RE.findall(text.lower()))  # each word counted once, in C
    hits = sorted(
        ((sum(counts[w] for w in common), lang) for lang, common in guess.common_words),
        reverse=True,
    )
    (best, lang), (second, _) = hits[0], hits[1]
    if best >= guess.min_hits and best >= guess.min_lead * second:
        return lang
    return None


def page_language(root: HtmlElement, declared: str | None = None) -> str | None:
    """The primary language subtag of the page (``"de"``), or ``None`` when unknown.

    *declared* is a ``Content-Language`` header value, used when the markup declares nothing.
    """
    return (
        _declared(root)
        or _primary((declared or "").split(",")[0])
        or guess_language(_sample(root, GUESS.sample_chars))
    )
