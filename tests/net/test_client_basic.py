"""SafeClient basics: what it sends, what it returns, and that it dials only vetted addresses."""

from __future__ import annotations

import json
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web

from insomnia_web.config import FetchConfig, UrlPolicyConfig
from insomnia_web.errors import ToolError
from insomnia_web.net import SafeClient, StaticResolver
from insomnia_web.net.pinning import (
    ConnectPermit,
    ConnectRefused,
    PinnedResolver,
    guarded_socket,
    permit,
)
from tests.support import DialGuard

from .conftest import SITE

Serve = Callable[[web.Application], Awaitable[int]]
MakeClient = Callable[..., SafeClient]


def echo_app() -> web.Application:
    """An app whose / answers with the request headers it saw."""

    async def index(request: web.Request) -> web.Response:
        resp = web.json_response({k.lower(): v for k, v in request.headers.items()})
        resp.set_cookie("session", "abc")
        return resp

    async def page(request: web.Request) -> web.Response:
        return web.Response(
            body="<p>caf\u00e9</p>".encode("cp1252"),
            headers={"Content-Type": 'text/html; Charset="Windows-1252"', "X-Twice": "1"},
        )

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/page", page)
    return app


@pytest.mark.asyncio
async def test_fetch_returns_body_and_metadata(serve_app: Serve, make_client: MakeClient) -> None:
    """A fetch returns status, lower-cased headers, bare content type, charset and the body."""
    port = await serve_app(echo_app())
    client = make_client(port)
    result = await client.fetch(f"http://{SITE}:{port}/page")
    assert result.status == 200
    assert result.content_type == "text/html"
    assert result.charset == "windows-1252"
    assert result.headers["x-twice"] == "1"
    assert result.body == "<p>caf\u00e9</p>".encode("cp1252")
    assert result.bytes_read == len(result.body)
    assert not result.truncated
    assert result.redirects == []
    assert result.url == result.final_url == f"http://{SITE}:{port}/page"
    assert result.decode() == ("<p>caf\u00e9</p>", "cp1252")
    assert result.elapsed_s >= 0


@pytest.mark.asyncio
async def test_request_headers_are_fixed(serve_app: Serve, make_client: MakeClient) -> None:
    """The request carries the configured User-Agent, our Accept-Encoding and never a cookie."""
    port = await serve_app(echo_app())
    client = make_client(port, user_agent="test-agent/1")
    first = await client.fetch(f"http://{SITE}:{port}/", headers={"X-Api-Key": "k"})
    seen: dict[str, Any] = json.loads(first.body)
    assert seen["user-agent"] == "test-agent/1"
    assert seen["accept-encoding"] == "gzip, deflate, br"
    assert seen["x-api-key"] == "k"
    assert "cookie" not in seen
    second = await client.fetch(f"http://{SITE}:{port}/")
    assert "cookie" not in json.loads(second.body)


@pytest.mark.asyncio
async def test_session_is_created_lazily(serve_app: Serve, make_client: MakeClient) -> None:
    """No aiohttp session exists until the first fetch, and aclose releases it."""
    port = await serve_app(echo_app())
    client = make_client(port)
    assert client._session is None
    await client.fetch(f"http://{SITE}:{port}/")
    assert client._session is not None
    await client.aclose()
    assert client._session is None
    with pytest.raises(RuntimeError):
        await client.fetch(f"http://{SITE}:{port}/")


@pytest.mark.asyncio
async def test_environment_proxy_is_ignored(
    serve_app: Serve,
    make_client: MakeClient,
    monkeypatch: pytest.MonkeyPatch,
    dial_guard: DialGuard,
) -> None:
    """Proxy variables in the environment are not used (trust_env=False)."""
    monkeypatch.setenv("HTTP_PROXY", "http://10.9.9.9:3128")
    monkeypatch.setenv("http_proxy", "http://10.9.9.9:3128")
    port = await serve_app(echo_app())
    result = await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert result.status == 200
    assert dial_guard.dialled == [("127.0.0.1", port)]


@pytest.mark.asyncio
async def test_ip_literal_is_fetched(serve_app: Serve, make_client: MakeClient) -> None:
    """An allowed IP literal URL is fetched directly (it bypasses the resolver)."""
    port = await serve_app(echo_app())
    result = await make_client(port).fetch(f"http://127.0.0.1:{port}/page")
    assert result.status == 200


