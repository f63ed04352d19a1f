"""Article metadata in WebFetch output and in excerpt labels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from insomnia_web import MockProvider, Runtime, SearchHit
from insomnia_web.testing import ProviderPlugin

from .conftest import SITE, Site, manifest_for

ARTICLE = (
    "<html><head><title>Brewing tea</title>"
    '<meta name="author" content="Ann Lee">'
    '<meta property="article:published_time" content="2026-03-01T09:30:00Z">'
    '<meta property="article:modified_time" content="2026-03-05">'
    "</head><body><article><h1>Brewing tea</h1><p>"
    + "Green tea is brewed at eighty degrees for two minutes. " * 6
    + "</p></article></body></html>"
)


@pytest.mark.asyncio
async def test_webfetch_reports_author_and_dates(site: Site, runtime: Runtime) -> None:
    """The output's document facts and the header lines give author and dates."""
    site.set("/tea", ARTICLE)
    result = await runtime.call_tool("WebFetch", {"url": site.url("/tea")})
    assert result.output is not None, result.text
    facts = ("author", "published", "modified", "pages")
    assert [result.output[k] for k in facts] == [
        "Ann Lee",
        "2026-03-01T09:30:00+00:00",
        "2026-03-05",
        None,
    ]
    assert "Published: 2026-03-01T09:30:00+00:00 · Modified: 2026-03-05\n" in result.text
    assert 'Title: "Brewing tea"\nAuthor: Ann Lee\n\n' in result.text
    again = await runtime.call_tool("WebFetch", {"url": site.url("/tea")})
    assert again.output is not None
    assert again.output["cache"]["hit"] is True
    assert [again.output[k] for k in facts] == [result.output[k] for k in facts]


@pytest.mark.asyncio
async def test_excerpt_labels_carry_the_byline(site: Site, tmp_path: Path) -> None:
    """An excerpt from a page that states its author and dates has a byline under its label."""
    site.set("/tea", ARTICLE)

    def answer(request: Any) -> list[SearchHit]:
        return [SearchHit(title="Brewing tea", url=site.url("/tea"))]

    manifest = manifest_for(
        site.port,
        tmp_path / "cache.sqlite3",
        search={"provider": "canned"},
        permissions={"allow": ["WebSearch", f"WebFetch(domain:{SITE})"]},
    )
    plugin = ProviderPlugin(MockProvider.named("canned", answer))
    async with Runtime(manifest, plugins=[plugin], load_entrypoints=False) as runtime:
        found = await runtime.call_tool("WebSearch", {"query": "green tea brewing minutes"})
    assert found.output is not None, found.text
    line = "By Ann Lee · 2026-03-01 · modified 2026-03-05"
    assert f"[1] Brewing tea - {site.url('/tea')}\n{line}\n" in found.text
    assert found.output["excerpts"][0]["byline"] == line


@pytest.mark.asyncio
async def test_the_history_file_holds_a_fetched_pages_text_once(site: Site, tmp_path: Path) -> None:
    """A WebFetch result in the JSONL history carries the page text once, not twice."""
    from insomnia_web.history import ToolResultEvent, decode_event

    history = tmp_path / "history.jsonl"
    manifest = manifest_for(site.port, tmp_path / "cache.sqlite3")
    web = msgspec.structs.replace(manifest.web, history_path=str(history))
    site.set("/tea", ARTICLE)
    async with Runtime(
        msgspec.structs.replace(manifest, web=web), load_entrypoints=False
    ) as runtime:
        result = await runtime.call_tool("WebFetch", {"url": site.url("/tea")})
    assert result.ok, result.text
    raw = history.read_text()
    assert raw.count("Green tea is brewed at eighty degrees") == 6
    last = decode_event(raw.splitlines()[-1])
    assert isinstance(last, ToolResultEvent)
    assert last.output == result.output
