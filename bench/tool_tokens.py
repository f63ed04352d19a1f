"""How many tokens the tool list costs a model, as an MCP client receives it.

Builds the ``tools/list`` entries exactly as ``insomnia-web mcp`` sends them (names, titles,
descriptions, input and output schemas, annotations; compact JSON, as on the wire) and
counts tokens with the project's documented estimator, ``insomnia_web.rank.estimate_tokens``.
``tiktoken`` is used as a second opinion only when its encoding is available offline.

Prints one row per tool with each part's share, the total against the 2,500-token budget
(and at four characters per token against 1,800), and the heaviest schema properties (where
trimming pays most).

Run: ``python bench/tool_tokens.py [--manifest FILE] [--top N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from insomnia_web.config import Manifest, load_manifest
from insomnia_web.mcp_server.listing import mcp_tool
from insomnia_web.rank import estimate_tokens
from insomnia_web.runtime import Runtime

BUDGET = 2500  # by the project's estimator
CHARS_PER_TOKEN = 4
CHARS_BUDGET = 1800  # at four characters per token, the way most peers are measured
PARTS = ("description", "inputSchema", "outputSchema", "other")


def compact(value: Any) -> str:
    """JSON as it travels: no spaces, non-ASCII kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def tool_list(manifest: Manifest | None = None) -> list[dict[str, Any]]:
    """The ``tools`` array of a ``tools/list`` answer, as JSON-ready dicts (no plugins)."""
    runtime = Runtime(manifest, load_entrypoints=False)
    return [
        mcp_tool(reg.tool).model_dump(by_alias=True, mode="json", exclude_none=True)
        for reg in runtime.tools.values()
    ]


def tool_tokens(entry: dict[str, Any], count: Callable[[str], int] = estimate_tokens) -> int:
    """Tokens of one listed tool (its whole JSON object)."""
    return count(compact(entry))


def part_tokens(entry: dict[str, Any], count: Callable[[str], int]) -> dict[str, int]:
    """Tokens of each part of one listed tool; ``other`` is name, title and annotations."""
    rest = {k: v for k, v in entry.items() if k not in PARTS}
    return {
        "description": count(compact(entry.get("description", ""))),
        "inputSchema": count(compact(entry.get("inputSchema", {}))),
        "outputSchema": count(compact(entry.get("outputSchema", {}))),
        "other": count(compact(rest)),
    }


def chars_tokens(text: str) -> int:
    """Tokens at four characters per token (rounded up)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def total_tokens(
    entries: list[dict[str, Any]], count: Callable[[str], int] = estimate_tokens
) -> int:
    """Tokens of the whole tool list (the ``tools`` array as one JSON value)."""
    return count(compact(entries))


def _properties(schema: Any, path: str) -> Iterator[tuple[str, Any]]:
    if not isinstance(schema, dict):
        return
    for name, sub in (schema.get("properties") or {}).items():
        yield f"{path}.{name}", sub
        yield from _properties(sub, f"{path}.{name}")
        yield from _properties(sub.get("items"), f"{path}.{name}[]")


def heaviest(entries: list[dict[str, Any]], top: int) -> list[tuple[int, str]]:
    """The *top* schema properties by tokens, nested ones counted inside their parents too."""
    rows: list[tuple[int, str]] = []
    for entry in entries:
        for key in ("inputSchema", "outputSchema"):
            for path, sub in _properties(entry.get(key), f"{entry['name']}.{key}"):
                rows.append((estimate_tokens(compact(sub)), path))
    return sorted(rows, reverse=True)[:top]


def _tiktoken_counter() -> Callable[[str], int] | None:
    """A tiktoken counter if its BPE file is already on this machine (never downloads)."""
    try:
        import tiktoken  # type: ignore[import-not-found]
    except ImportError:
        return None
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", os.path.expanduser("~/.cache/tiktoken"))
    try:
        enc = tiktoken.get_encoding("o200k_base")
    except Exception:  # no network here: the file cannot be fetched
        return None
    return lambda text: len(enc.encode(text))


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 1 when the total is over budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", help="manifest whose limits shape the descriptions")
    parser.add_argument("--top", type=int, default=10, help="heaviest properties to show")
    args = parser.parse_args(argv)
    manifest = load_manifest(args.manifest) if args.manifest else Manifest()
    entries = tool_list(manifest)

    header = f"{'tool':<14}{'total':>7}" + "".join(f"{p:>14}" for p in PARTS)
    print(header)
    print("-" * len(header))
    for entry in entries:
        parts = part_tokens(entry, estimate_tokens)
        row = f"{entry['name']:<14}{tool_tokens(entry):>7}"
        print(row + "".join(f"{parts[p]:>14}" for p in PARTS))
    total = total_tokens(entries)
    share = total / BUDGET
    print("-" * len(header))
    print(f"{'whole list':<14}{total:>7}   budget {BUDGET}  ({share:.0%} of budget)")
    by_chars = total_tokens(entries, chars_tokens)
    print(f"{'at 4 chars/token':<14}{by_chars:>7}   budget {CHARS_BUDGET}")
    counter = _tiktoken_counter()
    if counter is None:
        print("tiktoken: not available offline (skipped)")
    else:
        print(f"tiktoken o200k_base: {total_tokens(entries, counter)}")
    print(f"\nheaviest schema properties (top {args.top}):")
    for tokens, path in heaviest(entries, args.top):
        print(f"{tokens:>6}  {path}")
    return 0 if total < BUDGET and by_chars < CHARS_BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
