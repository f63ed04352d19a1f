"""insomnia-web as a Model Context Protocol server (``insomnia-web mcp``).

Needs the ``mcp`` extra (``pip install 'insomnia-web[mcp]'``). Modules:

- :mod:`.listing`: tool listings and call results as MCP types (snake_case names).
- :mod:`.permission`: ``ask`` decisions as MCP elicitations.
- :mod:`.progress`: progress events as MCP progress notifications.
- :mod:`.server`: the low-level server and the stdio entry point.
"""

from __future__ import annotations

from .listing import call_result, mcp_tool, mcp_tool_name
from .permission import ElicitationPrompter
from .progress import ProgressRelay
from .server import SERVER_NAME, build_server, run_stdio, serve_stdio, server_version

__all__ = [
    "SERVER_NAME",
    "ElicitationPrompter",
    "ProgressRelay",
    "build_server",
    "call_result",
    "mcp_tool",
    "mcp_tool_name",
    "run_stdio",
    "serve_stdio",
    "server_version",
]
