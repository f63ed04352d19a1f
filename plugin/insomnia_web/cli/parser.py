"""The argument parser of ``insomnia-web``: every command, option, help text and example.

``--manifest`` and ``--json`` are accepted before or after the command (``insomnia-web
tools --manifest x.toml`` and ``insomnia-web --manifest x.toml tools`` are the same);
``--yes`` is listed only on the commands that may ask for permission (``search``,
``fetch``); written before the command, as earlier versions had it, it is still accepted.

A usage error exits with status 2 and says on stderr what was wrong, as git does: a word
close to a command, a choice or an option gets ``did you mean ...?``, and an option the
command does not have is reported with that command's usage line (:func:`parse`).
"""

from __future__ import annotations

import argparse
import difflib
import functools
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import msgspec

from .. import __version__
from ..schemas import FRESHNESS_PATTERN, MAX_QUERY_CHARS, WebFetchInput, WebSearchInput

__all__ = [
    "RESOLVING",
    "CommandParser",
    "IntRange",
    "build_parser",
    "freshness",
    "parse",
    "query",
    "show_help",
]


class IntRange:
    """An argparse ``type``: a whole number within a tool input's own bounds.

    The bounds are read from the input Struct's ``Meta(ge=..., le=...)``, so the command
    line refuses (exit 2, naming the option) exactly what the tool would refuse.
    """

    def __init__(self, struct: type[msgspec.Struct], field: str) -> None:
        self.low, self.high = _int_bounds(struct, field)

    def describe(self) -> str:
        """The range as the help shows it: ``1-20`` or ``at least 100``."""
        if self.high is None:
            return f"at least {self.low}"
        return f"{self.low}-{self.high}"

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if self.high is not None and not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"{value} is not in {self.describe()}")
        if value < self.low:
            raise argparse.ArgumentTypeError(f"{value} is below {self.low}")
        return value


def freshness(text: str) -> str:
    """An argparse ``type``: a ``--freshness`` value WebSearch accepts."""
    if re.fullmatch(FRESHNESS_PATTERN, text) is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD"
        )
    return text


def query(text: str) -> str:
    """An argparse ``type``: a search query WebSearch accepts (not blank, not too long)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the query is empty")
    if len(text) > MAX_QUERY_CHARS:
        raise argparse.ArgumentTypeError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    return text


@functools.cache
def _field_types(struct: type[msgspec.Struct]) -> dict[str, msgspec.inspect.Type]:
    """The fields of *struct* by name, with their types (inspected once per Struct: every
    start of the command builds the whole parser)."""
    info = msgspec.inspect.type_info(struct)
    if not isinstance(info, msgspec.inspect.StructType):
        raise TypeError(f"{struct.__name__} is not a msgspec Struct")
    return {f.name: f.type for f in info.fields}


def _int_bounds(struct: type[msgspec.Struct], field: str) -> tuple[int, int | None]:
    """The ``ge`` and ``le`` of the integer *field* of *struct* (``int | None`` included)."""
    kind = _field_types(struct)[field]
    while isinstance(kind, msgspec.inspect.Metadata):  # Annotated[..., Meta(description=...)]
        kind = kind.type
    options = kind.types if isinstance(kind, msgspec.inspect.UnionType) else (kind,)
    number = next(t for t in options if isinstance(t, msgspec.inspect.IntType))
    return number.ge or 0, number.le


RESOLVING = frozenset({"search", "fetch", "policy"})
"""The commands that take ``--resolve HOST:IP``."""


def _nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to *word*, if one is close enough to be a typo of it."""
    found = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return found[0] if found else None


class CommandParser(argparse.ArgumentParser):
    """An argument parser that suggests the nearest command or choice for a typo."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            choices = [str(c) for c in action.choices or ()]
            near = _nearest(str(value), choices)
            if near is None:
                raise
            raise argparse.ArgumentError(action, f"{exc.message}; did you mean {near!r}?") from None

    def chosen(self, args: argparse.Namespace) -> CommandParser:
        """The parser of the (sub)command *args* selected: ``policy check``'s for it."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                sub = action.choices.get(getattr(args, action.dest, None) or "")
                if isinstance(sub, CommandParser):
                    return sub.chosen(args)
        return self

    def commands(self) -> dict[str, argparse.ArgumentParser]:
        """This parser's subcommands by name (empty when it has none)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    def misplaced(self, argv: Sequence[str]) -> str | None:
        """Why *argv* puts a command's option before the command, if it does.

        ``--max-chars 100 fetch URL`` would otherwise read ``100`` as the command.
        """
        commands = self.commands()
        own = {o for a in self._actions for o in a.option_strings}
        for word in argv:
            if word in commands or word == "--":
                return None
            flag = word.split("=", 1)[0]
            if not flag.startswith("--") or flag in own:
                continue
            owners = [
                name
                for name, sub in commands.items()
                if any(flag in a.option_strings for a in sub._actions)
            ]
            if owners:
                return f"{flag} is an option of {', '.join(owners)}: write it after the command"
        return None

    def refuse_unknown(self, unknown: Sequence[str]) -> None:
        """Exit 2 for *unknown* arguments, suggesting the option each dashed one resembles.

        One of the command's own options is unknown only after ``--``, which ends them.
        """
        options = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
        hints = []
        for word in unknown:
            flag = word.split("=", 1)[0]
            if flag in options:
                hints.append(f"{flag} comes after --, which ends the options: write it before --")
                continue
            near = _nearest(flag, options) if word.startswith("--") else None
            if near is not None:
                hints.append(f"{flag}: did you mean {near}?")
        message = f"unrecognized arguments: {' '.join(unknown)}"
        self.error("; ".join([message, *hints]))


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line; a usage error is reported by the command it concerns."""
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    misplaced = parser.misplaced(words)
    if misplaced is not None:
        parser.error(misplaced)
    args, unknown = parser.parse_known_args(words)
    if unknown:
        parser.chosen(args).refuse_unknown(unknown)
    if args.resolve_first and args.command not in RESOLVING:
        parser.error("--resolve works with search, fetch and policy check")
    args.resolve = [*args.resolve_first, *getattr(args, "resolve", [])]
    return args


