"""Published tool schemas: compact, described, and in agreement with the validators."""

from __future__ import annotations

from typing import Any

import jsonschema
import msgspec
import pytest

from insomnia_web import Runtime
from insomnia_web.tools.base import compact_schema

RUNTIME = Runtime(load_entrypoints=False)

CASES: list[tuple[str, dict[str, Any], bool]] = [
    ("WebSearch", {"query": "tea"}, True),
    ("WebSearch", {"query": "tea", "count": 20, "mode": "results", "freshness": "pw"}, True),
    ("WebSearch", {"query": "tea", "count": None, "mode": None, "max_tokens": 100}, True),
    ("WebSearch", {"query": "tea", "freshness": "2025-01-01to2025-02-01"}, True),
    ("WebSearch", {"query": "tea", "count": 21}, False),
    ("WebSearch", {"query": "tea", "count": 0}, False),
    ("WebSearch", {"query": "tea", "freshness": "yesterday"}, False),
    ("WebSearch", {"query": "tea", "mode": "fast"}, False),
    ("WebSearch", {"query": ""}, False),
    ("WebSearch", {"query": "tea", "colour": "red"}, False),
    ("WebSearch", {"query": "tea", "allowed_domains": ["bad domain"]}, False),
    ("WebFetch", {"url": "https://example.com/", "mode": "raw", "start_index": 5}, True),
    ("WebFetch", {"url": "https://example.com/", "max_chars": 99}, False),
    ("WebFetch", {"url": "https://example.com/", "start_index": -1}, False),
    ("WebFetch", {}, False),
    ("SaveFinding", {"query": "q", "content": "c", "source_url": None}, True),
    ("SaveFinding", {"query": "q", "content": "x" * 2001}, False),
]


@pytest.mark.parametrize(("tool", "args", "valid"), CASES)
def test_input_schema_agrees_with_the_struct(tool: str, args: dict[str, Any], valid: bool) -> None:
    """The published (compacted) input schema accepts exactly what the input Struct accepts."""
    t = RUNTIME.get_tool(tool)
    schema_ok = jsonschema.Draft202012Validator(t.input_schema()).is_valid(args)
    try:
        msgspec.convert(args, t.input_type)
        struct_ok = True
    except msgspec.ValidationError:
        struct_ok = False
    assert schema_ok is valid
    assert struct_ok is valid


def test_compaction_keeps_meaning() -> None:
    """Optional scalars become type lists with their constraints; titles and null defaults go."""
    schema = {
        "title": "X",
        "type": "object",
        "properties": {
            "n": {
                "description": "d",
                "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
                "default": None,
            },
            "m": {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]},
            "items": {
                "description": "list",
                "type": "array",
                "items": {"title": "I", "description": "doc"},
            },
        },
    }
    assert compact_schema(schema) == {
        "type": "object",
        "properties": {
            "n": {"description": "d", "type": ["integer", "null"], "minimum": 1},
            "m": {"enum": ["a", "b", None]},
            "items": {"description": "list", "type": "array", "items": {}},
        },
    }
    assert "default" not in compact_schema({"default": 3}, keep_defaults=False)
    assert compact_schema({"default": 3}) == {"default": 3}


def test_compaction_drops_descriptions_that_restate_the_name() -> None:
    """``url: "URL."`` says nothing the name does not; ``rank: "1-based rank."`` stays."""
    schema = {
        "type": "object",
        "properties": {
            "url": {"description": "URL.", "type": "string"},
            "age_s": {"description": "Age s", "type": "number"},
            "rank": {"description": "1-based rank.", "type": "integer"},
        },
    }
    assert compact_schema(schema)["properties"] == {
        "url": {"type": "string"},
        "age_s": {"type": "number"},
        "rank": {"description": "1-based rank.", "type": "integer"},
    }


@pytest.mark.parametrize("name", ["WebSearch", "WebFetch", "SaveFinding"])
def test_published_schemas_have_no_root_description(name: str) -> None:
    """The tool's description says what it does; the schemas' roots do not repeat it."""
    tool = RUNTIME.get_tool(name)
    assert "description" not in tool.input_schema()
    assert "description" not in tool.output_schema()
