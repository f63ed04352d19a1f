"""The size budget of the tool list an MCP client receives (measured by bench/tool_tokens.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from insomnia_web.rank import estimate_tokens

BENCH = Path(__file__).resolve().parents[2] / "bench" / "tool_tokens.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_tool_tokens", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_whole_tool_list_is_under_2500_tokens() -> None:
    """Names, titles, descriptions, schemas and annotations together stay under 2,500 tokens."""
    bench = _bench()
    total = bench.total_tokens(bench.tool_list())
    assert total < bench.BUDGET == 2500, f"tool list is {total} tokens"


def test_whole_tool_list_is_under_1800_tokens_at_four_chars_each() -> None:
    """Counted as most peers count (characters / 4), the tool list stays under 1,800 tokens."""
    bench = _bench()
    total = bench.total_tokens(bench.tool_list(), bench.chars_tokens)
    assert total < bench.CHARS_BUDGET == 1800, f"tool list is {total} tokens at 4 chars each"


def test_measure_covers_every_listed_part() -> None:
    """The measured entries hold each tool's schemas, annotations and title as sent."""
    bench = _bench()
    entries = bench.tool_list()
    assert [e["name"] for e in entries] == ["web_search", "web_fetch", "save_finding"]
    for entry in entries:
        assert {"name", "title", "description", "inputSchema", "outputSchema"} <= set(entry)
        assert set(entry["annotations"]) == {
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        }
    whole = json.dumps(entries, separators=(",", ":"), ensure_ascii=False)
    assert bench.total_tokens(entries) == estimate_tokens(whole)
