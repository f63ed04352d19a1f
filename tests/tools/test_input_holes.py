"""Tool input a hostile model may send: numbers no tool limit needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from insomnia_web import JsonlHistory
from insomnia_web.runtime import Runtime
from insomnia_web.textcheck import MAX_INT

from .conftest import Site


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("field", "value"),
    [("start_index", 10**5000), ("max_chars", 10**5000), ("start_index", 2**63)],
    ids=["start_index-5001-digits", "max_chars-5001-digits", "start_index-2**63"],
)
async def test_an_integer_past_64_bits_is_invalid_input(
    runtime: Runtime, site: Site, field: str, value: int
) -> None:
    """An integer outside the 64-bit range is invalid_input naming the field, sent nowhere."""
    site.set("/page", "<html><body><p>Some page text for the reader.</p></body></html>")
    result = await runtime.call_tool("WebFetch", {"url": site.url("/page"), field: value})
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert result.error.details["field"] == f"$.{field}"
    assert site.hits == {}


@pytest.mark.asyncio
async def test_the_call_with_a_huge_integer_is_recorded(tmp_path: Path) -> None:
    """The history keeps a call whose integer is past 64 bits, with a bound in its place;
    the call itself is refused."""
    history = JsonlHistory(tmp_path / "history.jsonl")
    runtime = Runtime(history=history, load_entrypoints=False)
    try:
        result = await runtime.call_tool(
            "WebFetch", {"url": "https://a.test/", "max_chars": 10**5000}
        )
    finally:
        await runtime.aclose()
    assert result.error is not None
    assert result.error.code == "invalid_input"
    events = [json.loads(line) for line in (tmp_path / "history.jsonl").read_text().splitlines()]
    call = next(e for e in events if e["type"] == "tool_call")
    assert call["input"]["max_chars"] == MAX_INT + 1
