"""SafeClient: the one HTTP client every fetch goes through.

What it guarantees (``design.md`` section 5):

- Every URL, and every redirect hop, passes the :class:`~.urlpolicy.UrlPolicy` and the
  DNS vetting before anything is dialled; aiohttp connects only to the vetted addresses
  (see :mod:`.pinning`).
- One total deadline per fetch (``ToolTimeout(phase="total")``), a connect timeout
  (``phase="connect"``) and the DNS timeout (``phase="dns"``) inside it.
- GET only, ``trust_env=False`` (no proxies from the environment), no cookies, a fixed
  User-Agent, ``Accept-Encoding`` only for the codings decompressed with a bound, header
  size and count limits, the *decompressed* body capped at ``max_bytes`` and the raw body
  at :func:`~.decompress.raw_limit` of it; reading stops where a compressed stream ends.
- Redirects followed by hand: at most ``max_redirects``; no https -> http downgrade; a
  cross-host hop is offered to the caller's ``redirect_check``; every request (the first
  and each hop) is offered to the caller's ``before_request`` (robots.txt, rate limits).
- With ``web.fetch.proxy`` every request goes to that proxy (see :mod:`.proxy`): the proxy
  resolves target names, so only host-name and literal-address rules apply to targets.
- At most ``max_connections_per_host`` requests open to one host and ``max_connections``
  in all (:mod:`.slots`). Waiting for a slot is bounded on its own (by default as long as
  the deadline) and does not use up the deadline: the fetch's clock stops while it waits.
"""

from __future__ import annotations

import asyncio
import io
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping

import aiohttp
from yarl import URL

from ..closing import AsyncClosing
from ..config import FetchConfig, UrlPolicyConfig
from ..errors import ToolError, ToolTimeout
from ..textcheck import replace_surrogates
from .decompress import ACCEPT_ENCODING, PIECE, make_decoder, raw_limit
from .headers import check_request_headers
from .pinning import ConnectPermit, PinnedResolver, guarded_socket, permit
from .proxy import Proxy
from .resolver import Resolver, policy_resolver
from .result import FetchResult, parse_content_type
from .slots import MAX_CONNECTIONS, MAX_CONNECTIONS_PER_HOST, ConnectionSlots
from .urlpolicy import POLICY_CODES, Target, UrlPolicy, check_characters

__all__ = ["DEFAULT_ACCEPT", "MAX_FIELD_SIZE", "MAX_HEADERS", "MAX_LINE_SIZE", "SafeClient"]

DEFAULT_ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5"
MAX_LINE_SIZE = 8190
"""Longest status line or header line accepted, in bytes."""
MAX_FIELD_SIZE = 8190
"""Longest header value accepted, in bytes."""
MAX_HEADERS = 100
"""Most response headers accepted."""

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_QUOTED_LOCATION = 200
"""Longest redirect target an error's message quotes, in characters."""

RedirectCheck = Callable[[Target], Awaitable[None]]
BeforeRequest = Callable[[URL], Awaitable[None]]
"""Awaited with each cross-host hop as the policy checked it (``target.host`` normalised)."""


def _header(resp: aiohttp.ClientResponse, name: str) -> str | None:
    """A response header's value as text: bytes that are not UTF-8 (aiohttp keeps them as
    lone surrogates, which no encoder accepts) become U+FFFD."""
    value = resp.headers.get(name)
    return None if value is None else replace_surrogates(value)


def _quoted(location: str, *, parsed: bool) -> str:
    """A redirect target as an error's message quotes it: a URL that parsed, when at most
    :data:`MAX_QUOTED_LOCATION` characters long, else only its length. The message is read
    outside the untrusted-content delimiters, where a ``Location`` of a server's sentences
    (or of kilobytes) would read as ours; ``details["location"]`` keeps it whole."""
    if parsed and len(location) <= MAX_QUOTED_LOCATION:
        return location
    what = "URL" if parsed else "Location that is no URL"
    return f"a {what} of {len(location)} characters"


def _first_line(text: object) -> str:
    """The first line of an aiohttp message, capped: parser errors quote server bytes."""
    lines = str(text).strip().splitlines()
    return lines[0][:200] if lines else ""


