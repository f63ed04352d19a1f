"""The search provider extension point.

A provider is a small class with one coroutine, :meth:`SearchProvider.search`, plus
:meth:`~SearchProvider.aclose`; it is usable as an async context manager. Plugins register
provider *classes* through the ``register_search_providers`` hook; the runtime builds the
one the manifest names with :meth:`SearchProvider.from_manifest` on the first search (never at
start-up), so a missing API key is reported by the call that needs it.

:class:`insomnia_web.testing.MockProvider` takes a sync or async handler, for tests of hosts
and of provider plugins.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Self

import msgspec
from msgspec import Meta

from ..closing import AsyncClosing

if TYPE_CHECKING:
    from ..config import Manifest
    from ..net.client import SafeClient
    from .ratelimit import BudgetStore

__all__ = [
    "SearchHit",
    "SearchProvider",
    "SearchRequest",
    "SearchResponse",
]


class SearchRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One search as a provider receives it (already validated)."""

    query: str
    count: Annotated[int, Meta(ge=1, le=20)] = 5
    offset: Annotated[int, Meta(ge=0, le=9)] = 0
    freshness: str | None = None
    """``pd``, ``pw``, ``pm``, ``py`` or ``YYYY-MM-DDtoYYYY-MM-DD``."""
    safesearch: str = "moderate"
    country: str | None = None
    search_lang: str | None = None
    ui_lang: str | None = None
    allowed_domains: tuple[str, ...] = ()
    blocked_domains: tuple[str, ...] = ()
    timeout_s: float = 10.0


class SearchHit(msgspec.Struct, frozen=True, kw_only=True):
    """One result, reduced to what the model needs."""

    title: str
    url: str
    snippet: str = ""
    age: str | None = None
    extra_snippets: tuple[str, ...] = ()


class SearchResponse(msgspec.Struct, frozen=True, kw_only=True):
    """A provider's answer: hits in rank order plus provider metadata."""

    provider: str
    hits: list[SearchHit]
    altered_query: str | None = None
    """The query as the provider changed it (spelling correction), if it did."""
    total: int | None = None
    meta: dict[str, Any] = msgspec.field(default_factory=dict)
    warnings: list[str] = msgspec.field(default_factory=list)
    """Non-fatal problems (a filter the provider could not apply...), shown to the model."""


class SearchProvider(AsyncClosing, ABC):
    """Base class of search providers. Subclasses set ``name`` and implement ``search``."""

    name: ClassVar[str]
    supports_domain_filters: ClassVar[bool] = False
    """True if the provider applies ``allowed_domains``/``blocked_domains`` itself."""

    @classmethod
    def hosts(cls, manifest: Manifest) -> tuple[str, ...]:
        """The hosts a search contacts, for permission rules and prompts (default: none)."""
        return ()

    def secrets(self) -> tuple[str, ...]:
        """Values that must never be shown (API keys): WebSearch redacts them from every
        string of the provider's answers and errors. Default: none."""
        return ()

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        """Build the provider from the manifest; raise ``ToolError("not_configured")`` if unset.

        The default calls the class with no arguments.
        """
        return cls()

    def share_limits(self, store: BudgetStore) -> None:
        """Keep this provider's request budget in *store*, shared by every process using it.

        Called once after :meth:`from_manifest` when the cache is enabled. The default does
        nothing; providers built on :class:`~.http.ProviderHttp` swap in a
        :class:`~.ratelimit.SharedBucket`.
        """
        return None

    @abstractmethod
    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        """Run *request*; all HTTP goes through *client* (bounded, policy-checked)."""

    async def aclose(self) -> None:
        """Release resources (the default has none)."""
        return None
