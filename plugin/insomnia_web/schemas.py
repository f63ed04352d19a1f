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
            description="Search terms, at most 50 words.",
        ),
    ]
    count: Annotated[
        Annotated[int, Meta(ge=1, le=20)] | None,
        Meta(description="Number of results."),
    ] = None
    offset: Annotated[int, Meta(ge=0, le=9, description="Result page.")] = 0
    mode: Annotated[
        Literal["excerpts", "results"] | None,
        Meta(description="Default: excerpts."),
    ] = None
    freshness: Annotated[
        Annotated[str, Meta(pattern=FRESHNESS_PATTERN)] | None,
        Meta(
            description="Max age: pd, pw, pm, py or a date range; also caps a cached answer.",
        ),
    ] = None
    allowed_domains: Annotated[
        list[Domain],
        Meta(max_length=20, description="Only these sites (not with blocked_domains)."),
    ] = msgspec.field(default_factory=list)
    blocked_domains: Annotated[
        list[Domain], Meta(max_length=20, description="Never these sites.")
    ] = msgspec.field(default_factory=list)
    force_fresh: Annotated[bool, Meta(description="Skip the cache read.")] = False
    max_tokens: Annotated[
        Annotated[int, Meta(ge=100, le=8000)] | None,
        Meta(description="Budget of the whole text."),
    ] = None


class SearchCacheInfo(_Out, kw_only=True, frozen=True):
    """Whether the answer came from the local cache."""

    status: Literal["miss", "hit", "unavailable"]
    match: Literal["exact", "similar", "finding"] | None = None
    matched_query: str | None = None
    age_s: float | None = None


class ResultItem(_Out, kw_only=True, frozen=True):
    """One search result."""

    rank: int
    title: Annotated[str, Meta(description="Title.")]
    url: Annotated[str, Meta(description="URL.")]
    snippet: Annotated[str, Meta(description="Snippet.")] = ""
    age: str | None = None
    provider: Annotated[str, Meta(description="Provider.")] = ""


class ExcerptItem(_Out, kw_only=True, frozen=True):
    """One ranked passage of a fetched page (or of a provider snippet)."""

    id: Annotated[int, Meta(description="[n] in the text.")]
    url: Annotated[str, Meta(description="URL.")]
    title: Annotated[str, Meta(description="Title.")]
    text: str
    score: float
    start: Annotated[int, Meta(description="-1: a snippet.")]
    end: int
    heading: str | None = None
    byline: str | None = None


class PageStatus(_Out, kw_only=True, frozen=True):
    """What happened to one page the excerpt search tried to fetch."""

    url: Annotated[str, Meta(description="URL.")]
    status: Literal["ok", "error", "skipped"]
    error_code: Annotated[str | None, Meta(description="Error code.")] = None
    moved: str | None = None
    """The URL a redirect took the page to, where it was read (None: not redirected)."""


class FindingItem(_Out, kw_only=True, frozen=True):
    """A fact saved earlier by a model (SaveFinding); unverified unless a fetch confirmed it."""

    id: Annotated[str, Meta(description="Id.")]
    query: str
    content: str
    source_url: str | None = None
    verified: Annotated[bool, Meta(description="Confirmed by a fetch.")]
    age_s: float = 0.0


class WebSearchOutput(_Out, kw_only=True, frozen=True):
    """WebSearch result."""

    query: Annotated[str, Meta(description="Query.")]
    provider: Annotated[str, Meta(description="Provider.")]
    mode: Annotated[Literal["excerpts", "results"], Meta(description="Mode.")]
    cache: SearchCacheInfo
    results: Annotated[list[ResultItem], Meta(description="Results.")]
    excerpts: list[ExcerptItem] = msgspec.field(default_factory=list)
    pages: list[PageStatus] = msgspec.field(default_factory=list)
    findings: Annotated[
        list[FindingItem], Meta(description="Unverified notes saved by a model.")
    ] = msgspec.field(default_factory=list)
    filtered: Annotated[int, Meta(description="Results dropped by policy.")] = 0
    tokens: Annotated[int, Meta(description="Of the whole text.")] = 0
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
            description="Absolute http(s) URL.",
        ),
    ]
    mode: Annotated[
        Literal["readable", "full", "raw"],
        Meta(
            description="readable (default): main content; full: all page text; "
            "raw: decoded source."
        ),
    ] = "readable"
    max_chars: Annotated[
        Annotated[int, Meta(ge=100)] | None,
        Meta(description="Characters to return."),
    ] = None
    start_index: Annotated[
        int,
        Meta(ge=0, description="Continue a truncated page here."),
    ] = 0
    force_fresh: Annotated[bool, Meta(description="Refetch.")] = False


class FetchCacheInfo(_Out, kw_only=True, frozen=True):
    """Whether the page text came from a stored snapshot."""

    hit: bool
    age_s: float | None = None


class WebFetchOutput(_Out, kw_only=True, frozen=True):
    """WebFetch result."""

    url: str
    final_url: str
    status: int
    content_type: str
    charset: Annotated[str | None, Meta(description="Charset.")]
    title: Annotated[str | None, Meta(description="Title.")]
    author: str | None = None
    published: str | None = None
    modified: str | None = None
    pages: Annotated[int | None, Meta(description="PDF page count.")] = None
    text: str
    start_index: int
    next_start_index: Annotated[int | None, Meta(description="null at the end.")]
    total_chars: int
    truncated: Annotated[bool, Meta(description="More text follows.")]
    download_truncated: Annotated[bool, Meta(description="Download cut at the cap.")]
    bytes: int
    redirects: list[str]
    fetched_at: datetime
    snapshot: str
    cache: FetchCacheInfo
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
            description="Self-contained whole sentences.",
        ),
    ]
    source_url: Annotated[
        Annotated[str, Meta(min_length=1, max_length=MAX_URL_CHARS)] | None,
        Meta(description="Where the fact was seen."),
    ] = None


class SaveFindingOutput(_Out, kw_only=True, frozen=True):
    """SaveFinding result."""

    id: Annotated[str, Meta(description="Id.")]
    stored_at: datetime
    expires_at: datetime
    verified: Annotated[bool, Meta(description="Always false.")] = False
