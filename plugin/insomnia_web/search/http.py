"""One JSON GET to a provider API: throttled, bounded, retried at most once, errors named.

Built-in providers use :class:`ProviderHttp`; plugin providers may too. What it does:

- waits for the provider's :class:`~.ratelimit.TokenBucket` within the deadline (a
  :class:`~.ratelimit.SharedBucket` when the cache store holds the key's budget, so every
  process using the key shares it, and a 429's wait holds back all of them);
- fetches through :class:`~insomnia_web.net.SafeClient` as a *trusted origin* (the endpoint
  is fixed by configuration), never following redirects, with a body cap (2 MiB);
- maps answers to errors: 429 is ``rate_limited`` with ``retry_after_s``; the statuses in
  ``status_messages`` (401 and 403: the key) and other 4xx are ``provider_error``; 5xx is a
  retryable ``provider_error``; a body that is not JSON is ``provider_error``;
- retries once after a 429 or 5xx when the wait is short (at most 2 s) and fits the deadline;
- redacts the header values it sends (the API key) from the body and from every error
  message, so an answer echoing the key never shows it (:mod:`.redact`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from yarl import URL

from ..errors import ToolError, ToolTimeout
from ..net.result import FetchResult
from .ratelimit import TokenBucket, retry_after_from_headers
from .redact import Redactor

if TYPE_CHECKING:
    from ..net.client import SafeClient

__all__ = [
    "DEFAULT_RETRY_WAIT_S",
    "MAX_PROVIDER_BYTES",
    "MAX_RETRY_WAIT_S",
    "MIN_REQUEST_S",
    "ProviderHttp",
]

MAX_PROVIDER_BYTES = 2 * 1024 * 1024
"""Largest provider response body read, in bytes."""
MAX_RETRY_WAIT_S = 2.0
"""Longest wait before the one retry of a 429 or 5xx answer."""
DEFAULT_RETRY_WAIT_S = 0.25
"""Wait before retrying a 5xx answer that gave no Retry-After."""
MIN_REQUEST_S = 1.0
"""A rate-limit slot must leave this long (or half the deadline, if shorter) for the request."""

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class ProviderHttp:
    """How one provider calls its HTTP API.

    ``headers`` (which may hold an API key) are sent only to the provider's origin and
    never appear in ``repr`` or in error messages.
    """

    provider: str
    """Provider name, used in messages."""
    bucket: TokenBucket
    rate_limit_per_s: float
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    status_messages: Mapping[int, str] = field(default_factory=dict)
    """Messages for specific statuses (e.g. 401/403: the key is missing or invalid)."""
    status_hints: Mapping[int, str] = field(default_factory=dict)
    """Hints for specific statuses (e.g. 401/403: which key to check); such answers are
    never retryable."""
    status_remedies: Mapping[int, str] = field(default_factory=dict)
    """What a person can do about specific statuses (e.g. 401/403: the key to set)."""
    max_bytes: int = MAX_PROVIDER_BYTES

    async def get_json(self, client: SafeClient, url: URL, *, timeout_s: float, type: type[T]) -> T:
        """GET *url* and decode its JSON body as *type* (a msgspec-convertible type).

        *timeout_s* covers everything: the queue for the local rate limit, both attempts
        and the waits between them. No error or decoded value holds a header value sent.
        """
        redactor = Redactor(self.headers.values())
        try:
            return await self._get_json(client, url, timeout_s=timeout_s, type=type)
        except ToolError as exc:
            clean = redactor.error(exc)
            if clean is exc:
                raise
            raise clean from None

    async def _get_json(
        self, client: SafeClient, url: URL, *, timeout_s: float, type: type[T]
    ) -> T:
        clock = self.bucket.clock
        deadline = clock() + timeout_s
        # A slot at the very end of the deadline would leave no time to send the request.
        last_start = deadline - min(MIN_REQUEST_S, timeout_s / 2)
        for attempt in (1, 2):
            await self.bucket.acquire(self.rate_limit_per_s, deadline=last_start)
            remaining = deadline - clock()
            if remaining <= 0:
                raise ToolTimeout(
                    f"{self.provider} did not answer within {timeout_s:g} s", phase="total"
                )
            result = await self._fetch(client, url, remaining)
            if 200 <= result.status < 300:
                return self._decode(result, type)
            error, wait = self._status_error(result)
            if wait is not None and error.code == "rate_limited":
                await self.bucket.hold(wait)
            if (
                attempt == 1
                and wait is not None
                and wait <= MAX_RETRY_WAIT_S
                and clock() + wait < deadline
            ):
                await self.bucket.sleep(wait)
                continue
            raise error
        raise AssertionError("unreachable")  # pragma: no cover

    async def _fetch(self, client: SafeClient, url: URL, timeout_s: float) -> FetchResult:
        try:
            return await client.fetch(
                str(url),
                timeout_s=timeout_s,
                max_bytes=self.max_bytes,
                allow_truncate=False,
                headers=self.headers,
                follow_redirects=False,
                accept="application/json",
                trusted_origin=True,
            )
        except ToolError as exc:
            if exc.code == "response_too_large":
                raise self._too_large() from exc
            raise

    def _too_large(self) -> ToolError:
        return ToolError(
            "response_too_large",
            f"{self.provider} sent a response larger than {self.max_bytes} bytes",
            hint="Ask for fewer results (a smaller count), or retry later.",
            details={"provider": self.provider, "limit": self.max_bytes},
        )

    def _decode(self, result: FetchResult, type: type[T]) -> T:
        if result.truncated:
            raise self._too_large()
        body = Redactor(self.headers.values()).data(result.body)
        try:
            return msgspec.json.decode(body, type=type)
        except (msgspec.DecodeError, RecursionError) as exc:  # nested thousands deep
            raise ToolError(
                "provider_error",
                f"{self.provider} answered with malformed JSON or an unexpected shape: "
                f"{str(exc)[:200]}",
                details={"provider": self.provider, "status": result.status},
            ) from exc

    def _status_error(self, result: FetchResult) -> tuple[ToolError, float | None]:
        """The error for a non-2xx answer, and how long to wait before a retry (None: don't)."""
        status = result.status
        details: dict[str, Any] = {"provider": self.provider, "status": status}
        if status == 429:
            wait = retry_after_from_headers(result.headers)
            return (
                ToolError(
                    "rate_limited",
                    f"{self.provider} is rate limiting requests (HTTP 429)",
                    retry_after_s=wait if wait is not None else 1.0,
                    details=details,
                ),
                wait if wait is not None else 1.0,
            )
        said = (self.status_messages, self.status_hints, self.status_remedies)
        if any(status in table for table in said):
            message = self.status_messages.get(
                status, f"{self.provider} refused the request with HTTP {status}"
            )
            error = ToolError(
                "provider_error",
                message,
                hint=self.status_hints.get(status),
                remedy=self.status_remedies.get(status),
                retryable=False,
                details=details,
            )
            return error, None
        if status >= 500:
            wait = result.retry_after_s()
            return (
                ToolError(
                    "provider_error",
                    f"{self.provider} failed with HTTP {status}",
                    retry_after_s=wait,
                    details=details,
                ),
                wait if wait is not None else DEFAULT_RETRY_WAIT_S,
            )
        remedy = None
        if 300 <= status < 400:
            location = result.headers.get("location", "?")
            message = (
                f"{self.provider} answered HTTP {status} redirecting to {location}; provider "
                "redirects are not followed: configure the final address as its base_url"
            )
            # Not "set it to <location>": the address comes from the answer, not the person.
            remedy = (
                f"Check the base_url of {self.provider} in the manifest: the provider "
                "redirects it elsewhere."
            )
        else:
            message = f"{self.provider} refused the request with HTTP {status}"
        error = ToolError(
            "provider_error", message, remedy=remedy, retryable=False, details=details
        )
        return error, None
