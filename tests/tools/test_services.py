"""Shared web services: a provider or reranker that cannot be built says which one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import ClassVar

import pytest

from insomnia_web import Manifest, Reranker, RerankPassage, ToolError
from insomnia_web.tools.services import WebServices
from tests.plugins.broken import Unbuildable


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


async def build_provider(services: WebServices) -> object:
    """Build the provider whose ``from_manifest`` has a bug."""
    return services.provider(Unbuildable)


async def build_reranker(services: WebServices) -> object:
    """Build the reranker whose model file is missing."""
    return await services.reranker(NoModel, wait_s=5)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("build", "code", "named", "raised"),
    [
        (build_provider, "provider_error", "'unbuildable'", "KeyError"),
        (build_reranker, "internal_error", "'no-model'", "FileNotFoundError"),
    ],
)
async def test_a_part_that_cannot_be_built_is_an_error_naming_it(
    build: Callable[[WebServices], Awaitable[object]], code: str, named: str, raised: str
) -> None:
    """A provider's from_manifest or a reranker's __init__ raising a bug is a non-retryable
    error naming the part and the exception's type (provider_error, internal_error)."""
    with pytest.raises(ToolError) as failed:
        await build(WebServices(Manifest()))
    assert failed.value.code == code
    assert named in failed.value.message
    assert raised in failed.value.message
    assert not failed.value.retryable


@pytest.mark.asyncio
async def test_a_reranker_tool_error_is_kept_as_it_is() -> None:
    """A ToolError from a reranker's __init__ (not_configured) reaches the search unchanged."""
    with pytest.raises(ToolError) as failed:
        await WebServices(Manifest()).reranker(NotConfigured, wait_s=5)
    assert (failed.value.code, failed.value.message) == ("not_configured", "pip install something")