def _connect_error(exc: aiohttp.ClientConnectorError, grant: ConnectPermit) -> ToolError:
    if grant.refused:
        return ToolError(
            "blocked_address",
            f"the connection to {grant.refused[0]} was refused by the connect-time guard",
            details={"address": grant.refused[0]},
        )
    return ToolError("connection_error", f"cannot connect to {grant.host}: {exc.os_error}")


_NOT_TLS = frozenset(
    {"WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG", "UNKNOWN_PROTOCOL"}
)
"""OpenSSL's reasons for a handshake whose answer was not TLS records at all (a plain-HTTP
server answers ``HTTP/1.1 400``): OpenSSL 3.0 and 3.1 say ``WRONG_VERSION_NUMBER``, 3.2 and
later ``RECORD_LAYER_FAILURE``."""


def _tls_error(exc: aiohttp.ClientSSLError, grant: ConnectPermit, url: URL) -> ToolError:
    """A failed TLS handshake: a server that does not speak TLS on the port, or one whose
    certificate could not be verified (the code's default hint)."""
    cause = exc.os_error if isinstance(exc, aiohttp.ClientConnectorError) else exc
    if isinstance(cause, ssl.SSLError) and cause.reason in _NOT_TLS:
        plain = url.with_scheme("http").with_port(url.port).origin()
        return ToolError(
            "tls_error",
            f"{grant.host} does not speak TLS on port {url.port}: the server there answered "
            f"without TLS, as a plain-HTTP server does ({cause.reason})",
            hint="The server does not speak HTTPS on this port; do not retry. Try another "
            "source, or the same URL with http:// if an unencrypted page will do.",
            remedy=f"Use {plain} (plain HTTP, unencrypted) if the server is meant to serve "
            "HTTP there; otherwise use the port it serves HTTPS on.",
        )
    return ToolError("tls_error", f"TLS with {grant.host} failed: {_first_line(exc)}")


def _client_error(exc: aiohttp.ClientError, grant: ConnectPermit, url: URL) -> ToolError:
    """Translate an aiohttp failure into the tool error the model sees (*url* requested)."""
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        return ToolTimeout(f"connecting to {grant.host} timed out", phase="connect")
    if isinstance(exc, aiohttp.ServerTimeoutError):
        return ToolTimeout(f"{grant.host} stopped sending", phase="read")
    if isinstance(exc, aiohttp.ClientSSLError):
        return _tls_error(exc, grant, url)
    if isinstance(exc, aiohttp.ClientConnectorError):
        return _connect_error(exc, grant)
    if isinstance(exc, aiohttp.ClientPayloadError):
        return ToolError("protocol_error", f"{grant.host} sent a broken body: {_first_line(exc)}")
    if isinstance(exc, aiohttp.ClientHttpProxyError):
        return ToolError(
            "connection_error",
            f"the proxy refused the request with HTTP {exc.status}",
            remedy="Check web.fetch.proxy in the manifest, and that the proxy allows these "
            "requests.",
        )
    if isinstance(exc, aiohttp.ClientResponseError):
        return ToolError(
            "protocol_error", f"{grant.host} sent a malformed response: {_first_line(exc.message)}"
        )
    if isinstance(exc, aiohttp.ServerDisconnectedError | aiohttp.ClientOSError):
        return ToolError(
            "connection_error", f"the connection to {grant.host} failed: {_first_line(exc)}"
        )
    return ToolError(
        "protocol_error", f"HTTP exchange with {grant.host} failed: {_first_line(exc)}"
    )


