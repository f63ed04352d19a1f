"""Markdown links as the excerpt search shows them: their text, without their target.

A passage of an excerpt search is read for its facts; the targets of its links
(``[Target New Arrivals](https://www.target.com/c/...)``) cost tokens and say nothing the
link text does not, and WebFetch still gives a page's links. So the page text the excerpt
search splits, ranks, prices and shows has every inline link and image replaced by its text
(an image by its alt text). Brackets without a target (``[1]``) and bare URLs are kept.
"""

from __future__ import annotations

import re

__all__ = ["links_as_text"]

_LINK_RE = re.compile(
    r"!?\[([^\[\]]*)\]"  # the text (or alt text), without brackets inside
    r"\(\s*(?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)"  # the target: <...>, or balanced (...)
    r'(?:\s+(?:"[^"\n]*"|\'[^\'\n]*\'))?\s*\)'  # an optional title
)
_MAX_NESTING = 4


def links_as_text(text: str) -> str:
    """*text* with each Markdown link or image replaced by its text; *text* itself when it
    holds none. Links nested in a link's text are flattened too (up to a few levels)."""
    if "](" not in text:
        return text
    for _ in range(_MAX_NESTING):
        text, found = _LINK_RE.subn(r"\1", text)
        if not found or "](" not in text:
            break
    return text
