"""docs/mcp.md stays true: its tool table matches what the server lists."""

from __future__ import annotations

import json
from pathlib import Path

from insomnia_web.cli import build_parser
from insomnia_web.mcp_server.listing import mcp_tool
from insomnia_web.runtime import Runtime

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"


def _table_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 7:
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_tool_table_matches_the_listing() -> None:
    """Each documented name, tool, title and annotation is what the server sends."""
    yes = {True: "yes", False: "no"}
    expected: dict[str, list[str]] = {}
    for reg in Runtime(load_entrypoints=False).tools.values():
        listed = mcp_tool(reg.tool)
        hints = listed.annotations
        assert hints is not None
        expected[listed.name] = [
            reg.tool.name,
            listed.title or "",
            yes[bool(hints.read_only_hint)],
            yes[bool(hints.destructive_hint)],
            yes[bool(hints.idempotent_hint)],
            yes[bool(hints.open_world_hint)],
        ]
    assert _table_rows() == expected


def test_documented_client_config_parses() -> None:
    """The documented mcpServers block is JSON whose args the CLI reads as the mcp command."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    server = json.loads(block)["mcpServers"]["insomnia-web"]
    assert server["command"] == "insomnia-web"
    args = build_parser().parse_args(server["args"])
    assert args.command == "mcp"
    assert args.manifest == "/home/you/.config/insomnia-web/insomnia.toml"