@pytest.mark.asyncio
async def test_private_answer_is_never_dialled(
    serve_app: Serve, make_client: MakeClient, dial_guard: DialGuard
) -> None:
    """A name resolving outside allow_cidrs is refused before any connection."""
    port = await serve_app(echo_app())
    client = make_client(port, resolve={"other.test": ["127.0.0.2"]})
    with pytest.raises(ToolError) as info:
        await client.fetch(f"http://other.test:{port}/")
    assert info.value.code == "blocked_address"
    assert "127.0.0.2" in info.value.message
    assert dial_guard.dialled == []


@pytest.mark.asyncio
async def test_mixed_answers_block_the_fetch(
    serve_app: Serve, make_client: MakeClient, dial_guard: DialGuard
) -> None:
    """One blocked answer among allowed ones blocks the fetch without dialling."""
    port = await serve_app(echo_app())
    client = make_client(port, resolve={"mixed.test": ["127.0.0.1", "10.0.0.7"]})
    with pytest.raises(ToolError) as info:
        await client.fetch(f"http://mixed.test:{port}/")
    assert info.value.code == "blocked_address"
    assert "10.0.0.7" in info.value.message
    assert dial_guard.dialled == []


@pytest.mark.asyncio
async def test_connect_guard_catches_a_swapped_answer(
    serve_app: Serve,
    make_client: MakeClient,
    monkeypatch: pytest.MonkeyPatch,
    dial_guard: DialGuard,
) -> None:
    """If aiohttp were handed an unvetted address, the connect-time guard refuses it."""
    port = await serve_app(echo_app())

    async def swapped(self: PinnedResolver, host: str, port: int = 0, family: Any = 0) -> Any:
        return [
            {
                "hostname": host,
                "host": "127.0.0.3",
                "port": port,
                "family": socket.AF_INET,
                "proto": 0,
                "flags": 0,
            }
        ]

    monkeypatch.setattr(PinnedResolver, "resolve", swapped)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert info.value.code == "blocked_address"
    assert info.value.details["address"] == "127.0.0.3"
    assert dial_guard.dialled == []


def test_guarded_socket_requires_a_permit() -> None:
    """Outside a request's permit, or for an address not in it, no socket is created."""
    info = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 80))
    with pytest.raises(ConnectRefused):
        guarded_socket(info)
    grant = ConnectPermit(host="site.test", addresses=("127.0.0.2",), table=None)
    with permit(grant), pytest.raises(ConnectRefused):
        guarded_socket(info)
    assert grant.refused == ["127.0.0.1"]
    with permit(ConnectPermit(host="site.test", addresses=("127.0.0.1",), table=None)):
        sock = guarded_socket(info)
    sock.close()


def test_guarded_socket_rechecks_the_table() -> None:
    """Even a permitted address is refused when the address table blocks it."""
    from insomnia_web.hosts.addresses import AddressTable

    info = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.1", 80))
    grant = ConnectPermit(host="site.test", addresses=("10.0.0.1",), table=AddressTable())
    with permit(grant), pytest.raises(ConnectRefused, match="private"):
        guarded_socket(info)


@pytest.mark.asyncio
async def test_pinned_resolver_answers_only_for_the_permit() -> None:
    """The pinned resolver returns the permit's addresses for its host and refuses others."""
    resolver = PinnedResolver()
    with pytest.raises(OSError, match="not vetted"):
        await resolver.resolve("site.test", 80)
    with permit(ConnectPermit(host="site.test", addresses=("127.0.0.1", "::1"), table=None)):
        answers = await resolver.resolve("SITE.test.", 80, socket.AF_UNSPEC)
        assert [a["host"] for a in answers] == ["127.0.0.1", "::1"]
        v4 = await resolver.resolve("site.test", 80, socket.AF_INET)
        assert [a["host"] for a in v4] == ["127.0.0.1"]
        with pytest.raises(OSError, match="not vetted"):
            await resolver.resolve("other.test", 80)
    await resolver.close()


