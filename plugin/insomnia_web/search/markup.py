"""Provider text to plain text: tags (Brave's ``<strong>`` highlights) and entities removed."""

from __future__ import annotations

import html
import re

__all__ = ["clean_text"]

_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_SPACE = re.compile(r"\s+")


def clean_text(text: str | None) -> str:
    """*text* without HTML tags, with entities decoded and whitespace collapsed.

    Tags are removed before entities are decoded, so an escaped ``&lt;b&gt;`` stays
    visible as the literal text ``<b>``.
    """
    if not text:
        return ""
    return _SPACE.sub(" ", html.unescape(_TAG.sub("", text))).strip()
