"""The host contract: the hooks a Python agent runtime calls on insomnia plugins.

pluggy project name ``"insomnia"``; plugins are found through the ``insomnia`` entry-point
group. Hooks are synchronous (pluggy cannot await): async work lives in the objects they
register. ``hooks.md`` documents each hook with an example.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pluggy import HookimplMarker, HookspecMarker

if TYPE_CHECKING:
    from .config import Manifest
    from .permissions import Decision, ToolCall
    from .rank.rerank import Reranker
    from .search.base import SearchProvider
    from .tools.base import Tool

__all__ = ["PROJECT_NAME", "hookimpl", "hookspec"]

PROJECT_NAME = "insomnia"
hookspec = HookspecMarker(PROJECT_NAME)
hookimpl = HookimplMarker(PROJECT_NAME)


@hookspec
def register_tools(register: Callable[[Tool[Any, Any]], None], manifest: Manifest) -> None:
    """Call ``register(tool)`` for each tool this plugin offers that the manifest enables.

    Called once per plugin when the runtime starts; every plugin's results are kept, stamped
    with the plugin's name. Two tools with one name are an error. Must not touch the network.
    """


@hookspec
def check_permission(call: ToolCall, manifest: Manifest) -> Decision | None:
    """Return a :class:`Decision` (allow, ask or deny) for *call*, or ``None`` for no opinion.

    Called before every tool call. All plugins are asked; any deny wins, then any ask, then
    allow. With no opinion at all the manifest's ``permissions.default`` applies.
    """


@hookspec
def register_search_providers(register: Callable[[type[SearchProvider]], None]) -> None:
    """Call ``register(ProviderClass)`` for each search provider this plugin offers.

    Called once per plugin when the runtime starts; providers are keyed by their ``name``
    class attribute and stamped with the plugin's name. Two providers with one name are an
    error. The manifest's ``web.search.provider`` selects one by name.
    """


@hookspec
def register_rerankers(register: Callable[[type[Reranker]], None]) -> None:
    """Call ``register(RerankerClass)`` for each passage reranker this plugin offers.

    Called once per plugin when the runtime starts; rerankers are keyed by their ``name``
    class attribute and stamped with the plugin's name. Two rerankers with one name are an
    error. ``web.pipeline.rerank`` selects one by name; it is built on the first excerpt
    search that needs it, once per process, in a worker thread, and its scores are fused
    with the first-stage ranking.
    """
