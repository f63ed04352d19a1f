"""``insomnia-web``: the tools from a terminal, through the same runtime a host uses.

Results go to stdout, progress and prompts to stderr. Exit status: 0 success, 1 the tool
reported an error (or a URL was refused), 2 usage or manifest error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import msgspec

from ..config import Manifest, load_manifest, manifest_schema_text
from ..errors import ToolError
from ..history import Event, ProgressEvent
from ..net.resolver import with_overrides
from ..prompts import AutoApprovePrompter, DenyPrompter, Prompter, TerminalPrompter
from ..runtime import Runtime, ToolResult
from .policy import parse_resolve_args

__all__ = ["build_parser", "main"]


def _add_resolve(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--resolve",
        action="append",
        default=[],
        metavar="HOST:IP",
        help="use IP for HOST (like curl; repeatable); still checked by the address policy",
    )


def _add_output(p: argparse.ArgumentParser) -> None:
    # Also accepted after the command; SUPPRESS keeps the global value when absent.
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="JSON output")
    p.add_argument(
        "--yes", action="store_true", default=argparse.SUPPRESS, help="allow asked calls"
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="insomnia-web", description="Bounded, observable web tools for LLM agents."
    )
    parser.add_argument("--manifest", metavar="FILE", help="manifest (default ./insomnia.toml)")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON output")
    parser.add_argument("--yes", action="store_true", help="allow calls the policy would ask")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _add_output(sub.add_parser("tools", help="list tools with descriptions and schemas"))
    sub.add_parser("schema", help="print the manifest JSON Schema")

    p = sub.add_parser("search", help="WebSearch")
    p.add_argument("query")
    _add_output(p)
    p.add_argument("--count", type=int)
    p.add_argument("--offset", type=int)
    p.add_argument("--mode", choices=["results", "excerpts"])
    p.add_argument("--freshness")
    p.add_argument("--max-tokens", type=int)
    p.add_argument("--force-fresh", action="store_true")
    _add_resolve(p)

    p = sub.add_parser("fetch", help="WebFetch")
    p.add_argument("url")
    _add_output(p)
    p.add_argument("--mode", choices=["readable", "full", "raw"])
    p.add_argument("--max-chars", type=int)
    p.add_argument("--start-index", type=int)
    p.add_argument("--force-fresh", action="store_true")
    _add_resolve(p)

    p = sub.add_parser("extract", help="offline HTML -> text (JSONL with --json)")
    p.add_argument("files", nargs="+", metavar="FILE")
    _add_output(p)
    p.add_argument("--url", help="the page's URL (helps resolve relative links and titles)")
    p.add_argument("--mode", choices=["readable", "full"], default="readable")

    p = sub.add_parser("policy", help="URL policy")
    psub = p.add_subparsers(dest="policy_command", required=True, metavar="SUBCOMMAND")
    pc = psub.add_parser("check", help="the policy verdict for URLs, without connecting")
    pc.add_argument("urls", nargs="+", metavar="URL")
    _add_output(pc)
    _add_resolve(pc)

    p = sub.add_parser("cache", help="the local cache")
    p.add_argument("action", choices=["stats", "clear"])
    _add_output(p)

    p = sub.add_parser("mcp", help="run the stdio MCP server")
    # MCP client configurations often list the command first: accept --manifest after it too.
    p.add_argument("--manifest", metavar="FILE", default=argparse.SUPPRESS, help="manifest")
    return parser


def with_resolve(manifest: Manifest, overrides: dict[str, list[str]]) -> Manifest:
    """The manifest with curl-style DNS overrides added to ``web.url_policy.resolve``."""
    if not overrides:
        return manifest
    web = msgspec.structs.replace(
        manifest.web, url_policy=with_overrides(manifest.web.url_policy, overrides)
    )
    return msgspec.structs.replace(manifest, web=web)


def _prompter(args: argparse.Namespace) -> Prompter:
    if args.yes:
        return AutoApprovePrompter()
    if sys.stdin.isatty() and sys.stderr.isatty():
        return TerminalPrompter()
    return DenyPrompter()


def _print_result(result: ToolResult, as_json: bool, out: TextIO) -> int:
    if as_json:
        out.write(msgspec.json.encode(result).decode() + "\n")
    else:
        out.write(result.text.rstrip("\n") + "\n")
    return 0 if result.ok else 1


def _tool_args(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(args, name, None)
        if value is not None and value is not False:
            out[name] = value
    return out


class StderrProgress:
    """A history sink that shows progress events on stderr (results stay on stdout)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr

    def append(self, event: Event) -> None:
        """Print progress events; ignore the others."""
        if isinstance(event, ProgressEvent):
            count = f" ({event.done}/{event.total})" if event.total else ""
            self.stream.write(f"{event.message}{count}\n")
            self.stream.flush()


