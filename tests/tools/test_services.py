"""Shared web services: a provider or reranker that cannot be built says which one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

import pytest

from insomnia_web import (
    Manifest,
    Reranker,
    RerankPassage,
    SearchProvider,
    SearchRequest,
    SearchResponse,
    ToolError,
)
from insomnia_web.net import SafeClient
from insomnia_web.tools.services import WebServices


class Unbuildable(SearchProvider):
    """A provider whose settings code has a bug."""

    name: ClassVar[str] = "unbuildable"

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> Self:
        raise KeyError("base_url")

    async def search(self, request: SearchRequest, client: SafeClient) -> SearchResponse:
        raise AssertionError("never built")


class NoModel(Reranker):
    """A reranker whose model file is missing."""

    name: ClassVar[str] = "no-model"

    def __init__(self) -> None:
        raise FileNotFoundError("model.onnx")

    def score(self, query: str, passages: Sequence[RerankPassage]) -> list[float]:
        raise AssertionError("never built")


class NotConfigured(Reranker):
    """A reranker that says what to install, as hooks.md asks."""

    name: ClassVar[str] = "needs-install"

    def __init__(self) -> None:
        raise ToolError("not_configured", "pip install something")

    def score(self, query: str, passages: Sequence[RerankPassage]) -> list[float]:
        raise AssertionError("never built")


def test_a_provider_that_cannot_be_built_is_a_provider_error_naming_it() -> None:
    """from_manifest raising a bug is a non-retryable provider_error naming the provider."""
    with pytest.raises(ToolError) as failed:
        WebServices(Manifest()).provider(Unbuildable)
    assert failed.value.code == "provider_error"
    assert "'unbuildable'" in failed.value.message
    assert "KeyError" in failed.value.message
    assert not failed.value.retryable


def test_a_reranker_that_cannot_be_built_is_an_internal_error_naming_it() -> None:
    """A reranker __init__ raising a bug is a non-retryable internal_error naming the reranker."""
    with pytest.raises(ToolError) as failed:
        WebServices(Manifest()).reranker(NoModel)
    assert failed.value.code == "internal_error"
    assert "'no-model'" in failed.value.message
    assert "FileNotFoundError" in failed.value.message
    assert not failed.value.retryable


def test_a_reranker_tool_error_is_kept_as_it_is() -> None:
    """A ToolError from a reranker's __init__ (not_configured) reaches the search unchanged."""
    with pytest.raises(ToolError) as failed:
        WebServices(Manifest()).reranker(NotConfigured)
    assert (failed.value.code, failed.value.message) == ("not_configured", "pip install something")
