"""Stored pages and the manifests that share one cache: a copy is served only to a caller
that reaches the web as the one that stored it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import msgspec
import pytest

from insomnia_web.config import Manifest
from insomnia_web.runtime import Runtime
from insomnia_web.testing import MockProvider, ProviderPlugin
from tests.support import LOOPBACK

from .conftest import SITE, MakeRuntime, Site
from .test_save_finding import cache_of, save

INTRANET = """<html><head><title>Intranet</title></head><body><article><h1>Payroll</h1>
<p>The payroll server password rotates every Friday at noon. The intranet says so.</p>
</article></body></html>"""
CLAIM = "The payroll server password rotates every Friday at noon."


OPEN_VIEW = {"resolve": {SITE: [LOOPBACK]}, "allow_cidrs": [f"{LOOPBACK}/32"]}
"""A network view that reads the site at 127.0.0.1."""
WIDER_VIEW = {**OPEN_VIEW, "allow_cidrs": [f"{LOOPBACK}/32", "10.255.0.0/16"]}
"""Another network view that reads the site at the same address."""


def strict_runtime(site: Site, cache_path: Path) -> Runtime:
    """A runtime on the same cache whose manifest maps the site's name to 127.0.0.1 but,
    like the default policy, refuses loopback addresses (no ``allow_cidrs``)."""
    return view_runtime(site, cache_path, {"resolve": {SITE: [LOOPBACK]}})


def view_runtime(site: Site, cache_path: Path, url_policy: Mapping[str, object]) -> Runtime:
    """A runtime on *cache_path* whose URL policy is *url_policy* (with the site's port),
    allowed to fetch, save and search; its WebSearch asks a mock provider that finds
    nothing."""
    manifest = msgspec.convert(
        {
            "web": {
                "url_policy": {**url_policy, "ports": [site.port]},
                "cache": {"path": str(cache_path)},
                "search": {"provider": "mock", "mode": "results"},
            },
            "permissions": {"allow": ["WebFetch", "SaveFinding", "WebSearch"]},
        },
        Manifest,
    )
    provider = MockProvider.named("mock", lambda request: [])
    return Runtime(manifest, plugins=[ProviderPlugin(provider)], load_entrypoints=False)


@pytest.mark.asyncio
async def test_a_page_read_at_an_allowed_private_address_is_not_served_to_a_stricter_one(
    make_runtime: MakeRuntime, site: Site, tmp_path: Path
) -> None:
    """A page one manifest read at a private address it allows is not served from the
    cache to another manifest, on the same cache, whose policy refuses that address."""
    site.set("/payroll", INTRANET)
    first = await make_runtime().call_tool("WebFetch", {"url": site.url("/payroll")})
    assert first.ok, first.text
    strict = strict_runtime(site, tmp_path / "cache.sqlite3")
    try:
        result = await strict.call_tool("WebFetch", {"url": site.url("/payroll")})
    finally:
        await strict.aclose()
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "blocked_address"
    assert "payroll" not in result.text.lower()
    assert site.hits["/payroll"] == 1


@pytest.mark.asyncio
async def test_a_stored_copy_from_another_network_view_verifies_no_finding(
    make_runtime: MakeRuntime, site: Site, tmp_path: Path
) -> None:
    """A finding is not verified by a page that another manifest's network view stored
    and the current manifest could not fetch."""
    site.set("/payroll", INTRANET)
    first = await make_runtime().call_tool("WebFetch", {"url": site.url("/payroll")})
    assert first.ok, first.text
    strict = strict_runtime(site, tmp_path / "cache.sqlite3")
    try:
        await save(strict, content=CLAIM, source_url=site.url("/payroll"))
        result = await strict.call_tool("WebFetch", {"url": site.url("/payroll")})
        left = cache_of(strict).findings_for_source(site.url("/payroll"))
    finally:
        await strict.aclose()
    assert "verified finding" not in result.text
    assert [f.content for f in left] == [CLAIM]


@pytest.mark.asyncio
async def test_a_finding_verified_under_another_network_view_is_shown_unverified(
    make_runtime: MakeRuntime, site: Site, tmp_path: Path
) -> None:
    """A finding one manifest verified by reading its source at an address only it allows
    is shown to another manifest on the same cache as unverified, not verified by a page
    that manifest could not read."""
    site.set("/payroll", INTRANET)
    first = make_runtime()
    await save(
        first, query="payroll server password", content=CLAIM, source_url=site.url("/payroll")
    )
    fetched = await first.call_tool("WebFetch", {"url": site.url("/payroll")})
    assert "verified finding" in fetched.text
    strict = strict_runtime(site, tmp_path / "cache.sqlite3")
    try:
        result = await strict.call_tool("WebSearch", {"query": "payroll server password"})
    finally:
        await strict.aclose()
    assert result.ok, result.text
    assert CLAIM in result.text
    assert "UNVERIFIED model finding" in result.text
    assert "verified by" not in result.text


@pytest.mark.asyncio
async def test_a_page_read_under_another_network_view_leaves_this_views_copy(
    site: Site, tmp_path: Path
) -> None:
    """Two manifests with different network views that read the same bytes at one URL each
    keep their stored copy: the second read does not take the first one's away."""
    site.set("/payroll", INTRANET)
    views = [view_runtime(site, tmp_path / "cache.sqlite3", v) for v in (OPEN_VIEW, WIDER_VIEW)]
    try:
        for runtime in (*views, *views):
            result = await runtime.call_tool("WebFetch", {"url": site.url("/payroll")})
            assert result.ok, result.text
    finally:
        for runtime in views:
            await runtime.aclose()
    assert site.hits["/payroll"] == 2


@pytest.mark.asyncio
async def test_a_finding_verified_under_two_network_views_stays_verified_for_each(
    site: Site, tmp_path: Path
) -> None:
    """A finding verified by a fetch under one network view, then by a fetch under another,
    is shown verified to callers with either view."""
    site.set("/payroll", INTRANET)
    views = [view_runtime(site, tmp_path / "cache.sqlite3", v) for v in (OPEN_VIEW, WIDER_VIEW)]
    try:
        await save(
            views[0],
            query="payroll server password",
            content=CLAIM,
            source_url=site.url("/payroll"),
        )
        for runtime in views:
            fetched = await runtime.call_tool("WebFetch", {"url": site.url("/payroll")})
            assert "verified finding" in fetched.text
        results = [
            await runtime.call_tool("WebSearch", {"query": "payroll server password"})
            for runtime in views
        ]
    finally:
        for runtime in views:
            await runtime.aclose()
    for result in results:
        assert result.ok, result.text
        assert f"model finding, verified by {site.url('/payroll')}" in result.text
        assert "UNVERIFIED" not in result.text