async def _call(
    manifest: Manifest, args: argparse.Namespace, tool: str, targs: dict[str, Any]
) -> int:
    async with Runtime(manifest, prompter=_prompter(args), history=StderrProgress()) as runtime:
        result = await runtime.call_tool(tool, targs)
    return _print_result(result, args.json, sys.stdout)


def _cmd_tools(manifest: Manifest, args: argparse.Namespace) -> int:
    runtime = Runtime(manifest)
    listing: list[dict[str, Any]] = [
        {
            "name": reg.tool.name,
            "plugin": reg.plugin,
            "description": reg.tool.description(),
            "input_schema": reg.tool.input_schema(),
            "output_schema": reg.tool.output_schema(),
        }
        for reg in runtime.tools.values()
    ]
    if args.json:
        sys.stdout.write(json.dumps(listing, indent=2) + "\n")
    else:
        for item in listing:
            sys.stdout.write(f"{item['name']}  (plugin {item['plugin']})\n")
            for line in str(item["description"]).splitlines():
                sys.stdout.write(f"    {line}\n")
            props = item["input_schema"].get("properties", {})
            sys.stdout.write(f"    input: {', '.join(props)}\n\n")
    return 0


def _run(args: argparse.Namespace) -> int:
    manifest = load_manifest(args.manifest)
    manifest = with_resolve(manifest, parse_resolve_args(getattr(args, "resolve", []) or []))
    cmd = args.command
    if cmd == "schema":
        sys.stdout.write(manifest_schema_text())
        return 0
    if cmd == "tools":
        return _cmd_tools(manifest, args)
    if cmd == "search":
        targs = _tool_args(
            args, ["query", "count", "offset", "mode", "freshness", "max_tokens", "force_fresh"]
        )
        return asyncio.run(_call(manifest, args, "WebSearch", targs))
    if cmd == "policy":
        from .policy import run as policy_run

        return policy_run(
            list(args.urls),
            manifest_config=manifest.web.url_policy,
            as_json=args.json,
            out=sys.stdout,
        )
    if cmd == "fetch":
        targs = _tool_args(args, ["url", "mode", "max_chars", "start_index", "force_fresh"])
        return asyncio.run(_call(manifest, args, "WebFetch", targs))
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
    if cmd == "cache":
        from .local import run_cache

        return run_cache(manifest, args.action, as_json=args.json, out=sys.stdout)
    if cmd == "mcp":
        try:
            from ..mcp_server import run_stdio
        except ImportError as exc:
            raise ToolError(
                "not_configured",
                f"the MCP server needs the mcp extra: pip install 'insomnia-web[mcp]' ({exc})",
            ) from exc
        return run_stdio(manifest)
    raise ToolError("not_configured", f"'insomnia-web {cmd}' is not available in this version")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``insomnia-web`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except ValueError as exc:  # ManifestError is a ValueError
        sys.stderr.write(f"insomnia-web: {exc}\n")
        return 2
    except ToolError as exc:
        sys.stderr.write(f"insomnia-web: {exc.message}\n")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
