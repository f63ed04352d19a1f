"""Provider request budgets kept in the cache store, shared by every process that uses it.

A *bucket* is one provider key (``brave:<key fingerprint>``). Its state is two times, an
interval and a count per day:

- ``next_free``: when the next request may start (a capacity-one token bucket: each request
  takes the slot at ``max(now, next_free)`` and moves ``next_free`` on by ``1 / rate``),
  and ``interval_s``, the ``1 / rate`` of the request that took the last slot. Each process
  has its own ``rate_limit_per_s``, so two slots in a row are spaced by the *faster* of
  their two settings: a manifest with a slower rate spaces only its own process's requests
  (:class:`~..search.ratelimit.SharedBucket` paces them before taking a slot), never the
  others' (the slowest manifest to take a slot used to space the next one, whoever's);
- ``hold_until``: no request starts before it (a provider's ``429`` with ``Retry-After``
  seen by any process holds back all of them);
- requests per UTC day, so the month's total can be refused past ``monthly_limit``, and
  today's past ``daily_limit``, before the provider bills another request.

Both stores decide with :func:`plan_slot` inside one short transaction, so two processes
never take the same slot. A caller then *sleeps* until its slot: no polling.
"""

from __future__ import annotations

import math
import time

import msgspec

from ..errors import MAX_RETRY_AFTER_S, ToolError, relay

__all__ = [
    "ProviderUsage",
    "Slot",
    "day_key",
    "hold_span",
    "month_key",
    "plan_slot",
    "to_next_day",
]


def hold_span(seconds: float) -> float:
    """*seconds* as a hold the store keeps: within ``0..MAX_RETRY_AFTER_S``; NaN holds nothing.

    A NaN stored as ``hold_until`` would compare false with every later hold (PostgreSQL
    sorts it above every number, so ``greatest`` keeps it), and every later 429 would
    then hold back no other process.
    """
    if math.isnan(seconds):
        return 0.0
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


class Slot(msgspec.Struct, kw_only=True, frozen=True):
    """A reserved request slot: wait this long, then send."""

    wait_s: float
    month_requests: int
    """Requests counted this month, this one included."""


class ProviderUsage(msgspec.Struct, kw_only=True, frozen=True):
    """Requests sent with one provider key, for ``insomnia-web cache stats``."""

    bucket: str
    """``provider:key-fingerprint`` (never the key)."""
    today: int
    month: int


def day_key(now: float) -> str:
    """The UTC day of Unix time *now*: ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def month_key(now: float) -> str:
    """The UTC month of Unix time *now*: ``YYYY-MM`` (a prefix of :func:`day_key`)."""
    return day_key(now)[:7]


def to_next_day(now: float) -> float:
    """Seconds from Unix time *now* to the next UTC midnight (a UTC day is 86,400 s)."""
    return 86_400.0 - now % 86_400.0


def _reached(provider: str, period: str, used: int, limit: int) -> str:
    """The message of a request refused because *used* requests reached the ``monthly`` or
    ``daily`` *period*'s *limit*."""
    when = {"monthly": "this month", "daily": "today"}[period]
    return (
        f"{provider} requests {when} ({used}) reached the configured {period} limit of "
        f"{limit}; no request was sent"
    )


def plan_slot(
    *,
    bucket: str,
    now: float,
    next_free: float,
    hold_until: float,
    last_interval_s: float,
    interval_s: float,
    max_wait_s: float | None,
    month_requests: int,
    monthly_limit: int | None,
    day_requests: int = 0,
    daily_limit: int | None = None,
) -> float:
    """When the next request of *bucket* starts (seconds from *now*), or why it may not.

    Raises ``quota_exceeded`` when *month_requests* already reached *monthly_limit* or,
    failing that, *day_requests* (today's, UTC) reached *daily_limit* (with the seconds to
    the next UTC day as ``retry_after_s``), and ``rate_limited`` (with ``retry_after_s``)
    when the slot lies more than *max_wait_s* ahead. *next_free* was set by a slot taken at
    *last_interval_s*; a request at a shorter *interval_s* may start that much sooner. The
    caller stores ``now + wait + interval_s`` as the new ``next_free`` and *interval_s* as
    the new ``interval_s``.
    """
    provider = bucket.split(":", 1)[0]
    if monthly_limit is not None and month_requests >= monthly_limit:
        raise ToolError(
            "quota_exceeded",
            _reached(provider, "monthly", month_requests, monthly_limit),
            hint="Tell the user the monthly search budget is used up (web.search."
            f"{provider}.monthly_limit); do not retry this month. Use WebFetch with a known "
            "URL meanwhile.",
            remedy=f"Wait until next month, or raise web.search.{provider}.monthly_limit in "
            "the manifest if the provider's plan allows more requests.",
            retryable=False,
            details={"provider": provider, "monthly_limit": monthly_limit},
        )
    if daily_limit is not None and day_requests >= daily_limit:
        remedy = (
            f"Wait until tomorrow (UTC), or raise web.search.{provider}.daily_limit in the "
            "manifest if the agents sharing the key may send more requests a day."
        )
        raise ToolError(
            "quota_exceeded",
            _reached(provider, "daily", day_requests, daily_limit),
            hint=relay(
                remedy,
                lead="The daily search budget is used up: tell the user to",
                then="Do not retry today; use WebFetch with a known URL meanwhile.",
            ),
            remedy=remedy,
            retryable=False,
            retry_after_s=to_next_day(now),
            details={"provider": provider, "daily_limit": daily_limit},
        )
    turn = next_free - max(last_interval_s - interval_s, 0.0)
    start = max(now, turn, hold_until)
    wait = start - now
    if max_wait_s is not None and wait > max_wait_s:
        held = hold_until > turn and hold_until > now
        source = "provider retry-after, shared" if held else "shared"
        raise ToolError(
            "rate_limited",
            f"the {provider} rate limit shared by every process using this key "
            f"({1 / interval_s:g} requests/s) queues this search {wait:.2f} s, beyond its "
            "deadline",
            retry_after_s=round(wait, 3),
            details={"source": source, "rate_limit_per_s": 1 / interval_s},
        )
    return wait
