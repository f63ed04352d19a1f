"""Politeness towards the sites a model reads: robots.txt and a per-host request rate.

:class:`HostRateLimiter` spaces requests to one host at ``rate_per_s`` after a burst of
``burst`` (the generic cell rate algorithm: each host keeps the time its next request is
due). Callers reserve their slot synchronously, so concurrent fetches of one host queue in
arrival order. A request whose slot comes after its deadline fails at once with
``rate_limited`` and ``retry_after_s`` instead of waiting in vain.

:class:`Politeness` is what WebFetch and the excerpt pipeline share in one runtime: the
:class:`~.robots.RobotsCache` (when ``web.fetch.robots = "obey"``) and the rate limiter.
:meth:`Politeness.gate` gives the ``before_request`` hook of one
:meth:`~.client.SafeClient.fetch`: it runs before every request of the fetch, the first and
each redirect hop, so a hop to a disallowed path is refused and every request counts.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from yarl import URL

from ..errors import ToolError
from .robots import ROBOTS_TIMEOUT_S, HostCheck, RobotsCache

if TYPE_CHECKING:
    from .client import SafeClient

__all__ = ["HostRateLimiter", "Politeness"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
MAX_HOSTS = 4096
"""Hosts tracked; hosts whose slot is long past are forgotten first beyond this."""


class HostRateLimiter:
    """Requests per second per host, after a burst; *clock* and *sleep* are injectable."""

    def __init__(
        self,
        rate_per_s: float,
        burst: int = 1,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if rate_per_s <= 0 or burst < 1:
            raise ValueError("rate_per_s must be positive and burst at least 1")
        self.interval = 1.0 / rate_per_s
        self.tolerance = (burst - 1) * self.interval
        self.rate_per_s = rate_per_s
        self.clock = clock
        self.sleep = sleep
        self._due: dict[str, float] = {}

    def reserve(self, host: str, *, deadline: float | None = None) -> float:
        """Reserve the next request to *host*; return how long to wait before sending it.

        Raises ``rate_limited`` (nothing reserved) when the request could start only after
        *deadline* (a :attr:`clock` time).
        """
        now = self.clock()
        due = max(self._due.get(host, -math.inf), now)
        wait = max(0.0, due - self.tolerance - now)
        if deadline is not None and now + wait > deadline:
            raise ToolError(
                "rate_limited",
                f"the per-host rate limit ({self.rate_per_s:g} requests/s to {host}) queues "
                f"this request {wait:.2f} s, beyond its deadline",
                retry_after_s=round(wait, 3),
                details={"source": "local", "host": host, "rate_limit_per_s": self.rate_per_s},
            )
        if len(self._due) >= MAX_HOSTS and host not in self._due:
            self._forget_idle(now)
        self._due[host] = due + self.interval
        return wait

    async def acquire(self, host: str, *, deadline: float | None = None) -> float:
        """Wait for a slot to *host* (see :meth:`reserve`); return the time waited."""
        wait = self.reserve(host, deadline=deadline)
        if wait > 0:
            await self.sleep(wait)
        return wait

    def _forget_idle(self, now: float) -> None:
        for host in [h for h, due in self._due.items() if due <= now] or list(self._due)[:1]:
            del self._due[host]


class Politeness:
    """The robots.txt cache and the per-host rate limit of one runtime's page fetches."""

    def __init__(self, client: SafeClient, *, clock: Clock = time.monotonic) -> None:
        config = client.config
        self.robots = RobotsCache(client, clock=clock) if config.robots == "obey" else None
        self.limiter = HostRateLimiter(config.host_rate_limit_per_s, config.host_burst, clock=clock)
        self.clock = clock

    async def aclose(self) -> None:
        """Stop what is still running (robots.txt reads)."""
        if self.robots is not None:
            await self.robots.aclose()

    def gate(self, timeout_s: float, *, may_contact: HostCheck) -> Callable[[URL], Awaitable[None]]:
        """The ``before_request`` hook of one fetch whose deadline is *timeout_s* from now;
        *may_contact* tells whether a robots.txt may be read from another host (its ``www.``
        variant) that redirects there."""
        deadline = self.clock() + timeout_s

        async def before_request(url: URL) -> None:
            if self.robots is not None:
                left = max(deadline - self.clock(), 0.0)
                await self.robots.check(
                    url, may_contact=may_contact, timeout_s=min(left, ROBOTS_TIMEOUT_S)
                )
            await self.limiter.acquire((url.host or "").lower(), deadline=deadline)

        return before_request
