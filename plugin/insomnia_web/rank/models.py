"""What excerpt ranking takes in (:class:`SourceDoc`) and gives back (:class:`Excerpt`)."""

from __future__ import annotations

import msgspec

__all__ = ["Excerpt", "SourceDoc"]


class SourceDoc(msgspec.Struct, frozen=True, kw_only=True):
    """One search result: its fetched page text (if any) and the provider's snippet."""

    url: str
    title: str
    text: str
    """Extracted page text; ``""`` when the fetch or the extraction failed."""
    rank: int
    """Provider rank, 1-based."""
    snippet: str | None = None
    """The provider's snippet or description (extra snippets joined with newlines)."""
    byline: str | None = None
    """Who wrote the page and when, as the page states it (a line under the label)."""


class Excerpt(msgspec.Struct, frozen=True, kw_only=True):
    """One passage chosen to answer the query, labelled with its source."""

    id: int
    """The ``[n]`` label of its source: 1-based, one per source, shared by its passages."""
    url: str
    title: str
    text: str
    """The passage; a split table's header row and separator come first (see ``start``)."""
    score: float
    """Ranking score; comparable only within one call."""
    start: int
    """Offset of the passage in the page text: ``page_text[start:end]`` is ``text`` without
    the repeated table header, if any. ``-1`` for an excerpt taken from the snippet."""
    end: int
    """Offset just past the passage in the page text; ``-1`` for a snippet excerpt."""
    source_rank: int
    """Provider rank of the source."""
    kind: str
    """``"page"`` (from the page text) or ``"snippet"`` (from the provider's snippet)."""
    heading: str | None = None
    """Heading path of the passage on its page (``"Install > Linux"``), if any."""
    byline: str | None = None
    """The source's author and dates (:attr:`SourceDoc.byline`), if known."""
