"""How insomnia tools and results look to an MCP client.

A tool keeps its schemas, title and annotations; only its name changes to snake_case
(``WebSearch`` -> ``web_search``), and so do the tool names its description and its
results mention (:mod:`.wording`). A result becomes a ``CallToolResult``: the runtime's text
as the text content, the structured output as ``structuredContent``, and a failure as
``isError: true`` with its text and the typed error under ``_meta["insomnia-web/error"]``.
The error's remedy, what the person can do, is there for the client to show its user; the
text content, which the model reads, keeps the model's hint only.

A failure carries no ``structuredContent``: clients (the TypeScript SDK among them) validate
structured content against the tool's ``outputSchema`` even on errors, and an error is not
an output.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from mcp import types

from ..errors import ErrorInfo
from ..modeltext import render_error
from ..permissions import tool_alias
from ..runtime import ToolResult
from ..textcheck import terminal_safe, terminal_safe_value
from ..tools.base import Tool
from .wording import Renamer

__all__ = [
    "ERROR_META_KEY",
    "call_result",
    "error_meta",
    "mcp_tool",
    "mcp_tool_name",
    "tool_names",
]

ERROR_META_KEY = "insomnia-web/error"


def mcp_tool_name(name: str) -> str:
    """The snake_case name an MCP client sees: ``WebFetch`` -> ``web_fetch``.

    Permission rules accept this name as an alias of the tool's own.
    """
    return tool_alias(name)


def tool_names(names: Iterable[str]) -> dict[str, str]:
    """Map each MCP name to its runtime name; two tools with the same MCP name are an error."""
    mapping: dict[str, str] = {}
    for name in names:
        public = mcp_tool_name(name)
        if public in mapping:
            raise ValueError(
                f"tools {mapping[public]!r} and {name!r} would both be called {public!r} over MCP;"
                " rename one of them"
            )
        mapping[public] = name
    return mapping


def mcp_tool(tool: Tool[Any, Any], renamer: Renamer | None = None) -> types.Tool:
    """The MCP listing of *tool*: schemas, title and truthful behaviour hints.

    *renamer* rewrites the tool names its texts mention; by default only its own.
    """
    renamer = renamer or Renamer({tool.name: mcp_tool_name(tool.name)})
    hints = tool.annotations
    return types.Tool(
        name=mcp_tool_name(tool.name),
        title=tool.title or None,
        description=renamer.text(tool.description()),
        input_schema=tool.input_schema(),
        output_schema=tool.output_schema(),
        annotations=types.ToolAnnotations(
            read_only_hint=hints.read_only,
            destructive_hint=hints.destructive,
            idempotent_hint=hints.idempotent,
            open_world_hint=hints.open_world,
        ),
    )


def error_meta(error: ErrorInfo) -> dict[str, Any]:
    """``{"insomnia-web/error": {code, message, hint[, remedy], retryable, retry_after_s[,
    details]}}``: ``remedy`` only when a person can act, so a client that knows no remedy
    reads what it always did."""
    body: dict[str, Any] = {
        "code": error.code,
        "message": error.message,
        "hint": error.hint,
        "retryable": error.retryable,
        "retry_after_s": error.retry_after_s,
    }
    if error.remedy is not None:
        body["remedy"] = error.remedy
    if error.details:
        body["details"] = error.details
    return {ERROR_META_KEY: body}


def call_result(result: ToolResult, renamer: Renamer | None = None) -> types.CallToolResult:
    """The MCP result of one runtime call: the runtime's text, with MCP tool names.

    Terminal controls in it (a page's escape sequences, bidi overrides) are sent as escapes
    (``\\x1b``), in the text and in the structured content: a client on a terminal may show
    a result to its person as it came.
    """
    renamer = renamer or Renamer({})
    if result.ok:
        text = terminal_safe(renamer.result(result.text))
        output = terminal_safe_value(result.output)
        content: list[types.ContentBlock] = [types.TextContent(type="text", text=text)]
        return types.CallToolResult(content=content, structured_content=output)
    if result.error is None:
        text = terminal_safe(renamer.result(result.text))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    is_error=True)  # fmt: skip
    error = msgspec.structs.replace(
        result.error,
        message=renamer.text(result.error.message),
        hint=renamer.text(result.error.hint),
        remedy=None if result.error.remedy is None else renamer.text(result.error.remedy),
    )
    content = [types.TextContent(type="text", text=terminal_safe(render_error(error)))]
    meta = terminal_safe_value(error_meta(error))
    return types.CallToolResult(content=content, is_error=True, _meta=meta)
