"""Brave Search: the request it sends, how it reads answers, and every failure it names."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from aiohttp import ClientResponse
from aioresponses import aioresponses
from aioresponses import core as aioresponses_core
from yarl import URL

from insomnia_web import Runtime, ToolResult
from insomnia_web.history import MemoryHistory
from insomnia_web.net.decompress import ACCEPT_ENCODING
from insomnia_web.search import http as provider_http
from insomnia_web.tools.web_search import WebSearch

from .conftest import BRAVE_ENDPOINT, BRAVE_KEY, manifest_data

ENDPOINT_RE = re.compile(r"^https://api\.search\.brave\.com/res/v1/web/search(\?.*)?$")

ANSWER: dict[str, Any] = {
    "type": "search",
    "query": {"original": "pyhton asyncio", "altered": "python asyncio"},
    "web": {
        "type": "search",
        "results": [
            {
                "title": "<strong>asyncio</strong> &mdash; Asynchronous I/O",
                "url": "https://docs.python.org/3/library/asyncio.html",
                "description": "asyncio is a library to write <strong>concurrent</strong> "
                "code &amp; more. &lt;b&gt; stays",
                "age": "2 days ago",
                "extra_snippets": ["First <strong>extra</strong>", "Second &quot;extra&quot;"],
                "profile": {"name": "Python"},
            },
            {"title": "No description", "url": "https://example.org/asyncio"},
        ],
    },
    "news": {"results": [{"title": "ignored", "url": "https://news.example/ignored"}]},
    "videos": {"results": [{"title": "ignored", "url": "https://video.example/ignored"}]},
}


class _CompatResponse(ClientResponse):
    """aioresponses 0.7.9 builds responses without aiohttp 3.14's ``stream_writer``."""

    def __init__(self, method: str, url: URL, **kwargs: Any) -> None:
        kwargs.setdefault("stream_writer", SimpleNamespace(output_size=0))
        super().__init__(method, url, **kwargs)


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[aioresponses]:
    """Intercept every HTTP request (aioresponses); unmatched requests fail."""
    monkeypatch.setattr(aioresponses_core, "ClientResponse", _CompatResponse)
    with aioresponses() as mocked:
        yield mocked


@pytest.fixture
def brave(
    make_runtime: Callable[..., Runtime], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Runtime]:
    """Build a runtime selecting brave with the fake key set (extra ``web.search`` keys)."""
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", BRAVE_KEY)

    def build(**search: Any) -> Runtime:
        settings = {"provider": "brave", "rate_limit_per_s": 1000, "mode": "results", **search}
        # The API host resolves to a documentation address; aioresponses answers first.
        policy = {"resolve": {"api.search.brave.com": ["203.0.113.9"]}}
        return make_runtime(manifest_data(settings, url_policy=policy))

    return build


def sent(api: aioresponses) -> list[tuple[URL, dict[str, str]]]:
    """Every request aioresponses saw: (URL with query, request headers)."""
    out: list[tuple[URL, dict[str, str]]] = []
    for (_method, url), calls in api.requests.items():
        out.extend((url, dict(call.kwargs["headers"])) for call in calls)
    return out


def error_of(result: ToolResult) -> Any:
    """The result's error (the test fails if the call succeeded)."""
    assert result.error is not None, result.text
    return result.error


