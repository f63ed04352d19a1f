"""robots.txt and the per-host rate limit, for WebFetch and for excerpt pages."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from yarl import URL

from insomnia_web import MockProvider, Runtime, SearchHit, ToolError
from insomnia_web.net.politeness import HostRateLimiter
from insomnia_web.net.robots import RobotsCache
from insomnia_web.runtime import ToolResult
from insomnia_web.testing import ProviderPlugin
from insomnia_web.tools.services import WebServices
from tests.support import LOOPBACK

from .conftest import SITE, MakeRuntime, Site, manifest_for

ROBOTS = "User-agent: *\nDisallow: /private\n\nUser-agent: insomnia-web\nDisallow: /no-ai\n"


async def fetch(runtime: Runtime, site: Site, path: str, **args: Any) -> ToolResult:
    """Call WebFetch on *path* of the site."""
    return await runtime.call_tool("WebFetch", {"url": site.url(path), **args})


@pytest.mark.asyncio
async def test_a_path_robots_txt_disallows_for_us_is_refused(site: Site, runtime: Runtime) -> None:
    """A path disallowed for our product token is robots_disallowed; the page is not asked."""
    site.set("/robots.txt", ROBOTS, content_type="text/plain")
    site.set("/no-ai/page", "<p>secret</p>")
    result = await fetch(runtime, site, "/no-ai/page")
    assert result.error is not None
    assert result.error.code == "robots_disallowed"
    assert result.error.retryable is False
    assert "do not retry" in result.error.hint
    assert result.error.details["robots_url"] == site.url("/robots.txt")
    assert "/no-ai/page" not in site.hits


@pytest.mark.asyncio
async def test_robots_txt_is_read_once_and_other_paths_are_fetched(
    site: Site, runtime: Runtime
) -> None:
    """Allowed paths are fetched, and robots.txt is requested once for several fetches."""
    site.set("/robots.txt", ROBOTS, content_type="text/plain")
    site.set("/private/x", "<p>The star group does not name us.</p>")
    site.set("/open", "<p>Open page.</p>")
    assert (await fetch(runtime, site, "/private/x")).ok
    assert (await fetch(runtime, site, "/open")).ok
    assert site.hits["/robots.txt"] == 1


@pytest.mark.asyncio
async def test_ignore_never_reads_robots_txt(site: Site, make_runtime: MakeRuntime) -> None:
    """With web.fetch.robots = "ignore" robots.txt is neither read nor followed."""
    runtime = make_runtime(fetch={"robots": "ignore"})
    site.set("/robots.txt", "User-agent: *\nDisallow: /\n", content_type="text/plain")
    site.set("/page", "<p>Fetched anyway.</p>")
    assert (await fetch(runtime, site, "/page")).ok
    assert "/robots.txt" not in site.hits


@pytest.mark.asyncio
async def test_missing_robots_txt_allows_everything(site: Site, runtime: Runtime) -> None:
    """A 404 for robots.txt means no rules (RFC 9309: unavailable)."""
    site.set("/page", "<p>No robots file here.</p>")
    assert (await fetch(runtime, site, "/page")).ok
    assert site.hits["/robots.txt"] == 1


@pytest.mark.asyncio
async def test_failing_robots_txt_disallows_for_now(site: Site, runtime: Runtime) -> None:
    """A 5xx for robots.txt disallows everything (RFC 9309: unreachable), retryable."""
    site.set("/robots.txt", "oops", status=503, content_type="text/plain")
    site.set("/page", "<p>Not now.</p>")
    result = await fetch(runtime, site, "/page")
    assert result.error is not None
    assert result.error.code == "robots_disallowed"
    assert result.error.retryable is True
    assert "/page" not in site.hits


@pytest.mark.asyncio
async def test_a_redirect_to_a_disallowed_path_is_not_followed(
    site: Site, runtime: Runtime
) -> None:
    """Every redirect hop is checked against robots.txt before it is requested."""
    site.set("/robots.txt", ROBOTS, content_type="text/plain")
    site.set("/moved", "", status=302, headers={"Location": "/no-ai/target"})
    site.set("/no-ai/target", "<p>secret</p>")
    result = await fetch(runtime, site, "/moved")
    assert result.error is not None
    assert result.error.code == "robots_disallowed"
    assert "/no-ai/target" not in site.hits


@pytest.mark.asyncio
async def test_the_per_host_rate_refuses_a_request_beyond_the_deadline(
    site: Site, make_runtime: MakeRuntime
) -> None:
    """At 0.5 requests/s without burst, a second page within a 1 s deadline is rate_limited."""
    runtime = make_runtime(
        fetch={"host_rate_limit_per_s": 0.5, "host_burst": 1, "timeout_s": 1, "robots": "ignore"}
    )
    site.set("/one", "<p>One.</p>")
    site.set("/two", "<p>Two.</p>")
    assert (await fetch(runtime, site, "/one")).ok
    result = await fetch(runtime, site, "/two")
    assert result.error is not None
    assert result.error.code == "rate_limited"
    assert result.error.retry_after_s is not None
    assert 1.0 < result.error.retry_after_s <= 2.0
    assert result.error.details["host"] == SITE
    assert "/two" not in site.hits


@pytest.mark.asyncio
async def test_excerpt_pages_share_robots_and_the_host_rate(site: Site, tmp_path: Path) -> None:
    """Excerpt pages skip what robots.txt disallows and queue behind WebFetch's requests."""
    site.set("/robots.txt", ROBOTS, content_type="text/plain")
    site.set("/no-ai/page", "<p>tea tea tea</p>")
    site.set("/open", "<p>Tea is brewed from leaves of the tea plant.</p>")
    site.set("/first", "<p>First.</p>")

    def answer(request: Any) -> list[SearchHit]:
        return [
            SearchHit(title="Hidden", url=site.url("/no-ai/page")),
            SearchHit(title="Open", url=site.url("/open")),
        ]

    manifest = manifest_for(
        site.port,
        tmp_path / "cache.sqlite3",
        search={"provider": "canned"},
        fetch={"host_rate_limit_per_s": 0.5, "host_burst": 1},
        pipeline={"deadline_s": 1},
        permissions={"allow": ["WebSearch", f"WebFetch(domain:{SITE})"]},
    )
    plugin = ProviderPlugin(MockProvider.named("canned", answer))
    async with Runtime(manifest, plugins=[plugin], load_entrypoints=False) as runtime:
        assert (await runtime.call_tool("WebFetch", {"url": site.url("/first")})).ok
        found = await runtime.call_tool("WebSearch", {"query": "tea"})
    assert found.output is not None
    pages = {p["url"]: p for p in found.output["pages"]}
    assert pages[site.url("/no-ai/page")]["error_code"] == "robots_disallowed"
    assert pages[site.url("/no-ai/page")]["status"] == "skipped"
    # /first took the host's slot; /open's comes 2 s later, after the pipeline's deadline.
    assert pages[site.url("/open")]["error_code"] == "rate_limited"
    assert site.hits["/robots.txt"] == 1


