"""insomnia-web's own hook implementations (the built-in ``web`` plugin).

Registered exactly like a third-party plugin: the entry point ``web = "insomnia_web.hooks"``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .config import Manifest
from .hookspecs import hookimpl
from .permissions import Decision, Rule, ToolCall, evaluate_rules, parse_rules
from .rank.rerank import Reranker
from .search.base import SearchProvider
from .tools.base import Tool
from .tools.save_finding import SaveFinding
from .tools.services import WebServices
from .tools.web_fetch import WebFetch
from .tools.web_search import WebSearch

__all__ = [
    "check_permission",
    "register_rerankers",
    "register_search_providers",
    "register_tools",
]


@hookimpl
def register_tools(register: Callable[[Tool[Any, Any]], None], manifest: Manifest) -> None:
    """Register WebSearch, WebFetch and SaveFinding as the manifest enables them."""
    web = manifest.web
    if not web.enabled:
        return
    services = WebServices(manifest)  # shared; builds nothing until a call needs it
    if web.search.enabled:
        register(WebSearch(manifest, services))
    if web.fetch.enabled:
        register(WebFetch(manifest, services))
    if web.cache.enabled and web.cache.findings:
        register(SaveFinding(manifest, services))


@hookimpl
def check_permission(call: ToolCall, manifest: Manifest) -> Decision | None:
    """Apply the manifest's ``[permissions]`` rules: deny, then ask, then allow."""
    perms = manifest.permissions
    return evaluate_rules(
        call,
        allow=_compiled(tuple(perms.allow)),
        ask=_compiled(tuple(perms.ask)),
        deny=_compiled(tuple(perms.deny)),
    )


@functools.lru_cache(maxsize=64)
def _compiled(rules: tuple[str, ...]) -> tuple[Rule, ...]:
    """Rules parsed once per distinct list (they are checked for every search hit and page)."""
    return tuple(parse_rules(rules))


@hookimpl
def register_search_providers(register: Callable[[type[SearchProvider]], None]) -> None:
    """Register the built-in search providers: brave and searxng."""
    from .search.brave import BraveProvider
    from .search.searxng import SearxngProvider

    register(BraveProvider)
    register(SearxngProvider)


@hookimpl
def register_rerankers(register: Callable[[type[Reranker]], None]) -> None:
    """Register the built-in reranker: ``static`` (needs the ``rerank`` extra to run)."""
    from .rank.static_rerank import StaticReranker

    register(StaticReranker)
