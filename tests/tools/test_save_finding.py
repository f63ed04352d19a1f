"""SaveFinding: storing unverified findings, its errors, and verification by a later fetch."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import msgspec
import pytest

from insomnia_web.cache import Cache, SqliteStore
from insomnia_web.config import Manifest
from insomnia_web.errors import ToolError
from insomnia_web.history import MemoryHistory
from insomnia_web.runtime import Runtime
from insomnia_web.schemas import SaveFindingInput
from insomnia_web.tools.base import ToolContext
from insomnia_web.tools.save_finding import SaveFinding
from insomnia_web.tools.services import network_scope

from .conftest import MakeRuntime, Site
from .test_web_fetch import fetch, ok

FACT = "Python 3.12 was released on 2 October 2023. It removed the distutils package."
PAGE = """<html><head><title>What's new</title></head><body><article>
<h1>What's new in Python 3.12</h1>
<p>Python 3.12 was released on <b>2 October 2023</b>.
The release focused on usability.</p>
<p>It removed the <code>distutils</code> package. It had been deprecated since 3.10.</p>
</article></body></html>"""


def cache_of(runtime: Runtime) -> Cache:
    """The runtime's shared cache (opened on first use)."""
    store = runtime.get_tool("WebFetch").services.cache  # type: ignore[attr-defined]
    assert isinstance(store, SqliteStore)
    return store.cache


async def save(runtime: Runtime, **args: str) -> dict[str, object]:
    """Call SaveFinding and return its output."""
    result = await runtime.call_tool("SaveFinding", {"query": "python 3.12 release", **args})
    assert result.ok, result.text
    assert result.output is not None
    return result.output


@pytest.mark.asyncio
async def test_round_trip(runtime: Runtime, site: Site) -> None:
    """A saved finding is stored unverified, with the manifest's lifetime, and says so."""
    result = await runtime.call_tool(
        "SaveFinding",
        {"query": "python 3.12 release", "content": FACT, "source_url": site.url("/new")},
    )
    assert result.ok, result.text
    out = result.output
    assert out is not None
    assert out["verified"] is False
    stored = datetime.fromisoformat(out["stored_at"])
    expires = datetime.fromisoformat(out["expires_at"])
    assert stored.utcoffset() is not None
    assert (expires - stored).total_seconds() == runtime.manifest.web.cache.finding_ttl_s
    assert "UNVERIFIED model finding" in result.text
    assert f"#{out['id']}" in result.text
    assert "30 days" in result.text
    (finding,) = cache_of(runtime).findings_for_source(site.url("/new"))
    assert str(finding.id) == out["id"]
    assert finding.content == FACT
    assert finding.query == "python 3.12 release"


@pytest.mark.asyncio
async def test_later_fetch_verifies_the_finding(runtime: Runtime, site: Site) -> None:
    """A fetch of the source whose text contains every sentence marks the finding verified."""
    site.set("/new", PAGE)
    kept = await save(runtime, content=FACT, source_url=site.url("/new"))
    other = await save(
        runtime, content="Python 3.12 was released in 2022.", source_url=site.url("/new")
    )
    result = await fetch(runtime, site, "/new")
    out = ok(result)
    assert f"verified finding #{kept['id']}" in result.text
    assert f"verified finding #{other['id']}" not in result.text
    scope = network_scope(runtime.manifest)
    (left,) = cache_of(runtime).findings_for_source(site.url("/new"), scope=scope)
    assert str(left.id) == other["id"]
    assert [w for w in out["warnings"] if "finding" in w] == [
        f"verified finding #{kept['id']} (saved for 'python 3.12 release'): this page contains it"
    ]


@pytest.mark.asyncio
async def test_findings_of_other_sources_are_not_touched(runtime: Runtime, site: Site) -> None:
    """A page only verifies findings saved for its own URL."""
    site.set("/new", PAGE)
    await save(runtime, content=FACT, source_url=site.url("/elsewhere"))
    result = await fetch(runtime, site, "/new")
    assert "verified finding" not in result.text
    assert len(cache_of(runtime).findings_for_source(site.url("/elsewhere"))) == 1


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"content": FACT, "source_url": "ftp://example.com/file"}, "$.source_url"),
        ({"content": FACT, "source_url": "not a url"}, "$.source_url"),
        ({"content": "   \n "}, "$.content"),
        ({"content": "x" * 2001}, "$.content"),
    ],
)
async def test_invalid_input(runtime: Runtime, args: dict[str, str], field: str) -> None:
    """Bad fields are invalid_input naming the field, refused before the permission step."""
    result = await runtime.call_tool("SaveFinding", {"query": "q", **args})
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert result.error.details["field"] == field
    assert isinstance(runtime.history, MemoryHistory)
    kinds = [type(e).__name__ for e in runtime.history.of_call(result.call_id)]
    assert kinds == ["ToolCallEvent", "ToolResultEvent"]


@pytest.mark.asyncio
async def test_cache_disabled_is_disabled(make_runtime: MakeRuntime) -> None:
    """With the cache off SaveFinding is not registered, and a direct run fails disabled,
    naming the key that turns the cache on."""
    runtime = make_runtime(cache={"enabled": False})
    assert "SaveFinding" not in runtime.tools
    manifest = msgspec.convert({"web": {"cache": {"enabled": False}}}, Manifest)
    tool = SaveFinding(manifest)
    ctx = ToolContext(
        call_id="c1",
        manifest=manifest,
        progress=lambda *a: None,
        permission_probe=lambda tool, host: "allow",
        search_providers={},
    )
    try:
        with pytest.raises(ToolError, match="cache is disabled") as info:
            await tool.run(SaveFindingInput(query="q", content=FACT), ctx)
    finally:
        await tool.aclose()
    assert info.value.code == "disabled"
    assert info.value.remedy == "Set web.cache.enabled = true in the manifest to save findings."


@pytest.mark.asyncio
async def test_source_url_is_matched_in_canonical_form(runtime: Runtime, site: Site) -> None:
    """A source URL with an upper-case host and a fragment is verified by a fetch of the page."""
    site.set("/new", PAGE)
    source = site.url("/new").replace("site.test", "SITE.Test") + "#released"
    saved = await save(runtime, content=FACT, source_url=source)
    result = await fetch(runtime, site, "/new")
    assert f"verified finding #{saved['id']}" in result.text


@pytest.mark.asyncio
async def test_broken_cache(make_runtime: MakeRuntime, site: Site, tmp_path: Path) -> None:
    """An unusable cache file fails SaveFinding with cache_error; WebFetch still answers."""
    broken = tmp_path / "not-a-file"
    broken.mkdir()
    runtime = make_runtime(cache={"path": str(broken)})
    result = await runtime.call_tool("SaveFinding", {"query": "q", "content": FACT})
    assert result.error is not None
    assert result.error.code == "cache_error"
    assert "not saved" in result.error.hint
    site.set("/new", PAGE)
    out = ok(await fetch(runtime, site, "/new"))
    assert out["text"].startswith("# What's new in Python 3.12")
    assert any(w.startswith("cache unavailable") for w in out["warnings"])
    assert any(w.startswith("page not stored") for w in out["warnings"])
