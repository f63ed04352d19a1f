"""Tool names as an MCP client knows them, in the text the tools write.

The tools' descriptions and messages name each other by their runtime
names (``call WebFetch again with start_index=...``); over MCP the model only knows the
snake_case names (``web_fetch``). :class:`Renamer` rewrites those names in what we write:
descriptions, errors, and the lines of a result outside the untrusted-content delimiters.
Web content between the delimiters (a page's title and author lines among it) is never
changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END

__all__ = ["Renamer"]

_NOT_A_RULE = r"(?!\(|\s+to\s+\[permissions\])"
"""Permission rules name tools by their runtime names (``add WebFetch(domain:x) to
[permissions] allow``): a name in a rule is left as it is."""


class Renamer:
    """Rewrites runtime tool names (``WebFetch``) to MCP names (``web_fetch``)."""

    def __init__(self, names: Mapping[str, str]) -> None:
        """*names* maps each runtime name to its MCP name."""
        self.names = {k: v for k, v in names.items() if k != v}
        words = sorted(self.names, key=len, reverse=True)
        pattern = r"\b(" + "|".join(map(re.escape, words)) + r")\b" + _NOT_A_RULE
        self._re = re.compile(pattern) if words else None

    def text(self, text: str) -> str:
        """*text* (written by us, not by a web page) with every tool name rewritten."""
        if self._re is None:
            return text
        return self._re.sub(lambda m: self.names[m.group(1)], text)

    def result(self, text: str) -> str:
        """A tool's result text, rewritten only outside the untrusted-content delimiters."""
        if self._re is None:
            return text
        out: list[str] = []
        inside = False
        for line in text.split("\n"):
            if line == UNTRUSTED_BEGIN:
                inside = True
            elif line == UNTRUSTED_END:
                inside = False
            elif not inside:
                out.append(self.text(line))
                continue
            out.append(line)
        return "\n".join(out)