DESCRIPTION = """\
Bounded, observable web tools for LLM agents, from a terminal: the same WebSearch, WebFetch,
permission rules, URL policy and cache a host runtime uses.

Results go to stdout; errors, prompts and progress go to stderr.
Exit status: 0 success, 1 the tool reported an error (or a URL was refused, or
doctor found a problem), 2 usage or manifest error (or a plugin that cannot
start), 130 after Ctrl-C, 141 when the reader of stdout went away (| head)."""

MANIFEST_HELP = (
    "manifest file (TOML or JSON); default: $INSOMNIA_WEB_MANIFEST, else "
    "$XDG_CONFIG_HOME/insomnia-web/insomnia.toml, else built-in defaults (./insomnia.toml "
    "is read only when named)"
)

EXAMPLES = {
    "tools": "insomnia-web tools --json > tools.json",
    "schema": "insomnia-web schema > manifest.schema.json",
    "doctor": "insomnia-web doctor --manifest ~/.config/insomnia-web/insomnia.toml",
    "search": 'insomnia-web search "asyncio timeout" --mode results --count 3',
    "fetch": "insomnia-web fetch docs.python.org/3/library/asyncio.html --max-chars 4000",
    "extract": "insomnia-web extract saved.html --url https://example.com/saved",
    "policy check": (
        "insomnia-web policy check http://0x7f.1/ https://example.com/ "
        "--resolve example.com:93.184.215.14"
    ),
    "cache": "insomnia-web cache stats --json",
    "mcp": "insomnia-web mcp --manifest ~/.config/insomnia-web/insomnia.toml",
    "help": "insomnia-web help policy check",
}


def _example(name: str) -> str:
    return f"example:\n  {EXAMPLES[name]}"


def _sub(
    sub: argparse._SubParsersAction[CommandParser],
    name: str,
    summary: str,
    *,
    manifest: bool = True,
    json_help: str | None = None,
) -> argparse.ArgumentParser:
    """A subcommand with its one-line help, example and the global options it uses."""
    p = sub.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog=_example(name),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # SUPPRESS: when absent after the command, the value given before it (or the default)
    # is kept.
    if manifest:
        p.add_argument("--manifest", metavar="FILE", default=argparse.SUPPRESS, help=MANIFEST_HELP)
    if json_help:
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=json_help)
    return p


def _add_resolve(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--resolve",
        action="append",
        default=[],
        metavar="HOST:IP",
        help="use IP for HOST instead of DNS (like curl; repeatable); the address is still "
        "checked by the URL policy",
    )


def _add_yes(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--yes",
        "-y",
        action="store_true",
        default=argparse.SUPPRESS,  # keeps a --yes given before the command
        help=f"allow {what} the permission rules would ask about, without a prompt",
    )


def _add_int(p: argparse.ArgumentParser, flag: str, kind: IntRange, what: str) -> None:
    """A whole-number option *flag* whose help ends with the range *kind* accepts."""
    p.add_argument(flag, type=kind, metavar="N", help=f"{what} ({kind.describe()})")


