"""``insomnia-web mcp``: the stdio MCP server, started by an MCP client.

Started by hand on a terminal, it says on stderr what it is (stdout belongs to the
protocol), so a person who typed the command is not left facing a silent process; it says
so once its runtime has started, so a server that cannot start says only why.
"""

from __future__ import annotations

import sys

from ..config import Manifest
from ..errors import ToolError
from .output import is_terminal

__all__ = ["TERMINAL_NOTICE", "run_mcp"]

TERMINAL_NOTICE = (
    "insomnia-web mcp: speaking MCP on stdin/stdout; an MCP client starts this command "
    "(see docs/mcp.md). Ctrl-C stops it."
)


def _say_what_this_is() -> None:
    sys.stderr.write(TERMINAL_NOTICE + "\n")
    sys.stderr.flush()


def run_mcp(manifest: Manifest) -> int:
    """Serve *manifest*'s tools until the client closes stdin; on a terminal, once the
    runtime has started, say what this is."""
    try:
        from ..mcp_server import run_stdio
    except ImportError as exc:
        raise ToolError(
            "not_configured",
            f"the MCP server needs the mcp extra ({exc})",
            remedy="Install the mcp extra (pip install 'insomnia-web[mcp]').",
        ) from exc
    on_terminal = is_terminal(sys.stdin) and is_terminal(sys.stderr)
    return run_stdio(manifest, ready=_say_what_this_is if on_terminal else None)
