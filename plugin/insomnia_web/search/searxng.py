"""SearXNG, the self-hosted metasearch engine (``GET {base_url}/search?format=json``).

No API key: the user owns the instance. The instance must allow the JSON format
(``json`` in ``search.formats`` of its ``settings.yml``); otherwise it answers 403 and the
error says so. Its origin may be private (``http://127.0.0.1:8888``) because the user
configured it; result URLs still go through the full URL policy.

``freshness`` maps to ``time_range`` (pd day, pw week, pm month, py year); SearXNG has no
date-range filter, so a ``YYYY-MM-DDtoYYYY-MM-DD`` range is ignored with a warning.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, Self

import msgspec
from yarl import URL

from ..errors import ToolError, relay
from .base import SearchHit, SearchProvider, SearchRequest, SearchResponse
from .http import ProviderHttp
from .markup import clean_text
from .ratelimit import SharedBucket, shared_bucket

if TYPE_CHECKING:
    from ..config import Manifest
    from ..net.client import SafeClient
    from .ratelimit import BudgetStore

__all__ = ["SAFESEARCH_LEVELS", "TIME_RANGES", "SearxngProvider"]

TIME_RANGES = {"pd": "day", "pw": "week", "pm": "month", "py": "year"}
"""``freshness`` -> SearXNG ``time_range``."""
SAFESEARCH_LEVELS = {"off": "0", "moderate": "1", "strict": "2"}
"""``safesearch`` -> SearXNG's numeric level."""
_SET_BASE_URL = (
    "Set web.search.searxng.base_url to a SearXNG instance (e.g. http://127.0.0.1:8888)."
)


class _Result(msgspec.Struct):
    url: str = ""
    title: str = ""
    content: str | None = ""
    published_date: str | None = msgspec.field(default=None, name="publishedDate")


class _Answer(msgspec.Struct):
    results: list[_Result] = msgspec.field(default_factory=list)
    corrections: list[str] = msgspec.field(default_factory=list)
    unresponsive_engines: list[Any] = msgspec.field(default_factory=list)


def _engine_failures(entries: list[Any]) -> list[str]:
    """``["google (timeout)", ...]`` from SearXNG's ``[[engine, reason], ...]`` list."""
    out: list[str] = []
    for entry in entries:
        if isinstance(entry, list) and entry:
            name = str(entry[0])
            out.append(f"{name} ({entry[1]})" if len(entry) > 1 else name)
    return out


class SearxngProvider(SearchProvider):
    """A SearXNG instance's JSON search API."""

    name: ClassVar[str] = "searxng"

    def __init__(self, base_url: str, *, rate_limit_per_s: float = 1.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.endpoint = URL(self.base_url + "/search")
        self.http = ProviderHttp(
            provider=self.name,
            bucket=shared_bucket(self.name, self.base_url),
            rate_limit_per_s=rate_limit_per_s,
            status_messages={
                403: f"the SearXNG instance at {self.base_url} refused format=json (HTTP "
                "403): enable json in search.formats of its settings.yml",
            },
            status_remedies={
                403: f"Enable json in search.formats of the settings.yml of {self.base_url}.",
            },
        )

    def share_limits(self, store: BudgetStore) -> None:
        """Share this instance's request rate through *store* with every other process."""
        bucket = SharedBucket(store, f"{self.name}:{self.base_url}")
        self.http = dataclasses.replace(self.http, bucket=bucket)

    @classmethod
    def hosts(cls, manifest: Manifest) -> tuple[str, ...]:
        """The instance's host, when one is configured."""
        base = manifest.web.search.searxng.base_url
        host = URL(base).host if base else None
        return (host,) if host else ()

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        """Build from ``web.search.searxng``; ``not_configured`` if ``base_url`` is unset."""
        search = manifest.web.search
        if not search.searxng.base_url:
            raise ToolError(
                "not_configured",
                "SearXNG is selected but web.search.searxng.base_url is not set in the manifest.",
                hint=relay(_SET_BASE_URL, then="Do not retry until then."),
                remedy=_SET_BASE_URL,
                details={"key": "web.search.searxng.base_url"},
            )
        return cls(search.searxng.base_url, rate_limit_per_s=search.rate_limit_per_s)

    def params(self, request: SearchRequest) -> tuple[dict[str, str], list[str]]:
        """The query parameters sent for *request*, and warnings about what was dropped."""
        params = {
            "q": request.query,
            "format": "json",
            "pageno": str(request.offset + 1),
            "safesearch": SAFESEARCH_LEVELS.get(request.safesearch, "1"),
        }
        warnings: list[str] = []
        if request.search_lang:
            params["language"] = request.search_lang
        if request.freshness in TIME_RANGES:
            params["time_range"] = TIME_RANGES[request.freshness]
        elif request.freshness:
            warnings.append(
                f"searxng cannot filter by a date range; freshness {request.freshness} was "
                "ignored (use pd, pw, pm or py)"
            )
        return params, warnings

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        """Query the instance and keep the first ``count`` results."""
        params, warnings = self.params(request)
        url = self.endpoint.with_query(params)
        answer = await self.http.get_json(client, url, timeout_s=request.timeout_s, type=_Answer)
        hits = [
            SearchHit(
                title=clean_text(r.title) or r.url,
                url=r.url,
                snippet=clean_text(r.content),
                age=(r.published_date or "")[:10] or None,
            )
            for r in answer.results
            if r.url
        ][: request.count]
        failed = _engine_failures(answer.unresponsive_engines)
        if failed:
            warnings.append("searxng engines that did not answer: " + ", ".join(failed))
        return SearchResponse(
            provider=self.name,
            hits=hits,
            total=len(hits),
            meta={"corrections": answer.corrections},
            warnings=warnings,
        )