@pytest.mark.asyncio
async def test_trusted_origin_skips_address_and_port_rules(serve_app: Serve) -> None:
    """A trusted provider origin may be private and on any port; redirects are not followed."""

    async def moved(request: web.Request) -> web.Response:
        raise web.HTTPFound("/elsewhere")

    app = web.Application()
    app.router.add_get("/api", moved)
    port = await serve_app(app)
    client = SafeClient(FetchConfig(), UrlPolicyConfig(), resolver=StaticResolver({}))
    try:
        with pytest.raises(ToolError) as info:
            await client.fetch(f"http://127.0.0.1:{port}/api")
        assert info.value.code == "port_not_allowed"
        result = await client.fetch(f"http://127.0.0.1:{port}/api", trusted_origin=True)
        assert result.status == 302
        assert result.redirects == []
        with pytest.raises(ToolError) as creds:
            await client.fetch(f"http://u:p@127.0.0.1:{port}/api", trusted_origin=True)
        assert creds.value.code == "credentials_in_url"
    finally:
        await client.aclose()


@pytest.mark.asyncio
async def test_connection_refused_is_connection_error(
    make_client: MakeClient, dial_guard: DialGuard
) -> None:
    """A closed port on an allowed address fails as connection_error."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dial_guard.allow(port)
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert info.value.code == "connection_error"


@pytest.mark.asyncio
async def test_concurrent_fetches_keep_their_own_permits(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """Concurrent fetches of different hosts share the session but never each other's addresses."""
    import asyncio

    port = await serve_app(echo_app())
    client = make_client(port, resolve={"b.test": ["127.0.0.1"], "bad.test": ["127.0.0.9"]})
    urls = [f"http://{host}:{port}/page" for host in ("site.test", "b.test") * 4]
    results = await asyncio.gather(
        *(client.fetch(u) for u in urls),
        client.fetch(f"http://bad.test:{port}/"),
        return_exceptions=True,
    )
    assert all(not isinstance(r, BaseException) and r.status == 200 for r in results[:-1])
    last = results[-1]
    assert isinstance(last, ToolError)
    assert last.code == "blocked_address"


def test_public_exports() -> None:
    """insomnia_web.net exports exactly the intended public names."""
    from insomnia_web import net

    assert sorted(net.__all__) == [
        "AiodnsResolver",
        "FetchResult",
        "Resolver",
        "SafeClient",
        "StaticResolver",
        "UrlVerdict",
        "check_url",
        "parse_cidrs",
    ]
    for name in net.__all__:
        assert getattr(net, name) is not None


@pytest.mark.asyncio
async def test_aclose_closes_the_resolver_once() -> None:
    """aclose closes the client's resolver, and calling it twice is harmless."""
    from insomnia_web.net.resolver import Resolver

    class Closing(Resolver):
        closed = 0

        async def resolve(self, host: str) -> list[str]:
            return []

        async def aclose(self) -> None:
            Closing.closed += 1

    client = SafeClient(FetchConfig(), UrlPolicyConfig(), resolver=Closing())
    await client.aclose()
    await client.aclose()
    assert Closing.closed == 1


@pytest.mark.asyncio
async def test_extra_headers_stay_with_the_first_origin(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """Caller headers (an API key) are not forwarded to a redirect target on another host."""

    async def hop(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://other.test:{request.url.port}/")

    app = echo_app()
    app.router.add_get("/hop", hop)
    port = await serve_app(app)
    client = make_client(port, resolve={"other.test": ["127.0.0.1"]})
    same = await client.fetch(f"http://{SITE}:{port}/", headers={"X-Api-Key": "secret"})
    assert json.loads(same.body)["x-api-key"] == "secret"
    moved = await client.fetch(f"http://{SITE}:{port}/hop", headers={"X-Api-Key": "secret"})
    seen = json.loads(moved.body)
    assert moved.final_url == f"http://other.test:{port}/"
    assert "x-api-key" not in seen
    assert seen["user-agent"]


@pytest.mark.asyncio
async def test_trusted_origin_by_name_may_resolve_private(serve_app: Serve) -> None:
    """A trusted provider host name resolving to a private address is fetched."""
    port = await serve_app(echo_app())
    resolver = StaticResolver({"searx.lan": ["127.0.0.1"]})
    async with SafeClient(FetchConfig(), UrlPolicyConfig(), resolver=resolver) as client:
        with pytest.raises(ToolError) as info:
            await client.fetch(f"http://searx.lan:{port}/page")
        assert info.value.code == "port_not_allowed"
        result = await client.fetch(f"http://searx.lan:{port}/page", trusted_origin=True)
    assert result.status == 200
