"""Test helpers for hosts and plugin authors: a scripted search provider and a plugin for it.

Kept apart from the contract modules (as httpx keeps ``MockTransport`` apart from its
transports), so importing the hook specifications never imports test code.

- :class:`MockProvider`: a :class:`~insomnia_web.search.base.SearchProvider` answering from a
  sync or async handler; ``MockProvider.named("mine", handler)`` gives a registrable class.
- :class:`ProviderPlugin`: a plugin object registering provider classes, to pass as
  ``Runtime(plugins=[ProviderPlugin(cls)])``.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar, Self

from .hookspecs import hookimpl
from .search.base import SearchHit, SearchProvider, SearchRequest, SearchResponse

if TYPE_CHECKING:
    from .config import Manifest
    from .net.client import SafeClient

__all__ = ["Handler", "MockProvider", "ProviderPlugin"]


Handler = Callable[
    [SearchRequest],
    "SearchResponse | list[SearchHit] | Awaitable[SearchResponse | list[SearchHit]]",
]


class MockProvider(SearchProvider):
    """A provider answering from a sync or async handler; for tests.

    ``MockProvider.named("mine", handler)`` returns a class to pass to ``register``.
    """

    name: ClassVar[str] = "mock"

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[SearchRequest] = []

    @classmethod
    def named(cls, name: str, handler: Handler) -> type[MockProvider]:
        """A registrable subclass called *name* whose instances use *handler*."""

        class _Named(cls):  # type: ignore[valid-type,misc]
            @classmethod
            def from_manifest(cls_, manifest: Manifest) -> Self:
                return cls_(handler)

        _Named.name = name
        _Named.__name__ = _Named.__qualname__ = f"MockProvider[{name}]"
        return _Named

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        """Return the handler's answer (a list of hits is wrapped in a response)."""
        self.requests.append(request)
        answer = self.handler(request)
        if inspect.isawaitable(answer):
            answer = await answer
        if isinstance(answer, SearchResponse):
            return answer
        return SearchResponse(provider=self.name, hits=list(answer))


class ProviderPlugin:
    """A plugin object registering the given provider classes; for tests and embedding hosts.

    ``Runtime(plugins=[ProviderPlugin(MockProvider.named("mine", handler))])``.
    """

    def __init__(self, *classes: type[SearchProvider], name: str | None = None) -> None:
        self.classes = classes
        self.__name__ = name or "providers:" + ",".join(c.name for c in classes)

    @hookimpl
    def register_search_providers(self, register: Callable[[type[SearchProvider]], None]) -> None:
        """Register each class."""
        for cls in self.classes:
            register(cls)
