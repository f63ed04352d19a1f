"""Rate limits of search providers: a local throttle, and the provider's own 429 answers.

:class:`TokenBucket` is a token bucket of capacity one (burst 1) refilled at the caller's
rate. Callers *reserve* the next free slot synchronously, so concurrent calls queue in
arrival order without a lock: at 5 requests per second, ten concurrent calls start at
0, 0.2, ... 1.8 s. A call whose slot lies beyond its deadline is refused with
``rate_limited`` (and ``retry_after_s``) instead of waiting.

:func:`shared_bucket` returns the one bucket of a provider and key in this process, so
every runtime and tool using the same API key shares it. Keys are identified by a
fingerprint (:func:`key_fingerprint`), never by the key itself.

:class:`SharedBucket` keeps the same bucket in the cache store instead (a
:class:`BudgetStore`: the SQLite file or the PostgreSQL server), so every *process* using
one key shares one rate, one ``Retry-After`` hold and one count per day and month: each
request takes its slot in one short transaction and then sleeps until it (no polling). Each
process keeps its own pace first, at its own rate, and two shared slots in a row are spaced
by the faster of their two settings, so a manifest with a slow rate delays only its own
process. When the store cannot be reached the process's own pace is all there is, so a
search still runs (unless a monthly or daily limit has to count it).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from ..errors import MAX_RETRY_AFTER_S, ToolError
from ..net.result import parse_retry_after

__all__ = [
    "BudgetStore",
    "Clock",
    "SharedBucket",
    "Sleep",
    "TokenBucket",
    "key_fingerprint",
    "reset_buckets",
    "retry_after_from_headers",
    "shared_bucket",
]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def _queued_too_long(queue: str, wait: float, rate_per_s: float) -> ToolError:
    """The ``rate_limited`` of a search that *queue* (in this process) would delay *wait*
    seconds, past its deadline."""
    return ToolError(
        "rate_limited",
        f"{queue} ({rate_per_s:g} requests/s) queues this search {wait:.2f} s, beyond its deadline",
        retry_after_s=round(wait, 3),
        details={"source": "local", "rate_limit_per_s": rate_per_s},
    )


class TokenBucket:
    """A capacity-one token bucket whose callers queue for the next free slot.

    *clock* (seconds, monotonic) and *sleep* are injectable so tests run on a fake clock.
    """

    def __init__(self, *, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep) -> None:
        self.clock = clock
        self.sleep = sleep
        self._next_free = -math.inf

    def reserve(self, rate_per_s: float, *, deadline: float | None = None) -> float:
        """Reserve the next slot at *rate_per_s*; return how long to wait for it.

        Raises ``rate_limited`` (nothing reserved) when the slot starts after *deadline*
        (a :attr:`clock` time).
        """
        if rate_per_s <= 0:
            raise ValueError("rate_per_s must be positive")
        now = self.clock()
        start = max(now, self._next_free)
        wait = start - now
        if deadline is not None and start > deadline:
            raise _queued_too_long("the local rate limit", wait, rate_per_s)
        self._next_free = start + 1.0 / rate_per_s
        return wait

    async def acquire(self, rate_per_s: float, *, deadline: float | None = None) -> float:
        """Wait for a slot (see :meth:`reserve`); return the time waited."""
        wait = self.reserve(rate_per_s, deadline=deadline)
        if wait > 0:
            await self.sleep(wait)
        return wait

    def defer(self, seconds: float) -> None:
        """Start no new slot for *seconds* (the provider said to wait)."""
        self._next_free = max(self._next_free, self.clock() + max(seconds, 0.0))

    async def hold(self, seconds: float) -> None:
        """Like :meth:`defer`; a :class:`SharedBucket` also holds back the other processes."""
        self.defer(seconds)


class SlotLike(Protocol):
    """What :meth:`BudgetStore.take_slot` returns: how long to wait for the reserved slot."""

    @property
    def wait_s(self) -> float: ...


class BudgetStore(Protocol):
    """Where a :class:`SharedBucket` keeps its state (the cache store implements it)."""

    async def take_slot(
        self,
        bucket: str,
        *,
        interval_s: float,
        max_wait_s: float | None,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> SlotLike:
        """Reserve the next slot atomically; raise ``rate_limited`` or ``quota_exceeded``."""
        ...

    async def hold(self, bucket: str, seconds: float) -> None:
        """Start no slot of *bucket* for *seconds*, in any process."""
        ...


_FALLBACK_CODES = frozenset({"cache_error", "cache_unavailable"})


class SharedBucket(TokenBucket):
    """A bucket whose state lives in a :class:`BudgetStore`, shared across processes.

    *name* identifies the provider key (``brave:<fingerprint>``); *monthly_limit* refuses
    requests past that many this month, *daily_limit* past that many today (UTC), with
    ``quota_exceeded``. Each request first waits for its turn among this bucket's requests
    (one at a time holds a shared slot) and for this bucket's own pace (its process's rate,
    kept here), then for the shared slot. A store failure leaves only the own pace (and
    :attr:`fallback` says why) rather than failing a search, except with a *monthly_limit*
    or a *daily_limit*: a request that cannot be counted is not sent.
    """

    def __init__(
        self,
        store: BudgetStore,
        name: str,
        *,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        super().__init__(clock=clock, sleep=sleep)
        self.store = store
        self.name = name
        self.monthly_limit = monthly_limit
        self.daily_limit = daily_limit
        self.fallback: str | None = None
        """Why the last slot was taken locally (the store failed), or ``None``."""
        self._turn = asyncio.Lock()
        self._queued = 0
        """Requests holding or waiting for :attr:`_turn`."""

    async def acquire(self, rate_per_s: float, *, deadline: float | None = None) -> float:
        """Wait for this process's turn and own pace, then take the next shared slot and
        sleep until it; return the time waited.

        This process's requests queue here, in arrival order, and only the first holds a
        slot of the shared queue: a process with many searches waiting takes turns with the
        others instead of reserving the key's slots ahead of them. Its own pace is kept here
        too, so that a slow *rate_per_s* waits in this process, never in the shared queue.
        """
        if rate_per_s <= 0:
            raise ValueError("rate_per_s must be positive")
        started = self.clock()
        await self._wait_for_turn(rate_per_s, deadline)
        try:
            return self.clock() - started + await self._take(rate_per_s, deadline)
        finally:
            self._queued -= 1
            self._turn.release()

    async def _wait_for_turn(self, rate_per_s: float, deadline: float | None) -> None:
        """Wait until this bucket's earlier requests had their turns; ``rate_limited`` (at
        once when they take at least one interval each) when that is past *deadline*."""
        left = None if deadline is None else deadline - self.clock()
        queue_s = self._queued / rate_per_s
        if left is not None and queue_s > left:
            raise self._queued_past(queue_s, rate_per_s)
        self._queued += 1
        try:
            async with asyncio.timeout(left):
                await self._turn.acquire()
        except BaseException as exc:
            self._queued -= 1
            if isinstance(exc, TimeoutError):
                raise self._queued_past(queue_s, rate_per_s) from None
            raise

    def _queued_past(self, queue_s: float, rate_per_s: float) -> ToolError:
        """The ``rate_limited`` of a request whose turn in this process is past its deadline."""
        queue = f"the local queue of {self._queued} earlier searches with this key"
        return _queued_too_long(queue, queue_s, rate_per_s)

    async def _take(self, rate_per_s: float, deadline: float | None) -> float:
        """Wait for the own pace, take the shared slot and sleep until it (this request's
        turn); return the time waited."""
        own = await super().acquire(rate_per_s, deadline=deadline)
        max_wait = None if deadline is None else max(deadline - self.clock(), 0.0)
        try:
            slot = await self.store.take_slot(
                self.name,
                interval_s=1.0 / rate_per_s,
                max_wait_s=max_wait,
                monthly_limit=self.monthly_limit,
                daily_limit=self.daily_limit,
            )
        except ToolError as exc:
            if exc.code not in _FALLBACK_CODES:
                raise
            if self._limits:
                raise ToolError(
                    exc.code,
                    f"{exc.message}; the {self._limits} request limit cannot be counted, so "
                    "no request was sent",
                    hint="No search can be sent while the cache store fails, whatever the "
                    "arguments: use WebFetch with a known URL, and tell the user the cache "
                    "(web.cache) needs fixing.",
                    remedy=f"Make the cache (web.cache) reachable again: the {self._limits} "
                    "request limit is counted there; insomnia-web doctor tests it.",
                    retry_after_s=exc.retry_after_s,
                    details=exc.details,
                ) from exc
            self.fallback = exc.message
            return own
        self.fallback = None
        wait = max(slot.wait_s, 0.0)
        if wait > 0:
            await self.sleep(wait)
        return own + wait

    @property
    def _limits(self) -> str:
        """The limits counted in the store: ``monthly``, ``daily``, ``monthly and daily``, or
        ``""`` when there is none."""
        limits = {"monthly": self.monthly_limit, "daily": self.daily_limit}
        return " and ".join(name for name, limit in limits.items() if limit is not None)

    async def hold(self, seconds: float) -> None:
        """Hold back every process using this key for *seconds* (and this one locally)."""
        self.defer(seconds)
        try:
            await self.store.hold(self.name, seconds)
        except ToolError as exc:
            if exc.code not in _FALLBACK_CODES:
                raise
            self.fallback = exc.message


_BUCKETS: dict[tuple[str, str], TokenBucket] = {}


def shared_bucket(provider: str, key: str) -> TokenBucket:
    """The process-wide bucket of *provider* used with *key* (a fingerprint or an origin)."""
    bucket = _BUCKETS.get((provider, key))
    if bucket is None:
        bucket = _BUCKETS[(provider, key)] = TokenBucket()
    return bucket


def reset_buckets() -> None:
    """Forget every shared bucket (for tests and benchmarks)."""
    _BUCKETS.clear()


def key_fingerprint(secret: str) -> str:
    """A short, non-reversible name for an API key (for bucket keys and logs)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()[:16]


def _numbers(value: str | None) -> list[float]:
    """The comma-separated numbers of a header; none at all if one is not a finite number."""
    out: list[float] = []
    for part in (value or "").split(","):
        try:
            number = float(part.strip())
        except ValueError:
            return []
        if not math.isfinite(number):  # "nan" or "inf" would hold the bucket for ever
            return []
        out.append(number)
    return out


def retry_after_from_headers(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from a 429 answer's lower-cased *headers*, if they say.

    ``Retry-After`` first; then ``X-RateLimit-Reset`` (Brave sends one value per window,
    e.g. ``"1, 1419704"``: the longest reset among the windows with nothing remaining, or
    the first when ``X-RateLimit-Remaining`` does not say).
    """
    retry_after = parse_retry_after(headers.get("retry-after"))
    if retry_after is not None:
        return retry_after
    resets = _numbers(headers.get("x-ratelimit-reset"))
    if not resets:
        return None
    remaining = _numbers(headers.get("x-ratelimit-remaining"))
    exhausted = [r for r, left in zip(resets, remaining, strict=False) if left <= 0]
    wait = max(exhausted) if exhausted else resets[0]
    return min(max(wait, 0.0), MAX_RETRY_AFTER_S)
