"""Fixture plugin parts whose own code has a bug: they cannot be built."""

from __future__ import annotations

from typing import ClassVar, Self

from insomnia_web import Manifest, SearchProvider, SearchRequest, SearchResponse, ToolError
from insomnia_web.net import SafeClient


class Unbuildable(SearchProvider):
    """A provider whose settings code has a bug."""

    name: ClassVar[str] = "unbuildable"

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        raise KeyError("base_url")

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        raise AssertionError("never built")


class KeyOnly(SearchProvider):
    """A provider that needs an environment variable and says so as its remedy."""

    name: ClassVar[str] = "key-only"

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        raise ToolError(
            "not_configured",
            "Key-only Search needs KEY_ONLY_API_KEY",
            remedy="Set KEY_ONLY_API_KEY to a Key-only Search API key.",
        )

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        raise AssertionError("never built")


class Unremedied(SearchProvider):
    """A provider that is not configured and gives no remedy of its own."""

    name: ClassVar[str] = "unremedied"

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        raise ToolError("not_configured", "Unremedied Search needs UNREMEDIED_TOKEN set")

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        raise AssertionError("never built")
