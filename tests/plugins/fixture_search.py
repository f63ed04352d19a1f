"""A fixture third-party plugin: a ``fixture`` search provider with its own manifest table.

Its results include URLs the URL policy refuses and a host a deny rule may name, so tests
can see WebSearch filter them. ``web.search.plugins.fixture.prefix`` sets the title prefix.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Self

from insomnia_web import (
    Manifest,
    SearchHit,
    SearchProvider,
    SearchRequest,
    SearchResponse,
    hookimpl,
)
from insomnia_web.net.client import SafeClient

URLS = (
    "https://docs.example.org/guide",
    "http://localhost/admin",
    "https://blog.example.org/post",
    "https://veto.example/page",
    "https://other.test/a",
)


class FixtureSearch(SearchProvider):
    """Answers every query with one hit per URL in ``URLS``, in that order."""

    name: ClassVar[str] = "fixture"

    def __init__(self, prefix: str = "Result") -> None:
        self.prefix = prefix
        self.requests: list[SearchRequest] = []

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        """Read ``web.search.plugins.fixture``."""
        settings = manifest.web.search.plugins.get("fixture", {})
        return cls(prefix=str(settings.get("prefix", "Result")))

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        """One hit per URL, titled with the prefix and the query."""
        self.requests.append(request)
        hits = [
            SearchHit(title=f"{self.prefix} {i} for {request.query}", url=url, snippet=f"s{i}")
            for i, url in enumerate(URLS, start=1)
        ]
        return SearchResponse(provider=self.name, hits=hits[: request.count])


@hookimpl
def register_search_providers(register: Callable[[type[SearchProvider]], None]) -> None:
    """Register the fixture provider."""
    register(FixtureSearch)
