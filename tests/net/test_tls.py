"""TLS: certificates are verified, against the URL's host name, even with pinned DNS."""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp.connector
import pytest
import pytest_asyncio
from aiohttp import web

from insomnia_web.errors import ToolError
from insomnia_web.net import SafeClient
from tests.support import LOOPBACK, DialGuard

from .conftest import SITE

MakeClient = Callable[..., SafeClient]


def make_cert(directory: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for DNS name *name*; returns (cert, key) paths."""
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            f"/CN={name}",
            "-addext",
            f"subjectAltName=DNS:{name}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest_asyncio.fixture
async def https_server(tmp_path: Path, dial_guard: DialGuard) -> AsyncIterator[tuple[int, Path]]:
    """An HTTPS server on 127.0.0.1 with a self-signed certificate for site.test."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = make_cert(tmp_path, SITE)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def index(request: web.Request) -> web.Response:
        return web.Response(text="secure")

    app = web.Application()
    app.router.add_get("/", index)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0, ssl_context=context)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.Server)
    port = int(server.sockets[0].getsockname()[1])
    dial_guard.allow(port)
    yield port, cert
    await runner.cleanup()


def trust(monkeypatch: pytest.MonkeyPatch, cert: Path) -> None:
    """Make aiohttp's verified default context trust *cert* (and only it)."""
    context = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(aiohttp.connector, "_SSL_CONTEXT_VERIFIED", context)


@pytest.mark.asyncio
async def test_untrusted_certificate_is_tls_error(
    https_server: tuple[int, Path], make_client: MakeClient
) -> None:
    """A certificate that does not chain to a trusted root fails as tls_error."""
    port, _ = https_server
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"https://{SITE}:{port}/")
    assert info.value.code == "tls_error"


@pytest.mark.asyncio
async def test_trusted_certificate_for_the_url_host_works(
    https_server: tuple[int, Path], make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the certificate trusted, the pinned connection to site.test verifies and succeeds."""
    port, cert = https_server
    trust(monkeypatch, cert)
    result = await make_client(port).fetch(f"https://{SITE}:{port}/")
    assert result.body == b"secure"


@pytest.mark.asyncio
async def test_certificate_is_checked_against_the_url_host(
    https_server: tuple[int, Path], make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same trusted certificate fails for another name pinned to the same address."""
    port, cert = https_server
    trust(monkeypatch, cert)
    client = make_client(port, resolve={"other.test": [LOOPBACK]})
    with pytest.raises(ToolError) as info:
        await client.fetch(f"https://other.test:{port}/")
    assert info.value.code == "tls_error"
    with pytest.raises(ToolError) as literal:
        await client.fetch(f"https://{LOOPBACK}:{port}/")
    assert literal.value.code == "tls_error"


@pytest.mark.asyncio
async def test_https_to_http_redirect_is_blocked_end_to_end(
    tmp_path: Path,
    make_client: MakeClient,
    monkeypatch: pytest.MonkeyPatch,
    serve_app: Callable[[web.Application], Awaitable[int]],
    dial_guard: DialGuard,
) -> None:
    """An https page redirecting to http on an allowed host is refused as a downgrade."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = make_cert(tmp_path, SITE)
    trust(monkeypatch, cert)
    plain_port = await serve_app(web.Application())

    async def index(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://{SITE}:{plain_port}/")

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    app = web.Application()
    app.router.add_get("/", index)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
    await runner.setup()
    try:
        site = web.TCPSite(runner, LOOPBACK, 0, ssl_context=context)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        port = int(server.sockets[0].getsockname()[1])
        dial_guard.allow(port)
        client = make_client(port, policy={"ports": [port, plain_port]})
        with pytest.raises(ToolError) as info:
            await client.fetch(f"https://{SITE}:{port}/")
        assert info.value.code == "redirect_blocked"
        assert info.value.details["inner_code"] == "scheme_not_allowed"
        assert (LOOPBACK, plain_port) not in dial_guard.dialled
    finally:
        await runner.cleanup()


@pytest.mark.asyncio
async def test_https_to_a_plain_http_port_says_the_server_does_not_speak_tls(
    make_client: MakeClient, serve_app: Callable[[web.Application], Awaitable[int]]
) -> None:
    """An https:// URL whose port serves plain HTTP is a tls_error saying the server does not
    speak TLS there, with the http:// URL as the remedy, not a certificate hint."""
    port = await serve_app(web.Application())
    with pytest.raises(ToolError) as info:
        await make_client(port).fetch(f"https://{SITE}:{port}/")
    error = info.value
    assert error.code == "tls_error"
    assert error.message.startswith(f"{SITE} does not speak TLS on port {port}")
    assert "certificate" not in error.hint
    assert error.remedy is not None
    assert error.remedy.startswith(f"Use http://{SITE}:{port} (plain HTTP, unencrypted)")
