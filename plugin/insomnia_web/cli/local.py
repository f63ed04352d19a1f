"""The CLI commands that work on local files only: ``extract`` and ``cache``.

``insomnia-web extract FILE...`` runs saved HTML through the extractor WebFetch uses (the same
charset rules, binary check and conversion), offline. ``insomnia-web cache stats|clear``
reports on or empties the cache the manifest names (the SQLite file or the PostgreSQL
server), with the provider requests sent today and this month.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

import msgspec

from ..config import Manifest
from ..errors import ToolError
from ..textcheck import terminal_safe, terminal_safe_json
from ..tools.fetch_progress import format_bytes

if TYPE_CHECKING:
    from ..cache import CacheStats

__all__ = ["run_cache", "run_extract"]


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    return Path(name).read_bytes()


def _extract_one(
    name: str, *, url: str | None, mode: Literal["readable", "full"]
) -> dict[str, str | None]:
    from ..extract import convert
    from ..extract.body import decode_body, refuse_binary

    data = _read(name)
    refuse_binary("text/html", data, None)
    text, _, _ = decode_body(data, None)
    doc = convert(text, "text/html", url=url, mode=mode)
    return {"file": name, "title": doc.title, "text": doc.text}


def _file_problem(exc: ToolError) -> str:
    """*exc* worded for a local file: a binary file is "not HTML text", not a "response"."""
    sniffed = (exc.details or {}).get("sniffed")
    if exc.code == "unsupported_content" and sniffed:
        return f"not HTML text: the file is {sniffed}"
    return exc.message


def run_extract(
    files: Sequence[str],
    *,
    url: str | None,
    mode: Literal["readable", "full"],
    as_json: bool,
    out: TextIO,
    err: TextIO,
) -> int:
    """Extract each HTML file (``-`` is stdin); print its text, or one JSON line per file.

    With several files each text is headed ``==> FILE <==`` (as ``head`` does: a line no
    extracted page produces, unlike a Markdown heading). A file that cannot be read or is not
    text is reported on *err* and the others are still extracted; the status is then 1. File
    names are printed with terminal controls as escapes, as web text is (a server may name a
    download).
    """
    status = 0
    printed = 0
    for name in files:
        try:
            doc = _extract_one(name, url=url, mode=mode)
        except OSError as exc:
            err.write(terminal_safe(f"insomnia-web: {name}: {exc.strerror or exc}\n"))
            status = 1
            continue
        except ToolError as exc:
            err.write(terminal_safe(f"insomnia-web: {name}: {_file_problem(exc)}\n"))
            status = 1
            continue
        if as_json:
            out.write(terminal_safe_json(json.dumps(doc, ensure_ascii=False)) + "\n")
            continue
        if len(files) > 1:
            out.write(("\n" if printed else "") + terminal_safe(f"==> {name} <==\n"))
        out.write(terminal_safe((doc["text"] or "").rstrip("\n")) + "\n")
        printed += 1
    return status


def run_cache(manifest: Manifest, action: str, *, as_json: bool, out: TextIO) -> int:
    """``stats``: row counts, size and provider usage; ``clear``: delete every cached row.

    Never creates the SQLite file; works the same on a PostgreSQL store.
    """
    return asyncio.run(_run_cache(manifest, action, as_json=as_json, out=out))


async def _run_cache(manifest: Manifest, action: str, *, as_json: bool, out: TextIO) -> int:
    from ..cache import open_store

    cfg = manifest.web.cache
    store = open_store(cfg)
    try:
        if action == "clear":
            deleted = await store.clear("all")
            if as_json:
                out.write(json.dumps({"path": store.location, "deleted": deleted}) + "\n")
            else:
                noun = "entry" if deleted == 1 else "entries"
                out.write(f"cleared {deleted} {noun} from {store.location}\n")
            return 0
        stats = await store.stats()
    finally:
        await store.aclose()
    if as_json:
        data = msgspec.to_builtins(stats)
        data["enabled"] = cfg.enabled
        out.write(json.dumps(data) + "\n")
        return 0
    # A shared store's names (budgets) and a server's version are others' text.
    out.write(terminal_safe("\n".join(_stats_lines(stats, enabled=cfg.enabled))) + "\n")
    return 0


def _stats_lines(stats: CacheStats, *, enabled: bool) -> list[str]:
    state = "enabled" if enabled else "disabled in the manifest"
    lines = [f"cache: {stats.path} ({state})"]
    if not stats.exists:
        return [*lines, "the cache file does not exist yet"]
    if stats.backend == "postgresql":
        matching = "PostgreSQL full-text search"
        engine = f"PostgreSQL {stats.server_version}"
    else:
        matching = "SQLite FTS5" if stats.fts5 else "same words only (no FTS5)"
        engine = f"SQLite {stats.sqlite_version}"
    lines += [
        f"size: {format_bytes(stats.file_bytes)}",
        f"searches: {stats.searches}",
        f"pages: {stats.pages}",
        f"findings: {stats.findings}",
        f"similar queries: {matching}",
        engine,
    ]
    for use in stats.usage:
        lines.append(
            f"provider requests {use.bucket}: {use.today} today, {use.month} this month (UTC)"
        )
    return lines
