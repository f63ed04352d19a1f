"""``insomnia-web``: the tools from a terminal, through the same runtime a host uses.

Results go to stdout; errors, prompts and progress to stderr. Exit status: 0 success, 1 the
tool reported an error (or a URL was refused, or doctor found a problem), 2 usage or
manifest error, or a plugin that cannot start; 130 after Ctrl-C; 141 when the reader of
stdout went away (``| head``), as for a program that SIGPIPE ends.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

import msgspec

from ..config import Manifest, load_manifest, manifest_schema_text
from ..errors import PluginError, ToolError
from ..manifest_path import find_manifest
from .output import advise, warn
from .parser import parse, show_help

__all__ = ["BROKEN_PIPE_STATUS", "main", "with_resolve"]

BROKEN_PIPE_STATUS = 141
"""The status after the reader of stdout went away: 128 + SIGPIPE, as a shell reports
``cat`` or ``git`` ended by that signal. SIGPIPE itself stays ignored (Python's default),
so a peer closing a network socket never ends the process."""


def with_resolve(manifest: Manifest, overrides: dict[str, list[str]]) -> Manifest:
    """The manifest with curl-style DNS overrides added to ``web.url_policy.resolve``."""
    if not overrides:
        return manifest
    from ..net.resolver import with_overrides  # the network stack, only when it is used

    web = msgspec.structs.replace(
        manifest.web, url_policy=with_overrides(manifest.web.url_policy, overrides)
    )
    return msgspec.structs.replace(manifest, web=web)


def _manifest(args: argparse.Namespace) -> Manifest:
    """The manifest of ``--manifest`` or the search path, with ``--resolve`` added."""
    from .policy import parse_resolve_args

    path = find_manifest(args.manifest).path
    manifest = load_manifest(path) if path is not None else Manifest()
    return with_resolve(manifest, parse_resolve_args(getattr(args, "resolve", []) or []))


def _run(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd == "help":
        show_help(args.topic)
    if cmd == "schema":
        sys.stdout.write(manifest_schema_text())
        return 0
    if cmd == "extract":
        from .local import run_extract

        return run_extract(
            args.files,
            url=args.url,
            mode=args.mode,
            as_json=args.json,
            out=sys.stdout,
            err=sys.stderr,
        )
    if cmd == "doctor":
        from .doctor import run_doctor

        return run_doctor(args.manifest, as_json=args.json)
    manifest = _manifest(args)
    if cmd in ("search", "fetch", "tools"):
        from . import calls

        run = {"search": calls.run_search, "fetch": calls.run_fetch, "tools": calls.run_tools}
        return run[cmd](manifest, args)
    if cmd == "policy":
        from .policy import run as policy_run

        return policy_run(
            list(args.urls), manifest_config=manifest.web.url_policy, as_json=args.json,
            out=sys.stdout,
        )  # fmt: skip
    if cmd == "cache":
        from .local import run_cache

        return run_cache(manifest, args.action, as_json=args.json, out=sys.stdout)
    if cmd == "mcp":
        from .serve import run_mcp

        return run_mcp(manifest)
    raise ToolError(
        "not_configured",
        f"'insomnia-web {cmd}' is not available in this version",
        remedy="Run insomnia-web --help to see the commands of this version.",
    )


def _stdout_gone() -> int:
    """Silence stdout after its reader went away; the status to exit with.

    Python flushes stdout again at exit: pointing it at ``/dev/null`` keeps that flush from
    printing a second ``BrokenPipeError``.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return BROKEN_PIPE_STATUS


def _plugin_failed(exc: PluginError) -> None:
    """Say which plugin cannot start and what to do; with ``INSOMNIA_TRACE_HOOKS`` set, the
    plugin's own traceback first, for its author."""
    from ..plugins import ENV_TRACE  # loaded already: the error came from there

    if os.environ.get(ENV_TRACE):
        traceback.print_exception(exc.__cause__ or exc, file=sys.stderr)
    warn(exc.message)
    advise(exc.remedy)


def _open_closed_streams() -> None:
    """Give a standard stream the caller closed (``<&-``) to ``/dev/null``, as git does.

    Python leaves such a stream ``None``; reading it then sees the end of input (nobody can
    be asked; the MCP server stops) and writing to it is lost, instead of a traceback.
    """
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115 - kept open for the process


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``insomnia-web`` console script."""
    _open_closed_streams()
    args = parse(argv)
    try:
        status = _run(args)
        sys.stdout.flush()  # a closed pipe fails here, not in the interpreter's last flush
        return status
    except BrokenPipeError:
        return _stdout_gone()
    except ValueError as exc:  # ManifestError is a ValueError
        warn(str(exc))
        return 2
    except PluginError as exc:  # an installed plugin cannot start: no runtime, no tools
        _plugin_failed(exc)
        return 2
    except ToolError as exc:
        warn(exc.message)
        advise(exc.remedy)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
