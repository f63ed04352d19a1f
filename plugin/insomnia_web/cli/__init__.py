"""The ``insomnia-web`` command line: :func:`main` and the modules behind its subcommands.

- :mod:`.parser`: every command, option, help text and example.
- :mod:`.main`: :func:`main`, the manifest and ``--resolve``, dispatch and exit codes.
- :mod:`.output`: results on stdout; errors and a terminal's progress line on stderr.
- :mod:`.calls`: ``search``, ``fetch`` (through the runtime) and ``tools``.
- :mod:`.doctor`: ``doctor``, the set-up checks.
- :mod:`.local`: ``extract`` and ``cache``, which work on local files without the network.
- :mod:`.policy`: ``policy check`` and ``--resolve HOST:IP`` parsing.
- :mod:`.serve`: ``mcp``, the stdio MCP server.
"""

from __future__ import annotations

from .main import main
from .parser import build_parser

__all__ = ["build_parser", "main"]
