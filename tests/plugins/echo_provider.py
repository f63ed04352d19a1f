"""A fixture third-party plugin: registers an ``echo`` search provider through the hook."""

from __future__ import annotations

from collections.abc import Callable

from insomnia_web import SearchHit, SearchProvider, SearchRequest, SearchResponse, hookimpl
from insomnia_web.net.client import SafeClient


class EchoProvider(SearchProvider):
    """Answers every query with one hit that repeats it."""

    name = "echo"

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        """One hit whose title is the query."""
        hit = SearchHit(title=request.query, url="https://echo.example/", snippet="echo")
        return SearchResponse(provider=self.name, hits=[hit])


@hookimpl
def register_search_providers(register: Callable[[type[SearchProvider]], None]) -> None:
    """Register the echo provider."""
    register(EchoProvider)
