"""Forum threads: quoted posts repeat what the thread already says.

A reply that quotes an earlier post (a ``<blockquote>`` or a forum's quote box: phpBB's
``quotecontent``, XenForo's ``bbCodeBlock--quote``, Invision's ``ipsQuote``) prints that
post's words a second time. A long quote whose words also stand elsewhere on the page is
dropped; a short one ("X wrote: yes") stays, since it tells what the reply answers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from lxml.html import HtmlElement

from .counts import tag_name

__all__ = ["drop_forum_chrome", "drop_repeated_quotes"]

_WORD_RE = re.compile(r"\w+")
# Class names forum software gives its quote boxes (exact tokens, lowercased): "quote"
# alone, and the BBCode quote blocks of phpBB, vBulletin, XenForo, SMF and Invision.
_QUOTE_CLASS_RE = re.compile(
    r"^(?:quote|quotecontent|quotebox|quote_?container|inthreadquotebox|ipsquote|"
    r"bbcode_?quote|bbcodeblock--quote|bbc_standard_quote|ip-ubbcode-quote|post-?quote)$"
)
# A quote shorter than this stays: a line or two tells what the reply answers.
QUOTE_MIN_WORDS = 25
# Quotes are matched against the page in runs of this many words ...
SHINGLE_WORDS = 8
# ... and dropped when at least this share of their runs also stands elsewhere on the page.
QUOTE_REPEAT_SHARE = 0.5


def _is_quote(el: HtmlElement) -> bool:
    if tag_name(el) == "blockquote":
        return True
    classes = el.get("class")
    if not classes:
        return False
    return any(_QUOTE_CLASS_RE.match(token) for token in classes.lower().split())


def _outer_quotes(root: HtmlElement) -> list[HtmlElement]:
    """Quote elements under *root* that no other quote contains, in document order."""
    found: list[HtmlElement] = []
    stack = [root]
    while stack:
        el = stack.pop()
        if el is not root and _is_quote(el):
            found.append(el)
            continue
        stack.extend(reversed([child for child in el if tag_name(child)]))
    return found


def _words(texts: Iterable[str]) -> list[str]:
    return _WORD_RE.findall(" ".join(texts).lower())


def _shingles(words: list[str]) -> list[tuple[str, ...]]:
    return [tuple(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)]


def drop_repeated_quotes(root: HtmlElement) -> None:
    """Drop long quotes under *root* whose words the page (its whole tree) also holds elsewhere."""
    quotes = _outer_quotes(root)
    if not quotes:
        return
    quoted = [(quote, _words(quote.itertext())) for quote in quotes]
    quoted = [(quote, words) for quote, words in quoted if len(words) >= QUOTE_MIN_WORDS]
    if not quoted:
        return
    page = root.getroottree().getroot()
    counts = Counter(_shingles(_words(page.itertext())))
    for quote, words in quoted:
        runs = _shingles(words)
        repeated = sum(1 for run in runs if counts[run] >= 2)
        if runs and repeated >= QUOTE_REPEAT_SHARE * len(runs):
            quote.drop_tree()


def drop_forum_chrome(root: HtmlElement) -> None:
    """Drop what a forum thread repeats or wraps around its posts, in place."""
    drop_repeated_quotes(root)