def _add_force_fresh(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--force-fresh", action="store_true", help=f"skip the cache: {what}")


def _search(sub: argparse._SubParsersAction[CommandParser]) -> None:
    p = _sub(sub, "search", "search the web (WebSearch)", json_help="print the result as JSON")
    p.add_argument("query", type=query, help="what to search for")
    p.add_argument(
        "--mode",
        choices=["results", "excerpts"],
        help="titles, URLs and snippets "
        "(results) or the best passages of the top pages (excerpts; the default)",
    )
    _add_int(p, "--count", IntRange(WebSearchInput, "count"), "number of results")
    _add_int(p, "--offset", IntRange(WebSearchInput, "offset"), "skip this many pages of results")
    p.add_argument(
        "--freshness",
        type=freshness,
        metavar="AGE",
        help="pd, pw, pm, py (past day, week, month, year) or YYYY-MM-DDtoYYYY-MM-DD",
    )
    _add_int(
        p, "--max-tokens", IntRange(WebSearchInput, "max_tokens"), "token budget of the excerpts"
    )
    _add_force_fresh(p, "search again even when a cached answer exists")
    _add_yes(p, "the search and the page fetches")
    _add_resolve(p)


def _fetch(sub: argparse._SubParsersAction[CommandParser]) -> None:
    p = _sub(
        sub,
        "fetch",
        "fetch a page as readable text (WebFetch)",
        json_help="print the result as JSON",
    )
    p.add_argument("url", help="http(s) URL; without a scheme, https:// is assumed")
    p.add_argument(
        "--mode",
        choices=["readable", "full", "raw"],
        help="main content (readable; the default), the whole page as text (full) or the "
        "body as received (raw)",
    )
    _add_int(
        p,
        "--max-chars",
        IntRange(WebFetchInput, "max_chars"),
        "characters of text to print, capped at web.fetch.max_output_chars",
    )
    _add_int(
        p,
        "--start-index",
        IntRange(WebFetchInput, "start_index"),
        "continue a long page from character N (as the truncation line says)",
    )
    _add_force_fresh(p, "download the page again even when a stored copy is young enough")
    _add_yes(p, "the fetch and cross-host redirects")
    _add_resolve(p)


def _local(sub: argparse._SubParsersAction[CommandParser]) -> None:
    p = _sub(
        sub,
        "extract",
        "convert saved HTML files to text, offline",
        manifest=False,
        json_help="print one JSON object per file (file, title, text)",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="HTML files; - reads stdin")
    p.add_argument("--url", help="the page's URL (resolves relative links and titles)")
    p.add_argument(
        "--mode",
        choices=["readable", "full"],
        default="readable",
        help="main content only (readable; the default) or the whole page (full)",
    )

    p = _sub(
        sub,
        "cache",
        "show or empty the cache the manifest names (the SQLite file or the PostgreSQL server)",
        json_help="print JSON",
    )
    p.add_argument(
        "action",
        choices=["stats", "clear"],
        help="stats: counts, size and provider requests; clear: delete every search, page and "
        "saved finding (on a PostgreSQL server, those of every host using it)",
    )


def _policy(sub: argparse._SubParsersAction[CommandParser]) -> None:
    p = sub.add_parser(
        "policy",
        help="check URLs against the URL policy",
        description="Check URLs against the URL policy.",
        epilog=_example("policy check"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    psub = p.add_subparsers(dest="policy_command", required=True, metavar="SUBCOMMAND")
    pc = psub.add_parser(
        "check",
        help="the policy verdict for each URL (host names looked up, nothing sent)",
        description="The policy verdict for each URL. It resolves host names (DNS) unless "
        "--resolve or web.url_policy.resolve gives their addresses, and never connects to "
        "the site. Exit status 1 when any URL is refused.",
        epilog=_example("policy check"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pc.add_argument("urls", nargs="+", metavar="URL", help="URLs to check, exactly as given")
    pc.add_argument("--manifest", metavar="FILE", default=argparse.SUPPRESS, help=MANIFEST_HELP)
    pc.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="print one JSON object per URL",
    )
    _add_resolve(pc)


def build_parser() -> CommandParser:
    """The argument parser of every command."""
    parser = CommandParser(
        prog="insomnia-web",
        description=DESCRIPTION,
        epilog="example:\n  .venv/bin/insomnia-web fetch https://example.com/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", "-V", action="version", version=f"insomnia-web {__version__}")
    parser.add_argument("--manifest", metavar="FILE", help=MANIFEST_HELP)
    parser.add_argument(
        "--json", action="store_true", help="machine-readable JSON output (results on stdout)"
    )
    # Accepted before the command for earlier command lines; documented on search and fetch.
    parser.add_argument("--yes", "-y", action="store_true", help=argparse.SUPPRESS)
    # Accepted before the command too, as curl takes options anywhere; documented on the
    # commands that use it. Its own dest: the command's --resolve list would replace it.
    parser.add_argument(
        "--resolve", action="append", default=[], dest="resolve_first", help=argparse.SUPPRESS
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _sub(
        sub,
        "tools",
        "list the tools with descriptions and schemas",
        json_help="print names, descriptions, schemas and annotations as JSON",
    )
    _sub(sub, "schema", "print the manifest JSON Schema", manifest=False)
    _sub(
        sub,
        "doctor",
        "check the set-up: manifest, provider key, permissions, cache, extras",
        json_help="print the checks as JSON",
    )
    _search(sub)
    _fetch(sub)
    _local(sub)
    _policy(sub)
    # MCP client configurations often list the command first: --manifest after it works too.
    _sub(sub, "mcp", "serve the tools to an MCP client on stdin/stdout")
    p = _sub(sub, "help", "show the help of a command (as COMMAND --help does)", manifest=False)
    p.add_argument("topic", nargs="*", metavar="COMMAND", help="a command, e.g. fetch")
    return parser


def show_help(topic: Sequence[str]) -> NoReturn:
    """Print the help of the command *topic* names (the overview without one); exits 0.

    An unknown command is a usage error (exit 2) with the nearest command suggested.
    """
    parse([*topic, "--help"])  # --help prints and exits
    raise SystemExit(0)
