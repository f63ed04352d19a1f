"""Fixture plugin parts whose own code has a bug: they cannot be built."""

from __future__ import annotations

from typing import ClassVar, Self

from insomnia_web import Manifest, SearchProvider, SearchRequest, SearchResponse
from insomnia_web.net import SafeClient


class Unbuildable(SearchProvider):
    """A provider whose settings code has a bug."""

    name: ClassVar[str] = "unbuildable"

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        raise KeyError("base_url")

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        raise AssertionError("never built")
