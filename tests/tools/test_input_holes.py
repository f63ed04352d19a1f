"""Tool input a hostile model may send: numbers no tool limit needs."""

from __future__ import annotations

import pytest

from insomnia_web.runtime import Runtime

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