@pytest.mark.asyncio
async def test_request_carries_exactly_the_documented_parameters_and_headers(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """The request is GET /res/v1/web/search with the documented params and the key header."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    runtime = brave(country="DE", search_lang="de", ui_lang="de-DE", safesearch="strict")
    result = await runtime.call_tool(
        "WebSearch", {"query": "pyhton asyncio", "count": 7, "offset": 2, "freshness": "pw"}
    )
    assert result.ok, result.text
    [(url, headers)] = sent(api)
    assert str(url.with_query(None)) == BRAVE_ENDPOINT
    assert dict(url.query) == {
        "q": "pyhton asyncio",
        "count": "7",
        "offset": "2",
        "safesearch": "strict",
        "country": "DE",
        "search_lang": "de",
        "ui_lang": "de-DE",
        "freshness": "pw",
    }
    assert headers == {
        "User-Agent": runtime.manifest.web.fetch.user_agent,
        "Accept": "application/json",
        "Accept-Encoding": ACCEPT_ENCODING,
        "X-Subscription-Token": BRAVE_KEY,
    }


@pytest.mark.asyncio
async def test_defaults_send_moderate_safesearch_and_omit_unset_parameters(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """With manifest defaults only q, count, offset and safesearch=moderate are sent."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    result = await brave().call_tool("WebSearch", {"query": "asyncio"})
    assert result.ok, result.text
    [(url, _headers)] = sent(api)
    assert dict(url.query) == {
        "q": "asyncio",
        "count": "5",
        "offset": "0",
        "safesearch": "moderate",
    }


@pytest.mark.asyncio
async def test_date_range_freshness_is_passed_through(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A YYYY-MM-DDtoYYYY-MM-DD freshness goes to Brave unchanged."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    result = await brave().call_tool(
        "WebSearch", {"query": "asyncio", "freshness": "2026-01-01to2026-02-01"}
    )
    assert result.ok, result.text
    [(url, _headers)] = sent(api)
    assert url.query["freshness"] == "2026-01-01to2026-02-01"


@pytest.mark.asyncio
async def test_one_allowed_domain_becomes_a_site_operator(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A single allowed domain is added to q as site:, and results are still post-filtered."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    result = await brave().call_tool(
        "WebSearch", {"query": "asyncio", "allowed_domains": ["docs.python.org"]}
    )
    assert result.ok, result.text
    [(url, _headers)] = sent(api)
    assert url.query["q"] == "asyncio site:docs.python.org"
    assert result.output is not None
    assert [r["url"] for r in result.output["results"]] == [
        "https://docs.python.org/3/library/asyncio.html"
    ]


@pytest.mark.asyncio
async def test_site_operator_uses_the_normalised_domain(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A wildcard, upper-case, fully qualified domain is sent as a bare host name."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    result = await brave().call_tool(
        "WebSearch", {"query": "asyncio", "allowed_domains": ["*.Docs.Python.org."]}
    )
    assert result.ok, result.text
    [(url, _headers)] = sent(api)
    assert url.query["q"] == "asyncio site:docs.python.org"


@pytest.mark.asyncio
async def test_results_are_reduced_cleaned_and_other_buckets_ignored(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """Titles and snippets lose tags and entities; news and videos are not results."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    runtime = brave()
    result = await runtime.call_tool("WebSearch", {"query": "pyhton asyncio"})
    assert result.output is not None
    first, second = result.output["results"]
    assert first == {
        "rank": 1,
        "title": "asyncio — Asynchronous I/O",
        "url": "https://docs.python.org/3/library/asyncio.html",
        "snippet": "asyncio is a library to write concurrent code & more. <b> stays",
        "age": "2 days ago",
        "provider": "brave",
    }
    assert second["rank"] == 2
    assert second["snippet"] == ""
    assert "The provider searched for: 'python asyncio'" in result.text
    assert "news.example" not in result.text
    assert "video.example" not in result.text


@pytest.mark.asyncio
async def test_provider_response_keeps_extra_snippets_and_metadata(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """The provider's own response carries extra snippets, the altered query and the count."""
    api.get(ENDPOINT_RE, payload=ANSWER)
    runtime = brave()
    tool = runtime.get_tool("WebSearch")
    assert isinstance(tool, WebSearch)
    provider = tool.services.provider(runtime.search_providers["brave"])
    from insomnia_web import SearchRequest

    response = await provider.search(SearchRequest(query="pyhton asyncio"), tool.services.client)
    assert response.provider == "brave"
    assert response.altered_query == "python asyncio"
    assert response.total == 2
    assert response.hits[0].extra_snippets == ("First extra", 'Second "extra"')


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [401, 403])
async def test_rejected_key_is_a_provider_error_that_never_shows_the_key(
    brave: Callable[..., Runtime], api: aioresponses, status: int
) -> None:
    """401 and 403 say the key is missing or invalid, are not retried, and hide the key; the
    person is told which variable to set, and the model passes the same sentence on."""
    api.get(ENDPOINT_RE, status=status, payload={"error": {"detail": "bad token"}}, repeat=True)
    result = await brave().call_tool("WebSearch", {"query": "asyncio"})
    error = error_of(result)
    assert error.code == "provider_error"
    assert "missing or invalid" in error.message or "missing, invalid" in error.message
    assert error.retryable is False
    remedy = "Set BRAVE_SEARCH_API_KEY to a valid Brave Search API key subscribed to the Web "
    assert error.remedy == remedy + "Search API."
    assert "The key was refused. Tell the user to set BRAVE_SEARCH_API_KEY" in error.hint
    assert "retry" not in error.hint.lower().replace("do not retry", "")
    assert len(sent(api)) == 1
    assert BRAVE_KEY not in result.text
    assert BRAVE_KEY not in repr(error)


@pytest.mark.asyncio
async def test_429_with_retry_after_3_is_rate_limited_for_3_seconds(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """429 with Retry-After: 3 gives rate_limited, retry_after_s == 3, and no retry (> 2 s)."""
    api.get(ENDPOINT_RE, status=429, headers={"Retry-After": "3"}, repeat=True)
    result = await brave().call_tool("WebSearch", {"query": "asyncio"})
    error = error_of(result)
    assert error.code == "rate_limited"
    assert error.retry_after_s == 3
    assert len(sent(api)) == 1


@pytest.mark.asyncio
async def test_429_without_retry_after_uses_the_exhausted_brave_window(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """X-RateLimit-Reset gives the wait of the window that has nothing remaining."""
    headers = {"X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 86000"}
    api.get(ENDPOINT_RE, status=429, headers=headers, repeat=True)
    error = error_of(await brave().call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "rate_limited"
    assert error.retry_after_s == 86000


@pytest.mark.asyncio
async def test_short_429_is_retried_once_then_succeeds(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A 429 asking to wait 0 s is retried once; the second answer is used."""
    api.get(ENDPOINT_RE, status=429, headers={"Retry-After": "0"})
    api.get(ENDPOINT_RE, payload=ANSWER)
    result = await brave().call_tool("WebSearch", {"query": "asyncio"})
    assert result.ok, result.text
    assert len(sent(api)) == 2


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [500, 503])
async def test_server_errors_are_retried_once_then_provider_error(
    brave: Callable[..., Runtime],
    api: aioresponses,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
) -> None:
    """A 5xx is retried once after a short wait; a second 5xx is a retryable provider_error."""
    monkeypatch.setattr(provider_http, "DEFAULT_RETRY_WAIT_S", 0.0)
    api.get(ENDPOINT_RE, status=status, body="oops", repeat=True)
    error = error_of(await brave().call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "provider_error"
    assert f"HTTP {status}" in error.message
    assert error.retryable is True
    assert len(sent(api)) == 2


@pytest.mark.asyncio
async def test_503_then_success_returns_the_results(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A 503 with Retry-After: 0 followed by 200 gives the results."""
    api.get(ENDPOINT_RE, status=503, headers={"Retry-After": "0"})
    api.get(ENDPOINT_RE, payload=ANSWER)
    result = await brave().call_tool("WebSearch", {"query": "asyncio"})
    assert result.ok, result.text


@pytest.mark.asyncio
async def test_long_server_retry_after_is_not_waited_for(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A 503 asking for 30 s is not retried; the error carries retry_after_s."""
    api.get(ENDPOINT_RE, status=503, headers={"Retry-After": "30"}, repeat=True)
    error = error_of(await brave().call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "provider_error"
    assert error.retry_after_s == 30
    assert len(sent(api)) == 1


@pytest.mark.asyncio
async def test_other_client_errors_are_provider_errors_without_retry(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A 422 (bad parameter) is a non-retryable provider_error naming the status."""
    api.get(ENDPOINT_RE, status=422, payload={"error": "bad"}, repeat=True)
    error = error_of(await brave().call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "provider_error"
    assert "HTTP 422" in error.message
    assert error.retryable is False
    assert len(sent(api)) == 1


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[1, 2, 3]",
        '{"web": {"results": "no"}}',
        '{"junk": ' + "[" * 25_000 + "]" * 25_000 + "}",
    ],
    ids=["not-json", "list", "wrong-shape", "nested-25000-deep"],
)
async def test_malformed_json_is_a_provider_error(
    brave: Callable[..., Runtime], api: aioresponses, body: str
) -> None:
    """A body that is not JSON, not shaped like Brave's answer, or nested thousands deep
    (which raised RecursionError: an internal_error) is provider_error."""
    api.get(ENDPOINT_RE, body=body)
    error = error_of(await brave().call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "provider_error"
    assert "malformed JSON" in error.message


@pytest.mark.asyncio
async def test_oversize_body_is_response_too_large(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A body declared larger than 2 MiB is refused with response_too_large naming brave."""
    size = provider_http.MAX_PROVIDER_BYTES + 1
    api.get(ENDPOINT_RE, body=b"{}", headers={"Content-Length": str(size)})
    error = error_of(await brave().call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "response_too_large"
    assert "brave" in error.message


@pytest.mark.asyncio
async def test_unset_key_fails_before_any_request(
    make_runtime: Callable[..., Runtime], api: aioresponses, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the key variable unset: not_configured naming the variable and the manifest key."""
    monkeypatch.delenv("BRAVE_SEARCH_API_KEY", raising=False)
    runtime = make_runtime(manifest_data({"provider": "brave"}))
    error = error_of(await runtime.call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "not_configured"
    assert "BRAVE_SEARCH_API_KEY" in error.message
    assert "web.search.brave.api_key_env" in error.message
    assert sent(api) == []


@pytest.mark.asyncio
async def test_custom_key_variable_is_the_one_named(
    make_runtime: Callable[..., Runtime], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With api_key_env = "MY_BRAVE_KEY" the error names MY_BRAVE_KEY."""
    monkeypatch.delenv("MY_BRAVE_KEY", raising=False)
    runtime = make_runtime(
        manifest_data({"provider": "brave", "brave": {"api_key_env": "MY_BRAVE_KEY"}})
    )
    error = error_of(await runtime.call_tool("WebSearch", {"query": "asyncio"}))
    assert error.code == "not_configured"
    assert "MY_BRAVE_KEY" in error.message
    assert error.details == {"env": "MY_BRAVE_KEY", "key": "web.search.brave.api_key_env"}


@pytest.mark.asyncio
async def test_key_echoed_in_a_redirect_is_redacted_everywhere(
    brave: Callable[..., Runtime], api: aioresponses
) -> None:
    """A 302 whose Location echoes the key is a provider_error that shows [REDACTED] instead,
    in the message, the text and the history."""
    location = f"https://elsewhere.example/login?k={BRAVE_KEY}&next=%2F"
    api.get(ENDPOINT_RE, status=302, headers={"Location": location})
    runtime = brave()
    result = await runtime.call_tool("WebSearch", {"query": "asyncio"})
    error = error_of(result)
    assert error.code == "provider_error"
    assert "k=[REDACTED]" in error.message
    assert isinstance(runtime.history, MemoryHistory)
    assert BRAVE_KEY not in msgspec.json.encode(runtime.history.events).decode()


@pytest.mark.asyncio
async def test_key_echoed_in_results_is_redacted_before_the_cache(
    brave: Callable[..., Runtime],
    make_runtime: Callable[..., Runtime],
    api: aioresponses,
    tmp_path: Path,
) -> None:
    """A result or altered query quoting the key shows [REDACTED], and the cache never
    stores the key."""
    answer = {
        "query": {"original": "q", "altered": f"q {BRAVE_KEY}"},
        "web": {
            "results": [
                {
                    "title": f"Key {BRAVE_KEY}",
                    "url": f"https://example.org/?key={BRAVE_KEY}",
                    "description": "echo",
                }
            ]
        },
    }
    api.get(ENDPOINT_RE, payload=answer)
    cache = tmp_path / "cache.sqlite3"
    settings = {"provider": "brave", "mode": "results"}
    policy = {"resolve": {"api.search.brave.com": ["203.0.113.9"]}}
    runtime = make_runtime(
        manifest_data(settings, url_policy=policy, cache={"enabled": True, "path": str(cache)})
    )
    result = await runtime.call_tool("WebSearch", {"query": "asyncio"})
    assert result.ok, result.text
    assert BRAVE_KEY not in result.text
    assert "[REDACTED]" in result.text
    await runtime.aclose()
    assert stored_files_without(tmp_path, BRAVE_KEY.encode()) >= 1


def stored_files_without(folder: Path, secret: bytes) -> int:
    """How many files *folder* holds, failing if any of them contains *secret*."""
    files = [p for p in folder.iterdir() if p.is_file()]
    for path in files:
        assert secret not in path.read_bytes(), path
    return len(files)