def test_rate_limiter_spaces_requests_after_the_burst() -> None:
    """Burst 2 at 4 requests/s: waits 0, 0, 0.25, 0.5; another host is not held back."""
    now = [100.0]
    limiter = HostRateLimiter(4.0, 2, clock=lambda: now[0])
    assert [limiter.reserve("a.test") for _ in range(4)] == [0.0, 0.0, 0.25, 0.5]
    assert limiter.reserve("b.test") == 0.0
    now[0] += 10
    assert limiter.reserve("a.test") == 0.0


def test_rate_limiter_refuses_past_the_deadline_without_reserving() -> None:
    """A slot beyond the deadline is rate_limited and leaves the queue as it was."""
    now = [0.0]
    limiter = HostRateLimiter(1.0, 1, clock=lambda: now[0])
    limiter.reserve("a.test")
    with pytest.raises(Exception, match="per-host rate limit") as info:
        limiter.reserve("a.test", deadline=0.5)
    assert getattr(info.value, "code", None) == "rate_limited"
    assert limiter.reserve("a.test", deadline=2.0) == 1.0


@pytest.mark.asyncio
async def test_concurrent_fetches_of_one_site_share_one_robots_read(
    site: Site, runtime: Runtime
) -> None:
    """Several pages of one site fetched at once read its robots.txt once."""
    site.set("/robots.txt", ROBOTS, content_type="text/plain")
    for n in range(4):
        site.set(f"/p{n}", f"<p>Page {n}.</p>")
    results = await asyncio.gather(*(fetch(runtime, site, f"/p{n}") for n in range(4)))
    assert all(r.ok for r in results)
    assert site.hits["/robots.txt"] == 1


@pytest.mark.asyncio
async def test_an_unreachable_site_fails_with_its_own_error_and_is_asked_again(
    site: Site, runtime: Runtime
) -> None:
    """A robots.txt read that fails in transport reports that error, and is not kept."""
    site.set("/page", "<p>Here.</p>")
    https_url = site.url("/page").replace("http://", "https://")  # this server speaks http
    for _ in range(2):
        result = await runtime.call_tool("WebFetch", {"url": https_url})
        assert result.error is not None
        assert result.error.code == "tls_error"
    tool = runtime.get_tool("WebFetch")
    robots = tool.services.politeness.robots  # type: ignore[attr-defined]
    assert robots is not None
    assert robots._sites == {}


WWW = f"www.{SITE}"


