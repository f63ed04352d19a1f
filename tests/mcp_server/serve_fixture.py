"""Run the stdio MCP server with the fixture plugin registered: ``python -m`` this module."""

from __future__ import annotations

import sys

from insomnia_web.config import load_manifest
from insomnia_web.mcp_server import run_stdio
from tests.mcp_server import fixture_tools

if __name__ == "__main__":
    raise SystemExit(run_stdio(load_manifest(sys.argv[1]), plugins=[fixture_tools]))
