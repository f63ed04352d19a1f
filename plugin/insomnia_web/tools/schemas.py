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

Domain = Annotated[
    str, Meta(min_length=1, max_length=253, pattern=r"^[A-Za-z0-9*][A-Za-z0-9.*-]*$")
]


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
            description="Search terms (at most 400 characters, 50 words).",
        ),
    ]
    count: Annotated[
        Annotated[int, Meta(ge=1, le=20)] | None,
        Meta(description="Optional. Results to use, 1-20; default from settings."),
    ] = None
    offset: Annotated[int, Meta(ge=0, le=9, description="Optional. Result page, 0-9.")] = 0
    mode: Annotated[
        Literal["excerpts", "results"] | None,
        Meta(
            description="Optional. excerpts (default): fetch top pages, return the passages "
            "that answer. results: titles, URLs, snippets only."
        ),
    ] = None
    freshness: Annotated[
        Annotated[str, Meta(pattern=FRESHNESS_PATTERN)] | None,
        Meta(
            description="Optional. Max age: pd day, pw week, pm month, py year, or "
            "YYYY-MM-DDtoYYYY-MM-DD. Also caps the age of a cached answer.",
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
        bool, Meta(description="Optional. Skip the cache read (the result is still cached).")
    ] = False
    max_tokens: Annotated[
        Annotated[int, Meta(ge=100, le=8000)] | None,
        Meta(description="Optional. Excerpt budget in tokens; capped by settings."),
    ] = None


class SearchCacheInfo(_Out, kw_only=True, frozen=True):
    """Whether the answer came from the local cache."""

    status: Annotated[Literal["miss", "hit"], Meta(description="hit: served from the cache.")]
    match: Annotated[
        Literal["exact", "similar", "finding"] | None,
        Meta(description="How a hit matched: same query, similar query, or a saved finding."),
    ] = None
    matched_query: Annotated[
        str | None, Meta(description="The earlier query a hit was stored for.")
    ] = None
    age_s: Annotated[float | None, Meta(description="Age of the cached answer, seconds.")] = None


class ResultItem(_Out, kw_only=True, frozen=True):
    """One search result."""

    rank: Annotated[int, Meta(description="1-based rank from the provider.")]
    title: Annotated[str, Meta(description="Result title.")]
    url: Annotated[str, Meta(description="Result URL.")]
    snippet: Annotated[str, Meta(description="Provider's description of the page.")] = ""
    age: Annotated[str | None, Meta(description="Page age or date, if known.")] = None
    provider: Annotated[str, Meta(description="Provider that returned it.")] = ""


class ExcerptItem(_Out, kw_only=True, frozen=True):
    """One ranked passage of a fetched page (or of a provider snippet)."""

    id: Annotated[int, Meta(description="Excerpt number, as in the text: [n].")]
    url: Annotated[str, Meta(description="Source URL.")]
    title: Annotated[str, Meta(description="Source title.")]
    text: Annotated[str, Meta(description="Passage text (untrusted web content).")]
    score: Annotated[float, Meta(description="Relevance score; higher is better.")]
    start: Annotated[int, Meta(description="Start offset in the page text; -1 for a snippet.")]
    end: Annotated[int, Meta(description="End offset in the page text; -1 for a snippet.")]
    heading: Annotated[
        str | None, Meta(description="Heading path of the passage on its page, if any.")
    ] = None


class PageStatus(_Out, kw_only=True, frozen=True):
    """What happened to one page the excerpt search tried to fetch."""

    url: Annotated[str, Meta(description="Page URL.")]
    status: Annotated[Literal["ok", "error", "skipped"], Meta(description="ok, error, or skipped.")]
    error_code: Annotated[str | None, Meta(description="Error code when status is error.")] = None


class FindingItem(_Out, kw_only=True, frozen=True):
    """A fact saved earlier by a model (SaveFinding); unverified unless a fetch confirmed it."""

    id: Annotated[str, Meta(description="Finding id.")]
    query: Annotated[str, Meta(description="The question it answers.")]
    content: Annotated[str, Meta(description="The saved fact.")]
    source_url: Annotated[str | None, Meta(description="Where it was seen.")] = None
    verified: Annotated[bool, Meta(description="True once a fetch of source_url confirmed it.")]
    age_s: Annotated[float, Meta(description="Age in seconds.")] = 0.0


class WebSearchOutput(_Out, kw_only=True, frozen=True):
    """WebSearch result."""

    query: Annotated[str, Meta(description="The query searched.")]
    provider: Annotated[str, Meta(description="Search provider used.")]
    mode: Annotated[Literal["excerpts", "results"], Meta(description="Mode used.")]
    cache: Annotated[SearchCacheInfo, Meta(description="Cache provenance.")]
    results: Annotated[list[ResultItem], Meta(description="Search results in rank order.")]
    excerpts: Annotated[list[ExcerptItem], Meta(description="Ranked passages (excerpts mode).")] = (
        msgspec.field(default_factory=list)
    )
    pages: Annotated[
        list[PageStatus], Meta(description="Pages fetched for excerpts, with failures.")
    ] = msgspec.field(default_factory=list)
    findings: Annotated[
        list[FindingItem], Meta(description="Related model-saved findings (unverified).")
    ] = msgspec.field(default_factory=list)
    filtered: Annotated[
        int, Meta(description="Results dropped because the URL policy or a rule refuses them.")
    ] = 0
    tokens: Annotated[int, Meta(description="Estimated tokens of the returned text.")] = 0
    warnings: Annotated[list[str], Meta(description="Non-fatal problems.")] = msgspec.field(
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
            description="Optional. readable (default): main content as Markdown-like text; "
            "full: all page text; raw: the decoded source of a text type."
        ),
    ] = "readable"
    max_chars: Annotated[
        Annotated[int, Meta(ge=100)] | None,
        Meta(description="Optional. Characters to return; default and cap from settings."),
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

    hit: Annotated[bool, Meta(description="True: served from a stored snapshot.")]
    age_s: Annotated[float | None, Meta(description="Snapshot age in seconds.")] = None


class WebFetchOutput(_Out, kw_only=True, frozen=True):
    """WebFetch result."""

    url: Annotated[str, Meta(description="URL requested.")]
    final_url: Annotated[str, Meta(description="URL after redirects.")]
    status: Annotated[int, Meta(description="HTTP status.")]
    content_type: Annotated[str, Meta(description="Media type, e.g. text/html.")]
    charset: Annotated[str | None, Meta(description="Character set used to decode.")]
    title: Annotated[str | None, Meta(description="Page title.")]
    text: Annotated[str, Meta(description="This slice of the page text (untrusted).")]
    start_index: Annotated[int, Meta(description="Offset of this slice.")]
    next_start_index: Annotated[
        int | None, Meta(description="start_index for the next slice; null at the end.")
    ]
    total_chars: Annotated[int, Meta(description="Length of the whole page text.")]
    truncated: Annotated[bool, Meta(description="More text follows this slice.")]
    download_truncated: Annotated[bool, Meta(description="The download was cut at the size limit.")]
    bytes: Annotated[int, Meta(description="Bytes downloaded (decompressed).")]
    redirects: Annotated[list[str], Meta(description="Redirect hops followed.")]
    fetched_at: Annotated[datetime, Meta(description="When the page was fetched (UTC).")]
    snapshot: Annotated[str, Meta(description="Content hash of the stored text.")]
    cache: Annotated[FetchCacheInfo, Meta(description="Snapshot provenance.")]
    warnings: Annotated[list[str], Meta(description="Non-fatal problems.")] = msgspec.field(
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

    id: Annotated[str, Meta(description="Finding id.")]
    stored_at: Annotated[datetime, Meta(description="When it was stored (UTC).")]
    expires_at: Annotated[datetime, Meta(description="When it expires (UTC).")]
    verified: Annotated[bool, Meta(description="Always false when saved.")] = False
