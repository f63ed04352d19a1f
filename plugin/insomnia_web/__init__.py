"""insomnia-web: bounded, observable web tools for LLM agent runtimes.

The host contract lives in :mod:`insomnia_web.hookspecs`; :class:`Runtime` is the reference
host that loads plugins, asks for permission, runs tools and records history.
:mod:`insomnia_web.testing` has a scripted search provider for tests.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import Manifest, load_manifest, parse_manifest
    from .errors import (
        ErrorCode,
        ErrorInfo,
        InsomniaWebError,
        ManifestError,
        PluginError,
        ToolError,
        ToolTimeout,
        relay,
    )
    from .history import (
        Event,
        JsonlHistory,
        MemoryHistory,
        PermissionEvent,
        ProgressEvent,
        ToolCallEvent,
        ToolResultEvent,
        decode_event,
    )
    from .hookspecs import hookimpl
    from .net import SafeClient, UrlVerdict, check_url
    from .permissions import Decision, ToolCall
    from .prompts import (
        AutoApprovePrompter,
        DenyPrompter,
        Prompter,
        PromptRequest,
        TerminalPrompter,
    )
    from .rank.rerank import Reranker, RerankPassage
    from .runtime import Runtime, ToolResult
    from .search.base import SearchHit, SearchProvider, SearchRequest, SearchResponse
    from .testing import MockProvider, ProviderPlugin
    from .tools.base import CallSubject, Tool, ToolAnnotations, ToolContext, ToolOutput, ToolSpec

_LAZY = {
    "AutoApprovePrompter": "prompts",
    "CallSubject": "tools.base",
    "Decision": "permissions",
    "DenyPrompter": "prompts",
    "ErrorCode": "errors",
    "ErrorInfo": "errors",
    "Event": "history",
    "InsomniaWebError": "errors",
    "JsonlHistory": "history",
    "Manifest": "config",
    "ManifestError": "errors",
    "MemoryHistory": "history",
    "MockProvider": "testing",
    "PermissionEvent": "history",
    "PluginError": "errors",
    "ProgressEvent": "history",
    "PromptRequest": "prompts",
    "Prompter": "prompts",
    "ProviderPlugin": "testing",
    "RerankPassage": "rank.rerank",
    "Reranker": "rank.rerank",
    "Runtime": "runtime",
    "SafeClient": "net",
    "SearchHit": "search.base",
    "SearchProvider": "search.base",
    "SearchRequest": "search.base",
    "SearchResponse": "search.base",
    "TerminalPrompter": "prompts",
    "Tool": "tools.base",
    "ToolAnnotations": "tools.base",
    "ToolCall": "permissions",
    "ToolCallEvent": "history",
    "ToolContext": "tools.base",
    "ToolError": "errors",
    "ToolOutput": "tools.base",
    "ToolResult": "runtime",
    "ToolResultEvent": "history",
    "ToolSpec": "tools.base",
    "ToolTimeout": "errors",
    "UrlVerdict": "net",
    "check_url": "net",
    "decode_event": "history",
    "hookimpl": "hookspecs",
    "load_manifest": "config",
    "parse_manifest": "config",
    "relay": "errors",
}
"""Where each public name lives: imported on first use, so that ``import insomnia_web``
(and the command line's ``--version`` and ``--help``) does not load the network stack."""


try:
    __version__ = _version("insomnia-web")
except PackageNotFoundError:  # pragma: no cover - running from a source tree not installed
    __version__ = "0+unknown"

__all__ = [
    "AutoApprovePrompter",
    "CallSubject",
    "Decision",
    "DenyPrompter",
    "ErrorCode",
    "ErrorInfo",
    "Event",
    "InsomniaWebError",
    "JsonlHistory",
    "Manifest",
    "ManifestError",
    "MemoryHistory",
    "MockProvider",
    "PermissionEvent",
    "PluginError",
    "ProgressEvent",
    "PromptRequest",
    "Prompter",
    "ProviderPlugin",
    "RerankPassage",
    "Reranker",
    "Runtime",
    "SafeClient",
    "SearchHit",
    "SearchProvider",
    "SearchRequest",
    "SearchResponse",
    "TerminalPrompter",
    "Tool",
    "ToolAnnotations",
    "ToolCall",
    "ToolCallEvent",
    "ToolContext",
    "ToolError",
    "ToolOutput",
    "ToolResult",
    "ToolResultEvent",
    "ToolSpec",
    "ToolTimeout",
    "UrlVerdict",
    "__version__",
    "check_url",
    "decode_event",
    "hookimpl",
    "load_manifest",
    "parse_manifest",
    "relay",
]


if not TYPE_CHECKING:  # type checkers see the imports above, and a misspelt name stays an error

    def __getattr__(name: str) -> Any:
        """Import a public name's module on first use (PEP 562)."""
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(__all__)
