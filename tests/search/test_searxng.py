"""SearXNG against a local SearXNG-compatible server, through the real SafeClient."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from insomnia_web import Runtime

from .conftest import manifest_data

Serve = Callable[[web.Application], Awaitable[str]]

RESULTS = [
    {
        "url": f"https://site{i}.example/page",
        "title": f"Result <b>{i}</b>",
        "content": f"About result {i} &amp; more",
        "engine": "duckduckgo",
        **({"publishedDate": "2026-11-30T08:00:00"} if i == 0 else {}),
    }
    for i in range(10)
]


class FakeSearxng:
    """A SearXNG-compatible app: records queries, answers as ``mode`` says."""

    def __init__(self) -> None:
        self.queries: list[dict[str, str]] = []
        self.mode = "ok"
        self.results: list[dict[str, Any]] = list(RESULTS)
        self.unresponsive: list[list[str]] = []

    async def search(self, request: web.Request) -> web.StreamResponse:
        """The /search endpoint."""
        self.queries.append(dict(request.query))
        if self.mode == "json_disabled":
            return web.Response(status=403, text="Forbidden")
        if self.mode == "redirect":
            raise web.HTTPFound("https://elsewhere.example/search")
        if self.mode == "huge":
            response = web.StreamResponse(headers={"Content-Type": "application/json"})
            await response.prepare(request)
            chunk = b" " * 65536
            for _ in range(40):  # 2.5 MiB, chunked: no Content-Length to refuse early
                await response.write(chunk)
            return response
        return web.json_response(
            {
                "query": request.query.get("q", ""),
                "number_of_results": 0,
                "results": self.results,
                "answers": [],
                "corrections": [],
                "infoboxes": [],
                "suggestions": [],
                "unresponsive_engines": self.unresponsive,
            }
        )

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application()
        app.router.add_get("/search", self.search)
        return app


@pytest.fixture
def fake() -> FakeSearxng:
    """A fresh fake SearXNG instance."""
    return FakeSearxng()


@pytest.fixture
def searxng(
    make_runtime: Callable[..., Runtime], serve_app: Serve, fake: FakeSearxng
) -> Callable[..., Awaitable[Runtime]]:
    """Start the fake instance and build a runtime selecting it (extra ``web.search`` keys)."""

    async def build(**search: Any) -> Runtime:
        origin = await serve_app(fake.app())
        settings = {
            "provider": "searxng",
            "searxng": {"base_url": origin},
            "rate_limit_per_s": 1000,
            "mode": "results",
            **search,
        }
        return make_runtime(manifest_data(settings))

    return build


@pytest.mark.asyncio
async def test_search_end_to_end_sends_searxng_parameters(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """WebSearch reaches the private instance with format=json, pageno, safesearch, language."""
    runtime = await searxng(search_lang="fr", safesearch="strict")
    result = await runtime.call_tool(
        "WebSearch", {"query": "café crème", "count": 3, "offset": 1, "freshness": "pw"}
    )
    assert result.ok, result.text
    assert fake.queries == [
        {
            "q": "café crème",
            "format": "json",
            "pageno": "2",
            "safesearch": "2",
            "language": "fr",
            "time_range": "week",
        }
    ]
    assert result.output is not None
    results = result.output["results"]
    assert [r["rank"] for r in results] == [1, 2, 3]
    assert results[0]["title"] == "Result 0"
    assert results[0]["snippet"] == "About result 0 & more"
    assert results[0]["age"] == "2026-11-30"
    assert results[0]["provider"] == "searxng"
    assert result.text.splitlines()[0] == "[source: searxng]"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("freshness", "time_range"), [("pd", "day"), ("pw", "week"), ("pm", "month"), ("py", "year")]
)
async def test_freshness_maps_to_time_range(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng, freshness: str, time_range: str
) -> None:
    """pd, pw, pm and py become day, week, month and year."""
    runtime = await searxng()
    result = await runtime.call_tool("WebSearch", {"query": "news", "freshness": freshness})
    assert result.ok, result.text
    assert fake.queries[0]["time_range"] == time_range


@pytest.mark.asyncio
async def test_date_range_is_ignored_with_a_warning(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """A date-range freshness sends no time_range and says so in the warnings."""
    runtime = await searxng()
    result = await runtime.call_tool(
        "WebSearch", {"query": "news", "freshness": "2026-01-01to2026-02-01"}
    )
    assert result.ok
    assert result.output is not None
    assert "time_range" not in fake.queries[0]
    [warning] = result.output["warnings"]
    assert "date range" in warning
    assert "2026-01-01to2026-02-01" in warning
    assert f"Warning: {warning}" in result.text


@pytest.mark.asyncio
async def test_json_format_disabled_says_how_to_enable_it(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """A 403 from the instance is provider_error naming search.formats in settings.yml."""
    fake.mode = "json_disabled"
    runtime = await searxng()
    result = await runtime.call_tool("WebSearch", {"query": "news"})
    assert result.error is not None
    assert result.error.code == "provider_error"
    assert "search.formats" in result.error.message
    assert "settings.yml" in result.error.message
    assert result.error.remedy is not None
    assert result.error.remedy.startswith("Enable json in search.formats of the settings.yml")
    assert len(fake.queries) == 1


@pytest.mark.asyncio
async def test_unset_base_url_is_not_configured(make_runtime: Callable[..., Runtime]) -> None:
    """provider = searxng without a base_url names web.search.searxng.base_url."""
    runtime = make_runtime(manifest_data({"provider": "searxng"}))
    result = await runtime.call_tool("WebSearch", {"query": "news"})
    assert result.error is not None
    assert result.error.code == "not_configured"
    assert "web.search.searxng.base_url" in result.error.message


@pytest.mark.asyncio
async def test_unresponsive_engines_become_a_warning(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """Engines SearXNG lists as unresponsive are named in a warning."""
    fake.unresponsive = [["google", "timeout"], ["bing", "HTTP error"]]
    runtime = await searxng()
    result = await runtime.call_tool("WebSearch", {"query": "news"})
    assert result.output is not None
    assert result.output["warnings"] == [
        "searxng engines that did not answer: google (timeout), bing (HTTP error)"
    ]


@pytest.mark.asyncio
async def test_streamed_oversize_body_is_response_too_large(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """A chunked body that grows past 2 MiB is cut off and refused."""
    fake.mode = "huge"
    runtime = await searxng()
    result = await runtime.call_tool("WebSearch", {"query": "news"})
    assert result.error is not None
    assert result.error.code == "response_too_large"


@pytest.mark.asyncio
async def test_instance_redirect_is_not_followed(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """A redirect from the configured origin is a provider_error naming the target."""
    fake.mode = "redirect"
    runtime = await searxng()
    result = await runtime.call_tool("WebSearch", {"query": "news"})
    assert result.error is not None
    assert result.error.code == "provider_error"
    assert "https://elsewhere.example/search" in result.error.message
    assert result.error.remedy == (
        "Check the base_url of searxng in the manifest: the provider redirects it elsewhere."
    )
    assert len(fake.queries) == 1


@pytest.mark.asyncio
async def test_private_result_urls_are_filtered_and_counted(
    searxng: Callable[..., Awaitable[Runtime]], fake: FakeSearxng
) -> None:
    """Results pointing at loopback or local names are dropped; filtered says how many."""
    fake.results = [
        {"url": "http://127.0.0.1:8080/admin", "title": "loopback"},
        {"url": "http://router.local/", "title": "local name"},
        {"url": "https://public.example/", "title": "public"},
    ]
    runtime = await searxng()
    result = await runtime.call_tool("WebSearch", {"query": "news"})
    assert result.output is not None
    assert [r["url"] for r in result.output["results"]] == ["https://public.example/"]
    assert result.output["filtered"] == 2
    assert "2 results were hidden" in result.text


@pytest.mark.asyncio
async def test_a_cached_answer_of_one_instance_is_not_served_for_another(
    make_runtime: Callable[..., Runtime], serve_app: Serve, tmp_path: Path
) -> None:
    """Two manifests on one cache that name different SearXNG instances each get their own
    instance's answer: one instance's stored results are not served for the other."""
    evil, good = FakeSearxng(), FakeSearxng()
    evil.results = [{"url": "https://phish.example/login", "title": "Log in", "content": "x"}]
    runtimes = []
    for fake in (evil, good):
        settings = {"provider": "searxng", "searxng": {"base_url": await serve_app(fake.app())}}
        data = manifest_data(
            {**settings, "mode": "results"}, cache={"path": str(tmp_path / "c.sqlite3")}
        )
        runtimes.append(make_runtime(data))
    first = await runtimes[0].call_tool("WebSearch", {"query": "bank login page"})
    assert first.ok, first.text
    result = await runtimes[1].call_tool("WebSearch", {"query": "bank login page"})
    assert result.ok, result.text
    assert "phish.example" not in result.text
    assert len(good.queries) == 1