class SafeClient(AsyncClosing):
    """Fetches URLs under the URL policy, with pinned DNS and bounded time and memory.

    The underlying ``aiohttp.ClientSession`` is created on the first request (never at
    construction or import) and shared by all requests; close it with :meth:`aclose` or
    ``async with``. Without *resolver*, DNS goes through aiodns with the policy's
    ``dns_timeout_s``, under the policy's static ``resolve`` table. The client owns its
    resolver: :meth:`aclose` closes it, passed in or not. Keep-alive is off: every request
    dials anew through the pinning hooks. ``max_connections`` and
    ``max_connections_per_host`` bound the requests open at once (:attr:`slots`).
    """

    def __init__(
        self,
        fetch: FetchConfig,
        policy: UrlPolicyConfig,
        *,
        resolver: Resolver | None = None,
        max_connections: int = MAX_CONNECTIONS,
        max_connections_per_host: int = MAX_CONNECTIONS_PER_HOST,
    ) -> None:
        self.config = fetch
        self.policy = UrlPolicy(policy)
        self.resolver: Resolver = resolver if resolver is not None else policy_resolver(policy)
        self.slots = ConnectionSlots(total=max_connections, per_host=max_connections_per_host)
        self.proxy = Proxy.from_config(fetch.proxy)
        self._session: aiohttp.ClientSession | None = None
        self._closed = False

    def _get_session(self) -> aiohttp.ClientSession:
        if self._closed:
            raise RuntimeError("SafeClient is closed")
        if self._session is None:
            connector = aiohttp.TCPConnector(
                resolver=PinnedResolver(),
                use_dns_cache=False,
                force_close=True,
                socket_factory=guarded_socket,
                limit=0,  # self.slots bounds the requests, and keeps their waiting apart
            )
            connect_s = self.config.connect_timeout_s
            self._session = aiohttp.ClientSession(
                connector=connector,
                trust_env=False,
                cookie_jar=aiohttp.DummyCookieJar(),
                auto_decompress=False,
                timeout=aiohttp.ClientTimeout(
                    total=None, connect=connect_s, sock_connect=connect_s
                ),
                max_line_size=MAX_LINE_SIZE,
                max_field_size=MAX_FIELD_SIZE,
                max_headers=MAX_HEADERS,
                requote_redirect_url=False,
            )
        return self._session

    async def aclose(self) -> None:
        """Close the session and the resolver (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._session is not None:
            session, self._session = self._session, None
            await session.close()
        await self.resolver.aclose()

    async def fetch(
        self,
        url: str,
        *,
        timeout_s: float | None = None,
        max_bytes: int | None = None,
        allow_truncate: bool = True,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
        redirect_check: RedirectCheck | None = None,
        before_request: BeforeRequest | None = None,
        accept: str = DEFAULT_ACCEPT,
        trusted_origin: bool = False,
        queue_timeout_s: float | None = None,
        on_bytes: Callable[[int], None] | None = None,
    ) -> FetchResult:
        """GET *url* under the policy and return its bounded, decompressed body.

        - ``timeout_s``: the total deadline (default ``FetchConfig.timeout_s``), covering
          DNS, connecting, every redirect and the body.
        - ``max_bytes``: cap on the decompressed body (default ``max_response_bytes``);
          a longer body is cut (``truncated=True``). A ``Content-Length`` above the cap is
          refused with ``response_too_large`` unless ``allow_truncate`` is True.
        - ``headers``: extra request headers for provider API calls (never model input);
          sent only to the origin of *url*, never to a redirect target elsewhere. One that
          routes or frames the request (``Host``, ``Proxy-*``, hop-by-hop) is refused:
          :mod:`.headers`.
        - ``redirect_check``: awaited with the checked :class:`~.urlpolicy.Target` of each
          cross-host hop (its ``host`` is the policy's normalised host); it may raise
          ``ToolError("redirect_not_followed", ...)``.
        - ``before_request``: awaited with the URL of every request (the first and each
          hop) before it is resolved or sent; it may raise to stop the fetch.
        - ``trusted_origin``: the URL is a configured provider endpoint: port, host-name
          and address rules are skipped for it, and redirects are never followed.
        - ``queue_timeout_s``: how long each hop may wait for a connection slot (default:
          as long as the deadline). That wait is not counted against the deadline; running
          out of it is ``ToolTimeout(phase="queue")``.
        - ``on_bytes``: called with the decompressed bytes read so far, after each chunk of
          the final response's body (for progress displays; it must not block).

        Raises a :class:`~insomnia_web.errors.ToolError` with the code of the failure.
        """
        started = time.monotonic()
        deadline = timeout_s if timeout_s is not None else self.config.timeout_s
        limit = max_bytes if max_bytes is not None else self.config.max_response_bytes
        if limit < 0:
            raise ValueError("max_bytes must not be negative")
        target = self.policy.check(url, trusted=trusted_origin)
        check_request_headers(headers or {})
        fetch = _Fetch(
            client=self,
            limit=limit,
            allow_truncate=allow_truncate,
            headers={
                "User-Agent": self.config.user_agent,
                "Accept": accept,
                "Accept-Encoding": ACCEPT_ENCODING,
            },
            extra_headers=dict(headers or {}),
            follow=follow_redirects and not trusted_origin,
            redirect_check=redirect_check,
            before_request=before_request,
            started=started,
            queue_timeout_s=deadline if queue_timeout_s is None else queue_timeout_s,
            on_bytes=on_bytes,
        )
        try:
            async with asyncio.timeout(deadline) as scope:
                fetch.scope = scope
                return await fetch.run(target)
        except ToolError:
            raise
        except TimeoutError as exc:
            raise ToolTimeout(
                f"fetching {url} took longer than the {deadline:g} s deadline", phase="total"
            ) from exc

    async def _permit(self, target: Target) -> ConnectPermit:
        """What the request to *target* may dial: the vetted target, or the proxy."""
        if self.proxy is not None:
            return await self.proxy.permit(self.resolver)
        addresses = await self._addresses(target)
        return ConnectPermit(
            host=target.host,
            addresses=tuple(addresses),
            table=None if target.exempt else self.policy.table,
        )

    async def _addresses(self, target: Target) -> list[str]:
        if target.ip is not None:
            return [target.ip]
        answers = await self.resolver.resolve(target.host)
        return self.policy.vet_addresses(target, answers)


class _Fetch:
    """The state of one fetch: its hops, its limits and the caller's options."""

    def __init__(
        self,
        *,
        client: SafeClient,
        limit: int,
        allow_truncate: bool,
        headers: dict[str, str],
        extra_headers: dict[str, str] | None = None,
        follow: bool,
        redirect_check: RedirectCheck | None,
        before_request: BeforeRequest | None = None,
        started: float,
        queue_timeout_s: float | None = None,
        on_bytes: Callable[[int], None] | None = None,
    ) -> None:
        self.client = client
        self.limit = limit
        self.allow_truncate = allow_truncate
        self.headers = headers
        self.extra_headers = extra_headers or {}
        self.follow = follow
        self.redirect_check = redirect_check
        self.before_request = before_request
        self.started = started
        self.queue_timeout_s = queue_timeout_s
        self.scope: asyncio.Timeout | None = None
        self.queued_s = 0.0
        self.on_bytes = on_bytes
        self.redirects: list[str] = []

    def _blocked(self, exc: ToolError, location: str, *, parsed: bool = True) -> ToolError:
        return ToolError(
            "redirect_blocked",
            f"redirect hop {len(self.redirects)} to {_quoted(location, parsed=parsed)} is not "
            f"allowed: {exc.message}",
            details={"hop": len(self.redirects), "location": location, "inner_code": exc.code},
        )

    async def run(self, target: Target) -> FetchResult:
        first = str(target.url)
        previous: Target | None = None
        while True:
            if (
                previous is not None
                and self.redirect_check is not None
                and target.host != previous.host
            ):
                # Before DNS: a hop the caller refuses must not even be looked up.
                await self.redirect_check(target)
            if self.before_request is not None:
                await self.before_request(target.url)
            try:
                grant = await self.client._permit(target)
            except ToolError as exc:
                if previous is not None and exc.code in POLICY_CODES:
                    raise self._blocked(exc, str(target.url)) from exc
                raise
            with permit(grant):
                location = await self._exchange(target, grant, first)
            if isinstance(location, FetchResult):
                return location
            previous, target = target, self._next_hop(target, location)

    def _headers_for(self, target: Target, first: str) -> dict[str, str]:
        """The caller's extra headers (an API key...) go only to the first URL's origin."""
        if not self.extra_headers or target.url.origin() != URL(first).origin():
            return self.headers
        merged = {**self.headers, **self.extra_headers}
        merged["Accept-Encoding"] = ACCEPT_ENCODING
        return merged

    async def _exchange(
        self, target: Target, grant: ConnectPermit, first: str
    ) -> FetchResult | str:
        """One request: the result, or the Location of a redirect to follow."""
        session = self.client._get_session()
        release = await self._wait_for_slot(target)
        try:
            proxy = self.client.proxy
            async with session.get(
                target.url,
                allow_redirects=False,
                headers=self._headers_for(target, first),
                proxy=proxy.url if proxy is not None else None,
            ) as resp:
                location = _header(resp, "Location")
                if self.follow and resp.status in _REDIRECTS and location is not None:
                    return location
                return await self._read(resp, target, first)
        except aiohttp.ClientError as exc:
            raise _client_error(exc, grant, target.url) from exc
        finally:
            release()

    async def _wait_for_slot(self, target: Target) -> Callable[[], None]:
        """A connection slot for *target*'s host; the deadline's clock stops meanwhile."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        when = self.scope.when() if self.scope is not None else None
        if self.scope is not None:
            self.scope.reschedule(None)  # the wait has its own bound, below
        try:
            async with asyncio.timeout(self.queue_timeout_s):
                return await self.client.slots.acquire((target.host, target.url.port))
        except TimeoutError:
            raise ToolTimeout(
                f"waited more than {self.queue_timeout_s:g} s for a connection to "
                f"{target.host} (too many requests open)",
                phase="queue",
            ) from None
        finally:
            waited = loop.time() - began
            self.queued_s += waited
            if self.scope is not None and when is not None:
                self.scope.reschedule(when + waited)

    def _next_hop(self, current: Target, location: str) -> Target:
        self.redirects.append(location)
        hop = len(self.redirects)
        max_redirects = self.client.config.max_redirects
        if hop > max_redirects:
            raise ToolError(
                "too_many_redirects",
                f"more than {max_redirects} redirects",
                details={"hop": hop, "location": location},
            )
        try:
            check_characters(location)
            joined = current.url.join(URL(location))
        except ToolError as exc:
            raise self._blocked(exc, location, parsed=False) from exc
        except (ValueError, TypeError, UnicodeError) as exc:
            inner = ToolError("invalid_url", "the Location cannot be parsed as a URL")
            raise self._blocked(inner, location, parsed=False) from exc
        self.redirects[-1] = str(joined)
        if current.url.scheme == "https" and joined.scheme == "http":
            inner = ToolError("scheme_not_allowed", "https -> http downgrade")
            raise self._blocked(inner, str(joined))
        try:
            return self.client.policy.check(joined)
        except ToolError as exc:
            raise self._blocked(exc, str(joined)) from exc

    async def _read_body(self, resp: aiohttp.ClientResponse, target: Target) -> tuple[bytes, bool]:
        """The decompressed body, cut at the limit, and whether it was cut."""
        limit = self.limit
        length = resp.content_length
        if length is not None and length > limit and not self.allow_truncate:
            raise ToolError(
                "response_too_large",
                f"{target.url} declares {length} bytes; the limit is {limit}",
                details={"content_length": length, "limit": limit},
            )
        codings = resp.headers.getall("Content-Encoding", [])
        decoder = make_decoder(", ".join(codings) if codings else None)
        # BytesIO.getvalue() hands over its buffer without a copy: peak memory stays ~limit.
        buffer = io.BytesIO()
        raw, raw_cap, cut = 0, raw_limit(limit), False
        async for chunk in resp.content.iter_any():
            raw += len(chunk)
            for piece in decoder.feed(chunk, limit + 1 - buffer.tell()):
                buffer.write(piece)
                if len(piece) == PIECE:  # a chunk that expands a lot: let others run between
                    await asyncio.sleep(0)
            if self.on_bytes is not None:
                self.on_bytes(min(buffer.tell(), limit))
            if buffer.tell() > limit or raw >= raw_cap:
                cut = True  # enough decoded, or more raw bytes than any real stream needs
                break
            if decoder.finished:
                break  # the compressed stream ended: what follows is padding or junk
        if not cut:
            buffer.write(decoder.flush(limit + 1 - buffer.tell()))
        truncated = cut or buffer.tell() > limit
        if buffer.tell() > limit:
            buffer.truncate(limit)
        return buffer.getvalue(), truncated

    async def _read(self, resp: aiohttp.ClientResponse, target: Target, first: str) -> FetchResult:
        body, truncated = b"", False
        if resp.status not in _REDIRECTS:  # an unfollowed redirect's body is not read
            body, truncated = await self._read_body(resp, target)
        content_type, charset = parse_content_type(_header(resp, "Content-Type"))
        return FetchResult(
            url=first,
            final_url=str(target.url),
            status=resp.status,
            headers={
                replace_surrogates(k.lower()): replace_surrogates(v)
                for k, v in resp.headers.items()
            },
            content_type=content_type,
            charset=charset,
            body=body,
            truncated=truncated,
            bytes_read=len(body),
            redirects=list(self.redirects),
            elapsed_s=time.monotonic() - self.started,
            queued_s=self.queued_s,
        )
