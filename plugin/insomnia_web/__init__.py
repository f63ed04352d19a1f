"""insomnia-web: bounded, observable web tools for LLM agent runtimes.

The host contract lives in :mod:`insomnia_web.hookspecs`; :class:`Runtime` is the reference
host that loads plugins, asks for permission, runs tools and records history.
"""

from __future__ import annotations

from .config import Manifest, load_manifest, parse_manifest
from .errors import ErrorInfo, ManifestError, ToolError, ToolTimeout
from .history import JsonlHistory, MemoryHistory
from .hookspecs import hookimpl
from .net import SafeClient, UrlVerdict, check_url
from .permissions import Decision, ToolCall
from .prompts import AutoApprovePrompter, DenyPrompter, PromptRequest, TerminalPrompter
from .runtime import Runtime, ToolResult
from .search.base import (
    MockProvider,
    ProviderPlugin,
    SearchHit,
    SearchProvider,
    SearchRequest,
    SearchResponse,
)
from .tools.base import Tool, ToolContext, ToolOutput

__all__ = [
    "AutoApprovePrompter",
    "Decision",
    "DenyPrompter",
    "ErrorInfo",
    "JsonlHistory",
    "Manifest",
    "ManifestError",
    "MemoryHistory",
    "MockProvider",
    "PromptRequest",
    "ProviderPlugin",
    "Runtime",
    "SafeClient",
    "SearchHit",
    "SearchProvider",
    "SearchRequest",
    "SearchResponse",
    "TerminalPrompter",
    "Tool",
    "ToolCall",
    "ToolContext",
    "ToolError",
    "ToolOutput",
    "ToolResult",
    "ToolTimeout",
    "UrlVerdict",
    "check_url",
    "hookimpl",
    "load_manifest",
    "parse_manifest",
]
