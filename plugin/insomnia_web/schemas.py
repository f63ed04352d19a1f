"""Input and output Structs of the three tools: one Struct is the validator and the schema."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

__all__ = [
    "ExcerptItem",
    "FetchCacheInfo",
    "FindingItem",
    "PageStatus",
    "ResultItem",
    "SaveFindingInput",
    "SaveFindingOutput",
    "SearchCacheInfo",
    "WebFetchInput",
    "WebFetchOutput",
    "WebSearchInput",
    "WebSearchOutput",
]

MAX_QUERY_CHARS = 400
MAX_QUERY_WORDS = 50
MAX_URL_CHARS = 2048
MAX_FINDING_CHARS = 2000
FRESHNESS_PATTERN = r"^(pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$"

Domain = Annotated[str, Meta(max_length=253, pattern=r"^[A-Za-z0-9*][A-Za-z0-9.*-]*$")]


class _In(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, frozen=True):
    pass


class _Out(msgspec.Struct, kw_only=True, frozen=True):
    pass


# --- WebSearch -------------------------------------------------------------------------


class WebSearchInput(_In, kw_only=True, frozen=True):
    """Search the web."""

    query: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            description="Search terms (max 400 chars, 50 words).",
        ),
    ]
    count: Annotated[
        Annotated[int, Meta(ge=1, le=20)] | None,
        Meta(description="Optional. Number of results, 1-20."),
    ] = None
    offset: Annotated[int, Meta(ge=0, le=9, description="Optional. Result page, 0-9.")] = 0
    mode: Annotated[
        Literal["excerpts", "results"] | None,
        Meta(
            description="Optional. excerpts (default): passages from the top pages that "
            "answer; results: titles, URLs, snippets."
        ),
    ] = None
    freshness: Annotated[
        Annotated[str, Meta(pattern=FRESHNESS_PATTERN)] | None,
        Meta(
            description="Optional. Max age: pd, pw, pm, py (day...year) or "
            "YYYY-MM-DDtoYYYY-MM-DD; also caps a cached answer's age.",
        ),
    ] = None
    allowed_domains: Annotated[
        list[Domain],
        Meta(max_length=20, description="Optional. Only these sites (not with blocked_domains)."),
    ] = msgspec.field(default_factory=list)
    blocked_domains: Annotated[
        list[Domain], Meta(max_length=20, description="Optional. Never these sites.")
    ] = msgspec.field(default_factory=list)
    force_fresh: Annotated[
        bool, Meta(description="Optional. Skip the cache read (result still cached).")
    ] = False
    max_tokens: Annotated[
        Annotated[int, Meta(ge=100, le=8000)] | None,
        Meta(description="Optional. Excerpt token budget (capped by settings)."),
    ] = None


class SearchCacheInfo(_Out, kw_only=True, frozen=True):
    """Whether the answer came from the local cache."""

    status: Annotated[
        Literal["miss", "hit", "unavailable"],
        Meta(description="hit: from the cache; unavailable: the cache could not be reached."),
    ]
    match: Annotated[
        Literal["exact", "similar", "finding"] | None,
        Meta(description="How a hit matched."),
    ] = None
    matched_query: Annotated[str | None, Meta(description="Earlier query matched.")] = None
    age_s: Annotated[float | None, Meta(description="Age, seconds.")] = None


class ResultItem(_Out, kw_only=True, frozen=True):
    """One search result."""

    rank: Annotated[int, Meta(description="1-based rank.")]
    title: Annotated[str, Meta(description="Title.")]
    url: Annotated[str, Meta(description="URL.")]
    snippet: Annotated[str, Meta(description="Snippet.")] = ""
    age: Annotated[str | None, Meta(description="Page age.")] = None
    provider: Annotated[str, Meta(description="Provider.")] = ""


class ExcerptItem(_Out, kw_only=True, frozen=True):
    """One ranked passage of a fetched page (or of a provider snippet)."""

    id: Annotated[int, Meta(description="[n] in the text.")]
    url: Annotated[str, Meta(description="URL.")]
    title: Annotated[str, Meta(description="Title.")]
    text: Annotated[str, Meta(description="Passage (untrusted).")]
    score: Annotated[float, Meta(description="Relevance.")]
    start: Annotated[int, Meta(description="Offset in page text; -1: snippet.")]
    end: Annotated[int, Meta(description="End offset; -1: snippet.")]
    heading: Annotated[str | None, Meta(description="Heading path.")] = None


class PageStatus(_Out, kw_only=True, frozen=True):
    """What happened to one page the excerpt search tried to fetch."""

    url: Annotated[str, Meta(description="URL.")]
    status: Annotated[Literal["ok", "error", "skipped"], Meta(description="Outcome.")]
    error_code: Annotated[str | None, Meta(description="Error code.")] = None


class FindingItem(_Out, kw_only=True, frozen=True):
    """A fact saved earlier by a model (SaveFinding); unverified unless a fetch confirmed it."""

    id: Annotated[str, Meta(description="Id.")]
    query: Annotated[str, Meta(description="Question.")]
    content: Annotated[str, Meta(description="Fact.")]
    source_url: Annotated[str | None, Meta(description="Source.")] = None
    verified: Annotated[bool, Meta(description="Confirmed by a fetch.")]
    age_s: Annotated[float, Meta(description="Age, seconds.")] = 0.0


class WebSearchOutput(_Out, kw_only=True, frozen=True):
    """WebSearch result."""

    query: Annotated[str, Meta(description="Query.")]
    provider: Annotated[str, Meta(description="Provider.")]
    mode: Annotated[Literal["excerpts", "results"], Meta(description="Mode.")]
    cache: Annotated[SearchCacheInfo, Meta(description="Cache provenance.")]
    results: Annotated[list[ResultItem], Meta(description="Results.")]
    excerpts: Annotated[list[ExcerptItem], Meta(description="Passages.")] = msgspec.field(
        default_factory=list
    )
    pages: Annotated[list[PageStatus], Meta(description="Pages tried.")] = msgspec.field(
        default_factory=list
    )
    findings: Annotated[list[FindingItem], Meta(description="Saved findings.")] = msgspec.field(
        default_factory=list
    )
    filtered: Annotated[int, Meta(description="Results dropped by policy.")] = 0
    tokens: Annotated[int, Meta(description="Estimated tokens.")] = 0
    warnings: Annotated[list[str], Meta(description="Warnings.")] = msgspec.field(
        default_factory=list
    )


# --- WebFetch --------------------------------------------------------------------------


class WebFetchInput(_In, kw_only=True, frozen=True):
    """Fetch one URL as text."""

    url: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_URL_CHARS,
            description="Absolute http(s) URL, at most 2048 characters.",
        ),
    ]
    mode: Annotated[
        Literal["readable", "full", "raw"],
        Meta(
            description="Optional. readable (default): main content; full: all page text; "
            "raw: decoded source."
        ),
    ] = "readable"
    max_chars: Annotated[
        Annotated[int, Meta(ge=100)] | None,
        Meta(description="Optional. Characters to return (capped by settings)."),
    ] = None
    start_index: Annotated[
        int,
        Meta(ge=0, description="Optional. Continue a truncated page from this character."),
    ] = 0
    force_fresh: Annotated[
        bool, Meta(description="Optional. Refetch instead of using the stored copy.")
    ] = False


class FetchCacheInfo(_Out, kw_only=True, frozen=True):
    """Whether the page text came from a stored snapshot."""

    hit: Annotated[bool, Meta(description="From a snapshot.")]
    age_s: Annotated[float | None, Meta(description="Age, seconds.")] = None


class WebFetchOutput(_Out, kw_only=True, frozen=True):
    """WebFetch result."""

    url: Annotated[str, Meta(description="Requested.")]
    final_url: Annotated[str, Meta(description="After redirects.")]
    status: Annotated[int, Meta(description="HTTP status.")]
    content_type: Annotated[str, Meta(description="Media type.")]
    charset: Annotated[str | None, Meta(description="Charset.")]
    title: Annotated[str | None, Meta(description="Title.")]
    text: Annotated[str, Meta(description="Text slice (untrusted).")]
    start_index: Annotated[int, Meta(description="Slice offset.")]
    next_start_index: Annotated[int | None, Meta(description="Next start_index; null at end.")]
    total_chars: Annotated[int, Meta(description="Page text length.")]
    truncated: Annotated[bool, Meta(description="More text follows.")]
    download_truncated: Annotated[bool, Meta(description="Download cut at the cap.")]
    bytes: Annotated[int, Meta(description="Bytes downloaded.")]
    redirects: Annotated[list[str], Meta(description="Redirect hops.")]
    fetched_at: Annotated[datetime, Meta(description="Fetch time (UTC).")]
    snapshot: Annotated[str, Meta(description="Content hash.")]
    cache: Annotated[FetchCacheInfo, Meta(description="Snapshot provenance.")]
    warnings: Annotated[list[str], Meta(description="Warnings.")] = msgspec.field(
        default_factory=list
    )


# --- SaveFinding -----------------------------------------------------------------------


class SaveFindingInput(_In, kw_only=True, frozen=True):
    """Save a fact for later searches."""

    query: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            description="The question this fact answers.",
        ),
    ]
    content: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_FINDING_CHARS,
            description="The fact, self-contained, at most 2000 characters.",
        ),
    ]
    source_url: Annotated[
        Annotated[str, Meta(min_length=1, max_length=MAX_URL_CHARS)] | None,
        Meta(description="Optional. http(s) URL where the fact was seen."),
    ] = None


class SaveFindingOutput(_Out, kw_only=True, frozen=True):
    """SaveFinding result."""

    id: Annotated[str, Meta(description="Id.")]
    stored_at: Annotated[datetime, Meta(description="Stored at (UTC).")]
    expires_at: Annotated[datetime, Meta(description="Expires at (UTC).")]
    verified: Annotated[bool, Meta(description="Always false.")] = False
