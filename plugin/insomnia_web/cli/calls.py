"""The CLI commands that call tools: ``search`` and ``fetch``, plus ``tools`` (the listing).

They run through the same :class:`~insomnia_web.runtime.Runtime` a host uses: its
permission rules, prompts, URL policy and cache. ``--yes`` answers every question "once",
cross-host redirects included (each hop still re-checked by the URL policy and the rules);
on a terminal the person is asked; with neither, an asked call is refused, and stderr says
how the question could have been answered (a terminal, or ``--yes``). An excerpt search
asks nobody about its pages: stderr says how many were not read, and that ``--yes`` reads
them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Sequence
from typing import Any

import msgspec

from ..config import Manifest
from ..pipeline import asked_count
from ..prompts import Answer as PromptAnswer
from ..prompts import AutoApprovePrompter, Prompter, PromptRequest, TerminalPrompter
from ..runtime import Runtime, ToolResult
from ..schemas import PageStatus, WebFetchOutput
from ..tools.fetch_layout import render_fetch
from .output import StderrProgress, print_result, warn

__all__ = [
    "CLI_CONTINUE",
    "CLI_REFETCH",
    "NOBODY_ASKED",
    "CliPrompter",
    "run_fetch",
    "run_search",
    "run_tools",
    "with_scheme",
]

CLI_CONTINUE = "run the same command with --start-index {end} to continue"
"""The truncation marker's advice, in the CLI's own words."""

CLI_REFETCH = "--force-fresh fetches it again"
"""The advice on a page served from the cache, in the CLI's own words."""

NOBODY_ASKED = (
    "nobody could be asked (no terminal): run the command on a terminal to answer, or add --yes"
)
"""What stderr says after a question found no terminal to be asked on."""


class CliPrompter(TerminalPrompter):
    """The terminal prompter, remembering whether a question found nobody to answer it."""

    def __init__(self) -> None:
        super().__init__(always_lasts="until insomnia-web exits")
        self.unanswered = False

    async def ask(self, request: PromptRequest) -> PromptAnswer:
        """Ask on the terminal; note an ``unavailable`` answer (stdin or stderr not a tty)."""
        answer = await super().ask(request)
        if answer == "unavailable":
            self.unanswered = True
        return answer


_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def with_scheme(url: str) -> str:
    """*url* with ``https://`` in front when it has no scheme (``example.com/a``)."""
    if _SCHEME_RE.match(url):
        return url
    return "https://" + url.removeprefix("//")


def _prompter(args: argparse.Namespace) -> Prompter:
    if args.yes:
        return AutoApprovePrompter()
    # Asks only when stdin and stderr are terminals; otherwise answers "unavailable".
    return CliPrompter()


def _tool_args(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(args, name, None)
        if value is not None and value is not False:
            out[name] = value
    return out


async def _call(
    manifest: Manifest, prompter: Prompter, tool: str, targs: dict[str, Any]
) -> ToolResult:
    progress = StderrProgress()
    async with Runtime(
        manifest, prompter=prompter, history=progress, ask_on_redirect=True
    ) as runtime:
        try:
            return await runtime.call_tool(tool, targs)
        finally:
            progress.finish()


def _run_tool(
    manifest: Manifest, args: argparse.Namespace, tool: str, targs: dict[str, Any]
) -> tuple[ToolResult, bool]:
    """The result of one call, and whether a question of it found nobody to answer."""
    prompter = _prompter(args)
    result = asyncio.run(_call(manifest, prompter, tool, targs))
    return result, isinstance(prompter, CliPrompter) and prompter.unanswered


def _unread_pages(result: ToolResult) -> int:
    """How many excerpt pages were skipped because WebFetch asks first on their hosts."""
    if not result.ok or result.output is None:
        return 0
    return asked_count(msgspec.convert(result.output.get("pages", []), list[PageStatus]))


def run_search(manifest: Manifest, args: argparse.Namespace) -> int:
    """``insomnia-web search QUERY``: one WebSearch call."""
    names = ["query", "count", "offset", "mode", "freshness", "max_tokens", "force_fresh"]
    result, unanswered = _run_tool(manifest, args, "WebSearch", _tool_args(args, names))
    status = print_result(result, as_json=args.json, out=sys.stdout, err=sys.stderr)
    if unanswered and not result.ok:
        warn(NOBODY_ASKED)
    unread = _unread_pages(result)
    if unread:
        pages = "1 page" if unread == 1 else f"{unread} pages"
        its = "its host" if unread == 1 else "their hosts"
        warn(f"{pages} not read: WebFetch asks first on {its}; add --yes to read such pages")
    return status


def _cli_text(result: ToolResult) -> str | None:
    """The fetch result worded for a person at a terminal (``--start-index``,
    ``--force-fresh``)."""
    if not result.ok or result.output is None:
        return None
    out = msgspec.convert(result.output, WebFetchOutput)
    return render_fetch(out, continue_how=CLI_CONTINUE, refetch_how=CLI_REFETCH)


def run_fetch(manifest: Manifest, args: argparse.Namespace) -> int:
    """``insomnia-web fetch URL``: one WebFetch call; ``https://`` is assumed without a scheme."""
    args.url = with_scheme(args.url)
    cap = manifest.web.fetch.max_output_chars
    if args.max_chars is not None and args.max_chars > cap:
        warn(
            f"--max-chars {args.max_chars} is above the configured cap "
            f"(web.fetch.max_output_chars = {cap}); capped at {cap}"
        )
        args.max_chars = cap
    names = ["url", "mode", "max_chars", "start_index", "force_fresh"]
    result, unanswered = _run_tool(manifest, args, "WebFetch", _tool_args(args, names))
    text = None if args.json else _cli_text(result)
    status = print_result(result, as_json=args.json, out=sys.stdout, err=sys.stderr, text=text)
    if unanswered and not result.ok:
        warn(NOBODY_ASKED)
    return status


def run_tools(manifest: Manifest, args: argparse.Namespace) -> int:
    """``insomnia-web tools``: each tool's name, plugin, description and inputs (or JSON)."""
    specs = Runtime(manifest).tool_specs()
    if args.json:
        sys.stdout.write(json.dumps(msgspec.to_builtins(specs), indent=2) + "\n")
        return 0
    for spec in specs:
        sys.stdout.write(f"{spec.name}  (plugin {spec.plugin})\n")
        for line in spec.description.splitlines():
            sys.stdout.write(f"    {line}\n")
        props = spec.input_schema.get("properties", {})
        sys.stdout.write(f"    input: {', '.join(props)}\n\n")
    return 0
