"""``web.fetch.proxy``: every request goes to the configured proxy, never one from the
environment; target names are left to the proxy, and the URL policy still applies."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from insomnia_web.config import FetchConfig, UrlPolicyConfig
from insomnia_web.errors import ToolError
from insomnia_web.net import SafeClient, StaticResolver
from tests.support import LOOPBACK, DialGuard

from .conftest import SITE, RawHandler
from .test_tls import https_server, trust

__all__ = ["https_server"]  # the HTTPS fixture, shared with the TLS tests

Serve = Callable[[web.Application], Awaitable[int]]


class ForwardProxy:
    """A tiny HTTP forward proxy: it resolves every target host to 127.0.0.1 itself."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def handle(self, request: web.Request) -> web.Response:
        """Forward an absolute-form GET to 127.0.0.1 at the target's port."""
        target = request.url
        self.seen.append(str(target))
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                target.with_host(LOOPBACK), headers={"Host": f"{target.host}:{target.port}"}
            ) as upstream,
        ):
            body = await upstream.read()
            return web.Response(
                body=body, status=upstream.status, content_type=upstream.content_type
            )

    def app(self) -> web.Application:
        """The proxy's aiohttp application."""
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.handle)
        return app


async def origin() -> web.Application:
    """The site behind the proxy: it says which Host it was asked for."""

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=f"<p>Served for {request.host}</p>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/{tail:.*}", page)
    return app


async def proxied_client(serve_app: Serve) -> tuple[SafeClient, ForwardProxy, int]:
    """A client whose proxy is a local forward proxy; the site is reachable only through it."""
    proxy = ForwardProxy()
    proxy_port = await serve_app(proxy.app())
    site_port = await serve_app(await origin())
    client = SafeClient(
        FetchConfig(proxy=f"http://{LOOPBACK}:{proxy_port}"),
        UrlPolicyConfig(ports=[site_port]),  # no allow_cidrs: 127.0.0.1 is blocked for targets
        resolver=StaticResolver({}),  # every name is NXDOMAIN here: only the proxy resolves
    )
    return client, proxy, site_port


@pytest.mark.asyncio
async def test_requests_go_through_the_proxy_which_resolves_the_name(serve_app: Serve) -> None:
    """A public-looking name is fetched through the proxy without any local DNS lookup."""
    client, proxy, port = await proxied_client(serve_app)
    async with client:
        result = await client.fetch(f"http://docs.example:{port}/page")
    assert result.status == 200
    assert f"Served for docs.example:{port}" in result.body.decode()
    assert proxy.seen == [f"http://docs.example:{port}/page"]


@pytest.mark.asyncio
async def test_the_policy_still_refuses_blocked_names_and_literal_addresses(
    serve_app: Serve,
) -> None:
    """Behind a proxy, localhost and a literal loopback address are refused before sending."""
    client, proxy, port = await proxied_client(serve_app)
    async with client:
        for url, code in (
            (f"http://localhost:{port}/", "blocked_hostname"),
            (f"http://127.0.0.1:{port}/", "blocked_address"),
            ("http://docs.example:9/", "port_not_allowed"),
        ):
            with pytest.raises(ToolError) as info:
                await client.fetch(url)
            assert info.value.code == code
    assert proxy.seen == []


@pytest.mark.asyncio
async def test_environment_proxies_are_ignored(
    serve_app: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HTTP_PROXY in the environment is never used: without web.fetch.proxy, DNS applies."""
    proxy = ForwardProxy()
    proxy_port = await serve_app(proxy.app())
    monkeypatch.setenv("HTTP_PROXY", f"http://{LOOPBACK}:{proxy_port}")
    monkeypatch.setenv("http_proxy", f"http://{LOOPBACK}:{proxy_port}")
    async with SafeClient(
        FetchConfig(), UrlPolicyConfig(ports=[80]), resolver=StaticResolver({})
    ) as client:
        with pytest.raises(ToolError) as info:
            await client.fetch("http://docs.example/")
    assert info.value.code == "dns_failure"
    assert proxy.seen == []


@pytest.mark.asyncio
async def test_an_unreachable_proxy_is_a_connection_error(dial_guard: DialGuard) -> None:
    """A proxy that refuses connections is a connection_error naming the proxy."""
    with socket.socket() as sock:  # a port nobody listens on once this socket is closed
        sock.bind((LOOPBACK, 0))
        port = sock.getsockname()[1]
    dial_guard.allow(port)
    client = SafeClient(
        FetchConfig(proxy=f"http://{LOOPBACK}:{port}"),
        UrlPolicyConfig(),
        resolver=StaticResolver({}),
    )
    async with client:
        with pytest.raises(ToolError) as info:
            await client.fetch("https://docs.example/")
    assert info.value.code == "connection_error"
    assert LOOPBACK in info.value.message


@pytest.mark.asyncio
async def test_a_proxy_that_refuses_the_tunnel_points_the_person_at_the_proxy_setting(
    serve_raw: Callable[[RawHandler], Awaitable[int]],
) -> None:
    """A proxy answering CONNECT with 407 is a connection_error whose remedy names
    web.fetch.proxy: the person set it, and only they can fix it."""

    async def refusing_proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    proxy_port = await serve_raw(refusing_proxy)
    client = SafeClient(
        FetchConfig(proxy=f"http://{LOOPBACK}:{proxy_port}"),
        UrlPolicyConfig(),
        resolver=StaticResolver({}),
    )
    async with client:
        with pytest.raises(ToolError) as info:
            await client.fetch(f"https://{SITE}/")
    assert info.value.code == "connection_error"
    assert "HTTP 407" in info.value.message
    assert info.value.remedy is not None
    assert "web.fetch.proxy" in info.value.remedy


@pytest.mark.asyncio
async def test_https_goes_through_a_connect_tunnel_and_verifies_the_target(
    https_server: tuple[int, Path],
    serve_raw: Callable[[RawHandler], Awaitable[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An https URL is tunnelled with CONNECT; TLS is verified against the URL's host."""
    port, cert = https_server
    trust(monkeypatch, cert)
    tunnels: list[str] = []

    async def connect_proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readuntil(b"\r\n\r\n")
        target = request.split(b" ", 2)[1].decode()
        tunnels.append(target)
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, int(target.split(":")[1]))
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    proxy_port = await serve_raw(connect_proxy)
    client = SafeClient(
        FetchConfig(proxy=f"http://{LOOPBACK}:{proxy_port}"),
        UrlPolicyConfig(ports=[port]),
        resolver=StaticResolver({}),
    )
    async with client:
        result = await client.fetch(f"https://{SITE}:{port}/")
    assert result.body == b"secure"
    assert tunnels == [f"{SITE}:{port}"]
