"""Brave Search (``GET {base_url}/res/v1/web/search``).

The API key is read from the environment variable the manifest names
(``web.search.brave.api_key_env``, default ``BRAVE_SEARCH_API_KEY``) and sent only to the
configured origin as ``X-Subscription-Token``. Only the ``web`` bucket of the answer is
used; news, videos and the rest are ignored.

Domain filters: Brave has no allow-list parameter. A single allowed domain is added to the
query as a ``site:`` operator (when the query stays within 400 characters and 50 words);
WebSearch always filters the results by domain afterwards as well.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, ClassVar, Self

import msgspec
from yarl import URL

from ..errors import ToolError, relay
from .base import SearchHit, SearchProvider, SearchRequest, SearchResponse
from .http import ProviderHttp
from .markup import clean_text
from .ratelimit import SharedBucket, key_fingerprint, shared_bucket

if TYPE_CHECKING:
    from ..config import Manifest
    from ..net.client import SafeClient
    from .ratelimit import BudgetStore

__all__ = ["SEARCH_PATH", "BraveProvider"]

SEARCH_PATH = "/res/v1/web/search"
_MAX_QUERY_CHARS = 400
_MAX_QUERY_WORDS = 50
_UNTIL_THEN = "Do not retry until then."


class _Result(msgspec.Struct):
    title: str = ""
    url: str = ""
    description: str = ""
    age: str | None = None
    extra_snippets: list[str] = msgspec.field(default_factory=list)


class _Web(msgspec.Struct):
    results: list[_Result] = msgspec.field(default_factory=list)


class _Query(msgspec.Struct):
    original: str = ""
    altered: str | None = None
    more_results_available: bool | None = None


class _Answer(msgspec.Struct):
    query: _Query | None = None
    web: _Web | None = None


def _with_site(query: str, allowed: tuple[str, ...]) -> str:
    """*query* with a ``site:`` operator for a single allowed domain, if it still fits.

    The domains arrive normalised (bare lower-case IDNA hosts) from WebSearch.
    """
    if len(allowed) != 1:
        return query
    candidate = f"{query} site:{allowed[0]}"
    if len(candidate) > _MAX_QUERY_CHARS or len(candidate.split()) > _MAX_QUERY_WORDS:
        return query
    return candidate


def _key_remedy(env: str) -> str:
    """What a person does about a 401 or 403: the key is wrong, so retrying cannot help."""
    return f"Set {env} to a valid Brave Search API key subscribed to the Web Search API."


class BraveProvider(SearchProvider):
    """The Brave Search web API."""

    name: ClassVar[str] = "brave"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = "https://api.search.brave.com",
        rate_limit_per_s: float = 1.0,
        key_env: str = "BRAVE_SEARCH_API_KEY",
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> None:
        self._api_key = api_key
        self.endpoint = URL(base_url.rstrip("/") + SEARCH_PATH)
        self.bucket_name = f"{self.name}:{key_fingerprint(api_key)}"
        """The key's budget name in the cache store (a fingerprint, never the key)."""
        self.monthly_limit = monthly_limit
        self.daily_limit = daily_limit
        self.http = ProviderHttp(
            provider=self.name,
            bucket=shared_bucket(self.name, key_fingerprint(api_key)),
            rate_limit_per_s=rate_limit_per_s,
            headers={"X-Subscription-Token": api_key},
            status_messages={
                401: "Brave Search rejected the API key (HTTP 401): the key is missing or invalid",
                403: "Brave Search refused the API key (HTTP 403): the key is missing, invalid "
                "or not subscribed to the Web Search API",
            },
            status_hints=dict.fromkeys(
                (401, 403),
                "The key was refused. " + relay(_key_remedy(key_env), then=_UNTIL_THEN),
            ),
            status_remedies=dict.fromkeys((401, 403), _key_remedy(key_env)),
        )

    def secrets(self) -> tuple[str, ...]:
        """The API key: never shown, even when an answer echoes it."""
        return (self._api_key,)

    @classmethod
    def hosts(cls, manifest: Manifest) -> tuple[str, ...]:
        """The API host of the configured base URL."""
        host = URL(manifest.web.search.brave.base_url).host
        return (host,) if host else ()

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        """Read the key from the environment; ``not_configured`` naming what to set if unset."""
        search = manifest.web.search
        env = search.brave.api_key_env
        api_key = os.environ.get(env, "").strip()
        if not api_key:
            remedy = (
                f"Set {env} to a Brave Search API key, or choose another provider with "
                "web.search.provider."
            )
            raise ToolError(
                "not_configured",
                f"Brave Search needs an API key: the environment variable {env} is not set "
                "(its name comes from web.search.brave.api_key_env in the manifest).",
                hint=relay(remedy, then=_UNTIL_THEN),
                remedy=remedy,
                details={"env": env, "key": "web.search.brave.api_key_env"},
            )
        return cls(
            api_key,
            base_url=search.brave.base_url,
            rate_limit_per_s=search.rate_limit_per_s,
            key_env=env,
            monthly_limit=search.brave.monthly_limit,
            daily_limit=search.brave.daily_limit,
        )

    def share_limits(self, store: BudgetStore) -> None:
        """Take this key's rate, 429 holds and daily and monthly counts from *store* (all
        processes)."""
        bucket = SharedBucket(
            store,
            self.bucket_name,
            monthly_limit=self.monthly_limit,
            daily_limit=self.daily_limit,
        )
        self.http = dataclasses.replace(self.http, bucket=bucket)

    def params(self, request: SearchRequest) -> dict[str, str]:
        """The query parameters sent for *request*."""
        params = {
            "q": _with_site(request.query, request.allowed_domains),
            "count": str(min(max(request.count, 1), 20)),
            "offset": str(min(max(request.offset, 0), 9)),
            "safesearch": request.safesearch or "moderate",
        }
        optional = {
            "country": request.country,
            "search_lang": request.search_lang,
            "ui_lang": request.ui_lang,
            "freshness": request.freshness,
        }
        params.update({k: v for k, v in optional.items() if v})
        return params

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        """Query the web search endpoint and reduce its ``web`` results."""
        url = self.endpoint.with_query(self.params(request))
        answer = await self.http.get_json(client, url, timeout_s=request.timeout_s, type=_Answer)
        hits = [
            SearchHit(
                title=clean_text(r.title) or r.url,
                url=r.url,
                snippet=clean_text(r.description),
                age=r.age or None,
                extra_snippets=tuple(clean_text(s) for s in r.extra_snippets if s),
            )
            for r in (answer.web.results if answer.web else [])
            if r.url
        ]
        query = answer.query or _Query()
        return SearchResponse(
            provider=self.name,
            hits=hits,
            altered_query=query.altered or None,
            total=len(hits),
            meta={"more_results_available": query.more_results_available},
        )
