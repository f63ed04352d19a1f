"""insomnia-web: bounded, observable web tools for LLM agent runtimes.

The host contract lives in :mod:`insomnia_web.hookspecs`; :class:`Runtime` is the reference
host that loads plugins, asks for permission, runs tools and records history.
:mod:`insomnia_web.testing` has a scripted search provider for tests.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from .config import Manifest, load_manifest, parse_manifest
from .errors import ErrorCode, ErrorInfo, InsomniaWebError, ManifestError, ToolError, ToolTimeout
from .history import JsonlHistory, MemoryHistory
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
    "InsomniaWebError",
    "JsonlHistory",
    "Manifest",
    "ManifestError",
    "MemoryHistory",
    "MockProvider",
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
    "ToolContext",
    "ToolError",
    "ToolOutput",
    "ToolResult",
    "ToolSpec",
    "ToolTimeout",
    "UrlVerdict",
    "__version__",
    "check_url",
    "hookimpl",
    "load_manifest",
    "parse_manifest",
]
