"""The ``insomnia-web`` command line: :func:`main` and the modules behind its subcommands.

- :mod:`.main`: the parser, global options and the tool-calling subcommands.
- :mod:`.local`: ``extract`` and ``cache``, which work on local files without the network.
- :mod:`.policy`: ``policy check`` and ``--resolve HOST:IP`` parsing.
"""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["build_parser", "main"]