def _www_robots(site: Site, permissions: dict[str, list[str]], cache: Path) -> Runtime:
    """A runtime whose site's robots.txt redirects to the www variant, which disallows
    /no-ai; *permissions* say what WebFetch may read."""
    site.set("/robots.txt", b"", status=301, headers={"Location": site.url("/www-robots", WWW)})
    site.set("/www-robots", "User-agent: *\nDisallow: /no-ai\n", content_type="text/plain")
    site.set("/no-ai/page", "<p>A page of the site.</p>")
    resolve = {SITE: [LOOPBACK], WWW: [LOOPBACK]}
    manifest = manifest_for(
        site.port, cache, url_policy={"resolve": resolve}, permissions=permissions
    )
    return Runtime(manifest, load_entrypoints=False)


@pytest.mark.asyncio
async def test_a_robots_redirect_to_a_denied_www_host_is_not_followed(
    site: Site, tmp_path: Path
) -> None:
    """A robots.txt that moved to the www variant is read there only when WebFetch may read
    that host: a denied host is not contacted, and the site then has no rules."""
    denied = _www_robots(
        site, {"allow": [f"WebFetch(domain:{SITE})"], "deny": [f"WebFetch(domain:{WWW})"]},
        tmp_path / "denied.sqlite3",
    )  # fmt: skip
    try:
        assert (await fetch(denied, site, "/no-ai/page")).ok
        assert "/www-robots" not in site.hits
    finally:
        await denied.aclose()
    both = {"allow": [f"WebFetch(domain:{SITE})", f"WebFetch(domain:{WWW})"]}
    allowed = _www_robots(site, both, tmp_path / "allowed.sqlite3")
    try:
        result = await fetch(allowed, site, "/no-ai/page")
        assert result.error is not None
        assert result.error.code == "robots_disallowed"
        assert site.hits["/www-robots"] == 1
    finally:
        await allowed.aclose()


@pytest.mark.asyncio
async def test_a_robots_read_refused_for_one_caller_is_not_kept_for_the_next(
    site: Site, tmp_path: Path
) -> None:
    """A robots.txt left unread because it moved to a www host this caller may not contact
    is not cached: the next caller, who may contact it, reads its rules there."""
    runtime = _www_robots(site, {"allow": [f"WebFetch(domain:{SITE})"]}, tmp_path / "c.sqlite3")
    services = WebServices(runtime.manifest)
    try:
        cache = RobotsCache(services.client)
        page = URL(site.url("/no-ai/page"))
        await cache.check(page, may_contact=lambda host: False)
        with pytest.raises(ToolError) as refused:
            await cache.check(page, may_contact=lambda host: True)
        assert refused.value.code == "robots_disallowed"
    finally:
        await services.aclose()
        await runtime.aclose()


@pytest.mark.asyncio
async def test_a_robots_redirect_to_the_www_variant_of_an_idn_host_is_followed(
    site: Site, tmp_path: Path
) -> None:
    """An internationalised host's robots.txt that moved to its www variant is read there."""
    idn, www = "xn--bcher-kva.test", "www.xn--bcher-kva.test"
    site.set("/robots.txt", b"", status=301, headers={"Location": site.url("/www-robots", www)})
    site.set("/www-robots", "User-agent: *\nDisallow: /no-ai\n", content_type="text/plain")
    site.set("/no-ai/page", "<p>A page of the site.</p>")
    manifest = manifest_for(
        site.port,
        tmp_path / "c.sqlite3",
        url_policy={"resolve": {idn: [LOOPBACK], www: [LOOPBACK]}},
        permissions={"allow": [f"WebFetch(domain:{idn})", f"WebFetch(domain:{www})"]},
    )
    runtime = Runtime(manifest, load_entrypoints=False)
    try:
        result = await runtime.call_tool(
            "WebFetch", {"url": site.url("/no-ai/page", "bücher.test")}
        )
        assert result.error is not None
        assert result.error.code == "robots_disallowed"
    finally:
        await runtime.aclose()


@pytest.mark.asyncio
async def test_a_site_of_many_robots_rules_is_read_off_the_event_loop(
    site: Site, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A robots.txt of thousands of wildcard rules (a hostile one took 0.2 s per URL) is
    parsed and matched in a worker thread, so other calls go on meanwhile."""
    import threading

    from insomnia_web.net import robots

    seen: dict[str, set[int]] = {"parse": set(), "allows": set()}
    parse, allows = robots.parse_robots, robots.RobotsRules.allows

    def spy_parse(text: str, token: str) -> robots.RobotsRules:
        seen["parse"].add(threading.get_ident())
        return parse(text, token)

    def spy_allows(self: robots.RobotsRules, path: str) -> bool:
        seen["allows"].add(threading.get_ident())
        return allows(self, path)

    monkeypatch.setattr(robots, "parse_robots", spy_parse)
    monkeypatch.setattr(robots.RobotsRules, "allows", spy_allows)
    loop_thread = threading.get_ident()
    many = "".join(f"Disallow: /*x{i}*y$\n" for i in range(3000))
    site.set("/robots.txt", "User-agent: *\n" + many, content_type="text/plain")
    site.set("/page", "<p>Allowed.</p>")
    assert (await fetch(runtime, site, "/page")).ok
    assert loop_thread not in seen["parse"] | seen["allows"]
