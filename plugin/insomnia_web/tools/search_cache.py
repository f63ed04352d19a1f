"""The WebSearch cache policy: the key of a search, how old a reused answer may be, provenance.

A search is keyed by its normalised query (the cache module normalises it) and every
parameter that changes the answer: provider and its instance (base URL), mode, count,
offset, freshness, the domain filters, safesearch, country and languages, for excerpts the
token budget, the pages read (in all and per host) and the reranker, and the manifest's
network view (its resolve table, allowed addresses and proxy). The cache decides whether a
stored answer is an ``exact`` or a ``similar`` match.

How old a reused answer may be: at most ``web.cache.search_ttl_s``, and when the call asks for
``freshness``, at most :data:`FRESHNESS_MAX_AGE_S` of it; a date-range freshness never reads
the cache. ``force_fresh`` skips the read (the new answer is still stored). A failing cache
never fails a search: :class:`SearchCache` turns every ``cache_error`` into a warning, and a
database that cannot be reached (``cache_unavailable``) into an uncached search that says so.

Every WebSearch text starts with a provenance line (:func:`provenance_header`)::

    [cache: miss · brave]
    [cache: exact match · 2h old]
    [cache: similar match to "earlier query" · 1d old]
    [cache: finding match to "earlier question" · 3d old]
    [cache: unavailable · brave]
    [source: brave]                        (the cache is disabled)

A reused answer says how old it is; a fresh one names its provider only, as its time is the
call's, which the host's history records (a timestamp costs a dozen tokens of every answer).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from ..cache import CacheStore, Finding, SearchHit
from ..config import Manifest
from ..errors import ToolError
from ..modeltext import format_age, one_line
from ..schemas import FindingItem, SearchCacheInfo, WebSearchOutput
from ..search.base import SearchRequest
from .services import settings_digest

__all__ = [
    "FRESHNESS_MAX_AGE_S",
    "SearchCache",
    "provenance_header",
    "provider_scope",
    "search_params",
    "usable_age_s",
]

FRESHNESS_MAX_AGE_S: dict[str, float] = {
    "pd": 3600.0,
    "pw": 86_400.0,
    "pm": 7 * 86_400.0,
    "py": 30 * 86_400.0,
}
"""Oldest cached answer a call with this ``freshness`` accepts, in seconds."""

MAX_QUOTED_CHARS = 120
"""Longest earlier query quoted in a provenance line."""

_CACHE_WARNINGS = ("cache_error:", "cache_unavailable:")
_output_decoder = msgspec.json.Decoder(WebSearchOutput)
_encoder = msgspec.json.Encoder()


def provider_scope(manifest: Manifest, provider: str) -> str:
    """A short digest of the settings that decide which service answers for *provider*: a
    built-in provider's ``base_url``, a plugin provider's whole table.

    Part of the key of a search: two manifests on one cache that name different instances
    (another SearXNG, a Brave-compatible proxy) never get each other's answers.
    """
    search = manifest.web.search
    settings: object
    if provider == "brave":
        settings = search.brave.base_url
    elif provider == "searxng":
        settings = search.searxng.base_url
    else:
        settings = search.plugins.get(provider)
    return settings_digest(settings)


def search_params(
    request: SearchRequest,
    *,
    provider: str,
    mode: str,
    max_tokens: int | None = None,
    pages: int | None = None,
    scope: str | None = None,
    endpoint: str | None = None,
    rerank: str | None = None,
    pages_per_host: int | None = None,
) -> dict[str, object]:
    """The parameters a cached answer must share with this call (its key, with the query).

    Everything comes from *request* as the provider receives it, so the domain filters are
    already normalised and sorted (their spelling and order do not matter); ``max_tokens``,
    the number of *pages* read, the most read of one host (*pages_per_host*) and the
    *rerank* stage are part of the key of an excerpt search only. *scope*
    is the manifest's network view (:func:`~.services.network_scope`): an answer whose
    pages were read at addresses one manifest allows is not reused under another.
    *endpoint* is :func:`provider_scope`: which instance of the provider answered.
    """
    params: dict[str, object] = {
        "provider": provider,
        "endpoint": endpoint,
        "scope": scope,
        "mode": mode,
        "count": request.count,
        "offset": request.offset,
        "freshness": request.freshness,
        "allowed_domains": list(request.allowed_domains) or None,
        "blocked_domains": list(request.blocked_domains) or None,
        "safesearch": request.safesearch,
        "country": request.country,
        "search_lang": request.search_lang,
        "ui_lang": request.ui_lang,
    }
    if mode == "excerpts":
        params["max_tokens"] = max_tokens
        params["pages"] = pages
        params["pages_per_host"] = pages_per_host
        params["rerank"] = None if rerank == "none" else rerank
    return params


def usable_age_s(freshness: str | None, ttl_s: float) -> float | None:
    """The oldest cached answer usable for *freshness*; ``None``: do not read the cache."""
    if freshness is None:
        return float(ttl_s)
    cap = FRESHNESS_MAX_AGE_S.get(freshness)
    if cap is None:  # an explicit date range: the cache cannot tell what it covers
        return None
    return min(float(ttl_s), cap)


def _quoted(query: str | None) -> str:
    """An earlier query (a model wrote it, maybe from a page) for the provenance line."""
    text = one_line(query or "").replace('"', "'")
    if len(text) > MAX_QUOTED_CHARS:
        text = text[: MAX_QUOTED_CHARS - 3] + "..."
    return f'"{text}"'


def provenance_header(info: SearchCacheInfo, *, provider: str, cache_enabled: bool = True) -> str:
    """The first line of every WebSearch text: where the answer came from, and how old it is
    when it was reused.

    With the cache disabled there is no cache to speak of: the line names the provider only
    (``[source: brave]``).
    """
    if not cache_enabled:
        return f"[source: {provider}]"
    if info.status == "unavailable":
        return f"[cache: unavailable · {provider}]"
    if info.status == "miss" or info.match is None:
        return f"[cache: miss · {provider}]"
    age = format_age(info.age_s or 0.0)
    if info.match == "exact":
        return f"[cache: exact match · {age} old]"
    return f"[cache: {info.match} match to {_quoted(info.matched_query)} · {age} old]"


def hit_info(hit: SearchHit) -> SearchCacheInfo:
    """The ``cache`` field of an answer served from *hit*."""
    return SearchCacheInfo(
        status="hit", match=hit.match, matched_query=hit.matched_query, age_s=round(hit.age_s, 3)
    )


def finding_item(finding: Finding, now: float) -> FindingItem:
    """The structured form of a saved finding (looked up under the caller's network view),
    with its age at *now*."""
    return FindingItem(
        id=str(finding.id),
        query=finding.query,
        content=finding.content,
        source_url=finding.verified_by_url if finding.verified else finding.source_url,
        verified=finding.verified,
        age_s=round(max(0.0, now - finding.stored_at), 3),
    )


def _warn(warnings: list[str], exc: ToolError) -> None:
    warnings.append(f"{exc.code}: {exc.message}; the cache was not used for this step")


def _failed(exc: ToolError) -> bool:
    """Whether *exc* is the cache failing (as opposed to a tool error to pass on)."""
    return exc.code in {"cache_error", "cache_unavailable"}


class SearchCache:
    """Cache reads and writes for WebSearch; a cache failure becomes a warning, never a failure.

    *cache* is ``None`` when the cache is disabled: every lookup misses and nothing is stored.
    :attr:`unavailable` turns true when the store could not be reached.
    """

    def __init__(
        self,
        cache: CacheStore | None,
        *,
        ttl_s: float,
        clock: Callable[[], float] = time.time,
        scope: str = "",
    ) -> None:
        self.cache = cache
        self.ttl_s = ttl_s
        self.clock = clock
        self.scope = scope
        """The caller's network view: findings verified under another show unverified."""
        self.unavailable = False

    def _note(self, warnings: list[str], exc: ToolError) -> None:
        if exc.code == "cache_unavailable":
            if self.unavailable:
                return  # said once per call
            self.unavailable = True
        _warn(warnings, exc)

    async def lookup(
        self,
        query: str,
        params: dict[str, object],
        *,
        freshness: str | None,
        force_fresh: bool,
        warnings: list[str],
    ) -> tuple[WebSearchOutput, SearchCacheInfo] | None:
        """A stored answer usable for this call, with its provenance; ``None`` to search."""
        max_age = usable_age_s(freshness, self.ttl_s)
        if self.cache is None or force_fresh or max_age is None:
            return None
        try:
            hit = await self.cache.get_search(query, params, max_age_s=max_age)
        except ToolError as exc:
            if not _failed(exc):
                raise
            self._note(warnings, exc)
            return None
        if hit is None:
            return None
        try:
            stored = _output_decoder.decode(hit.payload)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            warnings.append("cache_error: a stored answer could not be read; searched again")
            return None
        return stored, hit_info(hit)

    async def store(
        self, query: str, params: dict[str, object], output: WebSearchOutput, warnings: list[str]
    ) -> None:
        """Store *output* (without findings, which are looked up anew on every call)."""
        if self.cache is None or self.unavailable:
            return
        kept = msgspec.structs.replace(
            output,
            findings=[],
            warnings=[w for w in output.warnings if not w.startswith(_CACHE_WARNINGS)],
        )
        try:
            await self.cache.put_search(query, params, output.provider, _encoder.encode(kept))
        except ToolError as exc:
            if not _failed(exc):
                raise
            self._note(warnings, exc)

    async def findings(
        self, query: str, warnings: list[str], *, limit: int = 3
    ) -> list[FindingItem]:
        """Unexpired findings relevant to *query* (most relevant first)."""
        if self.cache is None or self.unavailable:
            return []
        try:
            found = await self.cache.find_findings(query, limit=limit, scope=self.scope)
        except ToolError as exc:
            if not _failed(exc):
                raise
            self._note(warnings, exc)
            return []
        now = self.clock()
        return [finding_item(f, now) for f in found]
