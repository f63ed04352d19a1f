"""The local throttle and the provider HTTP helper, on a fake clock (no real waiting)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import msgspec
import pytest
from yarl import URL

from insomnia_web import ToolError
from insomnia_web.cache import Slot
from insomnia_web.net.result import FetchResult
from insomnia_web.search.http import ProviderHttp
from insomnia_web.search.ratelimit import (
    SharedBucket,
    TokenBucket,
    key_fingerprint,
    retry_after_from_headers,
    shared_bucket,
)


class FakeClock:
    """A clock that moves only when something sleeps on it (or a test advances it)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Record the wait and move time forward by it."""
        self.slept.append(seconds)
        self.now += seconds


class RecordingSleep:
    """A sleep that records waits without moving time (every caller sees the same now)."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await asyncio.sleep(0)


def answer(status: int, body: bytes = b"{}", **headers: str) -> FetchResult:
    """A fetch result as SafeClient would return it."""
    return FetchResult(
        url="https://api.test/x",
        final_url="https://api.test/x",
        status=status,
        headers={k.lower().replace("_", "-"): v for k, v in headers.items()},
        content_type="application/json",
        charset=None,
        body=body,
        truncated=False,
        bytes_read=len(body),
        redirects=[],
        elapsed_s=0.0,
    )


class ScriptedClient:
    """Stands in for SafeClient: returns scripted answers and records the fetch options."""

    def __init__(self, *answers: FetchResult) -> None:
        self.answers = list(answers)
        self.calls: list[dict[str, Any]] = []

    async def fetch(self, url: str, **options: Any) -> FetchResult:
        """The next scripted answer."""
        self.calls.append({"url": url, **options})
        return self.answers.pop(0)


def http(clock: FakeClock, rate: float = 1000.0) -> ProviderHttp:
    """A helper for provider ``test`` on the fake clock."""
    return ProviderHttp(
        provider="test",
        bucket=TokenBucket(clock=clock, sleep=clock.sleep),
        rate_limit_per_s=rate,
        headers={"X-Key": "sekrit"},
        status_messages={401: "the key is missing or invalid"},
    )


class Payload(msgspec.Struct):
    """What the scripted API returns."""

    ok: bool = False


@pytest.mark.asyncio
async def test_concurrent_callers_queue_at_the_rate() -> None:
    """Ten concurrent acquisitions at 5/s wait 0, 0.2, ... 1.8 s: burst one, then the rate."""
    sleep = RecordingSleep()
    bucket = TokenBucket(clock=lambda: 0.0, sleep=sleep)
    waits = await asyncio.gather(*(bucket.acquire(5) for _ in range(10)))
    assert waits == pytest.approx([i * 0.2 for i in range(10)])
    assert sleep.waits == pytest.approx([i * 0.2 for i in range(1, 10)])


def test_idle_bucket_refills_to_one_token_only() -> None:
    """After a long idle time one call is free and the next waits a full interval."""
    clock = FakeClock()
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    assert bucket.reserve(2) == 0
    clock.now += 60
    assert bucket.reserve(2) == 0
    assert bucket.reserve(2) == pytest.approx(0.5)


def test_a_wait_beyond_the_deadline_is_rate_limited_and_reserves_nothing() -> None:
    """A slot after the deadline gives rate_limited with retry_after_s; the slot stays free."""
    clock = FakeClock()
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    bucket.reserve(1)
    with pytest.raises(ToolError) as info:
        bucket.reserve(1, deadline=clock.now + 0.5)
    assert info.value.code == "rate_limited"
    assert info.value.retry_after_s == pytest.approx(1.0)
    assert bucket.reserve(1) == pytest.approx(1.0)


def test_defer_holds_every_slot_back() -> None:
    """After defer(3) (a provider's Retry-After) the next slot is 3 s away."""
    clock = FakeClock()
    bucket = TokenBucket(clock=clock, sleep=clock.sleep)
    bucket.defer(3)
    assert bucket.reserve(1000) == pytest.approx(3.0)


def test_shared_buckets_are_per_provider_and_key() -> None:
    """One bucket per (provider, key); another key or provider gets its own."""
    a = shared_bucket("brave", key_fingerprint("k1"))
    assert shared_bucket("brave", key_fingerprint("k1")) is a
    assert shared_bucket("brave", key_fingerprint("k2")) is not a
    assert shared_bucket("searxng", key_fingerprint("k1")) is not a


def test_key_fingerprint_does_not_contain_the_key() -> None:
    """The fingerprint is short, stable and not the key."""
    fingerprint = key_fingerprint("my-secret-key")
    assert fingerprint == key_fingerprint("my-secret-key")
    assert len(fingerprint) == 16
    assert "secret" not in fingerprint


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"retry-after": "3", "x-ratelimit-reset": "9"}, 3.0),
        ({"x-ratelimit-reset": "1, 1419704"}, 1.0),
        ({"x-ratelimit-reset": "1, 1419704", "x-ratelimit-remaining": "0, 10"}, 1.0),
        ({"x-ratelimit-reset": "1, 1419704", "x-ratelimit-remaining": "3, 0"}, 86400.0),
        ({"x-ratelimit-reset": "soon"}, None),
        ({"x-ratelimit-reset": "nan"}, None),
        ({"x-ratelimit-reset": "1, nan", "x-ratelimit-remaining": "3, 0"}, None),
        ({"x-ratelimit-reset": "inf"}, None),
        ({}, None),
    ],
)
def test_retry_after_from_headers(headers: dict[str, str], expected: float | None) -> None:
    """Retry-After wins; else the reset of the exhausted Brave window (capped at a day); a
    value that is not a finite number (``nan``, ``inf``) says nothing."""
    assert retry_after_from_headers(headers) == expected


@pytest.mark.asyncio
async def test_provider_call_options_are_trusted_bounded_and_unredirected() -> None:
    """The fetch is a trusted-origin JSON GET, no redirects, 2 MiB cap, key header attached."""
    clock = FakeClock()
    client = ScriptedClient(answer(200, b'{"ok": true}'))
    result = await http(clock).get_json(
        client,  # type: ignore[arg-type]
        URL("https://api.test/x?q=1"),
        timeout_s=4,
        type=Payload,
    )
    assert result == Payload(ok=True)
    [call] = client.calls
    assert call == {
        "url": "https://api.test/x?q=1",
        "timeout_s": 4,
        "max_bytes": 2 * 1024 * 1024,
        "allow_truncate": False,
        "headers": {"X-Key": "sekrit"},
        "follow_redirects": False,
        "accept": "application/json",
        "trusted_origin": True,
    }


def test_provider_http_repr_hides_the_headers() -> None:
    """The API key in the headers never shows in a repr."""
    assert "sekrit" not in repr(http(FakeClock()))


@pytest.mark.asyncio
async def test_short_429_waits_then_retries_once() -> None:
    """429 with Retry-After: 1 inside a 10 s deadline waits 1 s and retries."""
    clock = FakeClock()
    client = ScriptedClient(answer(429, retry_after="1"), answer(200, b'{"ok": true}'))
    result = await http(clock).get_json(
        client,  # type: ignore[arg-type]
        URL("https://api.test/x"),
        timeout_s=10,
        type=Payload,
    )
    assert result.ok
    assert len(client.calls) == 2
    assert sum(clock.slept) == pytest.approx(1.0)


@pytest.mark.asyncio
async def test_429_whose_wait_exceeds_the_deadline_is_not_retried() -> None:
    """A 2 s wait with 1.5 s left is rate_limited at once, with retry_after_s == 2."""
    clock = FakeClock()
    client = ScriptedClient(answer(429, retry_after="2"))
    with pytest.raises(ToolError) as info:
        await http(clock).get_json(
            client,  # type: ignore[arg-type]
            URL("https://api.test/x"),
            timeout_s=1.5,
            type=Payload,
        )
    assert info.value.code == "rate_limited"
    assert info.value.retry_after_s == 2
    assert len(client.calls) == 1
    assert clock.slept == []


@pytest.mark.asyncio
async def test_two_429s_give_rate_limited_after_one_retry() -> None:
    """At most one retry: a second 429 is returned as rate_limited."""
    clock = FakeClock()
    client = ScriptedClient(answer(429, retry_after="0"), answer(429, retry_after="1"))
    with pytest.raises(ToolError) as info:
        await http(clock).get_json(
            client,  # type: ignore[arg-type]
            URL("https://api.test/x"),
            timeout_s=10,
            type=Payload,
        )
    assert info.value.code == "rate_limited"
    assert info.value.retry_after_s == 1
    assert len(client.calls) == 2


@pytest.mark.asyncio
async def test_a_429_holds_back_the_next_search_on_the_same_bucket() -> None:
    """After a 429 asking for 3 s, the next call through the bucket waits those 3 s."""
    clock = FakeClock()
    api = http(clock)
    client = ScriptedClient(answer(429, retry_after="3"), answer(200, b'{"ok": true}'))
    with pytest.raises(ToolError):
        await api.get_json(client, URL("https://api.test/x"), timeout_s=10, type=Payload)  # type: ignore[arg-type]
    started = clock.now
    await api.get_json(client, URL("https://api.test/x"), timeout_s=10, type=Payload)  # type: ignore[arg-type]
    assert clock.now - started == pytest.approx(3.0)


@pytest.mark.asyncio
async def test_local_queue_beyond_the_deadline_never_calls_the_provider() -> None:
    """With the bucket busy for 1 s and a 0.5 s deadline: rate_limited, no request."""
    clock = FakeClock()
    api = http(clock, rate=1)
    api.bucket.reserve(1)
    client = ScriptedClient()
    with pytest.raises(ToolError) as info:
        await api.get_json(client, URL("https://api.test/x"), timeout_s=0.5, type=Payload)  # type: ignore[arg-type]
    assert info.value.code == "rate_limited"
    assert info.value.retry_after_s == pytest.approx(1.0)
    assert client.calls == []


# --- the bucket shared through the cache store -------------------------------------------


class FakeBudget:
    """A budget store answering scripted waits (or an error), recording every call."""

    def __init__(self, *, wait_s: float = 0.0, error: ToolError | None = None) -> None:
        self.wait_s = wait_s
        self.error = error
        self.slots: list[dict[str, Any]] = []
        self.holds: list[tuple[str, float]] = []

    async def take_slot(
        self,
        bucket: str,
        *,
        interval_s: float,
        max_wait_s: float | None,
        monthly_limit: int | None = None,
        daily_limit: int | None = None,
    ) -> Slot:
        """Record the request; raise the scripted error or grant the scripted wait."""
        self.slots.append(
            {"bucket": bucket, "interval_s": interval_s, "max_wait_s": max_wait_s,
             "monthly_limit": monthly_limit, "daily_limit": daily_limit}
        )  # fmt: skip
        if self.error is not None:
            raise self.error
        return Slot(wait_s=self.wait_s, month_requests=len(self.slots))

    async def hold(self, bucket: str, seconds: float) -> None:
        """Record the hold (or fail like the slots do)."""
        if self.error is not None:
            raise self.error
        self.holds.append((bucket, seconds))


@pytest.mark.asyncio
async def test_shared_bucket_sleeps_for_the_slot_the_store_granted() -> None:
    """The store decides the wait; the bucket sleeps exactly that long, once, no polling."""
    clock = FakeClock()
    store = FakeBudget(wait_s=0.75)
    bucket = SharedBucket(
        store, "brave:k", monthly_limit=10, daily_limit=3, clock=clock, sleep=clock.sleep
    )
    assert await bucket.acquire(4, deadline=clock.now + 2) == 0.75
    assert clock.slept == [0.75]
    assert store.slots == [
        {"bucket": "brave:k", "interval_s": 0.25, "max_wait_s": 2.0, "monthly_limit": 10,
         "daily_limit": 3}
    ]  # fmt: skip


@pytest.mark.asyncio
async def test_a_slow_setting_paces_its_own_process_before_asking_the_store() -> None:
    """At 0.01 requests/s a bucket waits 100 s between its own requests before it asks the
    store for a slot, so its slow pace never reserves the key's shared slots ahead."""
    clock = FakeClock()
    store = FakeBudget()
    bucket = SharedBucket(store, "brave:k", clock=clock, sleep=clock.sleep)
    deadline = clock.now + 1000
    assert [await bucket.acquire(0.01, deadline=deadline) for _ in range(2)] == [0.0, 100.0]
    assert clock.slept == [100.0]
    assert [slot["max_wait_s"] for slot in store.slots] == [1000.0, 900.0]


class GatedBudget(FakeBudget):
    """A budget store whose slots wait until the test opens its gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.asked = 0

    async def take_slot(self, bucket: str, **options: Any) -> Slot:
        """Count the request, wait for the gate, then grant the slot."""
        self.asked += 1
        await self.gate.wait()
        return await super().take_slot(bucket, **options)


@pytest.mark.asyncio
async def test_a_turn_in_this_process_past_the_deadline_is_refused_at_once() -> None:
    """With two earlier requests of this process waiting at 1 request/s, a third whose
    deadline is 1.5 s away is rate_limited at once, and only one request asks the store."""
    clock = FakeClock()
    store = GatedBudget()
    bucket = SharedBucket(store, "brave:k", clock=clock, sleep=clock.sleep)
    deadline = clock.now + 1.5
    earlier = [asyncio.create_task(bucket.acquire(1, deadline=deadline)) for _ in range(2)]
    await asyncio.sleep(0)
    with pytest.raises(ToolError) as info:
        await bucket.acquire(1, deadline=deadline)
    assert (info.value.code, info.value.retry_after_s) == ("rate_limited", 2.0)
    assert info.value.details["source"] == "local"
    assert store.asked == 1
    store.gate.set()
    await asyncio.gather(*earlier, return_exceptions=True)


@pytest.mark.asyncio
async def test_a_429_is_held_in_the_store_for_every_process() -> None:
    """A 429 with Retry-After reaches the store as a hold on the key's bucket."""
    clock = FakeClock()
    store = FakeBudget()
    api = dataclasses.replace(
        http(clock), bucket=SharedBucket(store, "test:k", clock=clock, sleep=clock.sleep)
    )
    client = ScriptedClient(answer(429, retry_after="5"))
    with pytest.raises(ToolError):
        await api.get_json(client, URL("https://api.test/x"), timeout_s=10, type=Payload)  # type: ignore[arg-type]
    assert store.holds == [("test:k", 5.0)]


@pytest.mark.asyncio
async def test_quota_exceeded_sends_nothing() -> None:
    """A monthly limit refused by the store fails the call before any request is sent."""
    clock = FakeClock()
    refusal = ToolError("quota_exceeded", "limit reached", retryable=False)
    api = dataclasses.replace(
        http(clock),
        bucket=SharedBucket(FakeBudget(error=refusal), "test:k", clock=clock, sleep=clock.sleep),
    )
    client = ScriptedClient()
    with pytest.raises(ToolError) as info:
        await api.get_json(client, URL("https://api.test/x"), timeout_s=10, type=Payload)  # type: ignore[arg-type]
    assert info.value.code == "quota_exceeded"
    assert client.calls == []


@pytest.mark.asyncio
async def test_store_down_falls_back_to_the_local_bucket() -> None:
    """With the store unavailable, slots come from this process's bucket, and it says why."""
    clock = FakeClock()
    down = ToolError("cache_unavailable", "the cache database is unavailable")
    bucket = SharedBucket(FakeBudget(error=down), "brave:k", clock=clock, sleep=clock.sleep)
    waits = [await bucket.acquire(2) for _ in range(3)]
    assert waits == pytest.approx([0.0, 0.5, 0.5])
    assert bucket.fallback == "the cache database is unavailable"
    await bucket.hold(1.0)  # a 429 is still honoured locally
    assert await bucket.acquire(2) == pytest.approx(1.0)


@pytest.mark.asyncio
async def test_a_slot_must_leave_time_for_the_request() -> None:
    """The bucket is asked for a slot that leaves a second of the deadline for the request."""
    clock = FakeClock()
    store = FakeBudget()
    api = dataclasses.replace(
        http(clock), bucket=SharedBucket(store, "test:k", clock=clock, sleep=clock.sleep)
    )
    client = ScriptedClient(answer(200, b'{"ok": true}'))
    await api.get_json(client, URL("https://api.test/x"), timeout_s=10, type=Payload)  # type: ignore[arg-type]
    assert store.slots[0]["max_wait_s"] == pytest.approx(9.0)


@pytest.mark.asyncio
@pytest.mark.parametrize("limit", ["monthly", "daily"])
async def test_store_down_with_a_request_limit_sends_nothing(limit: str) -> None:
    """With a monthly or a daily limit, a request the store cannot count is refused, not
    sent, and the message names the limit."""
    clock = FakeClock()
    down = ToolError("cache_unavailable", "the cache database is unavailable")
    limits: dict[str, Any] = {f"{limit}_limit": 100}
    bucket = SharedBucket(
        FakeBudget(error=down), "brave:k", clock=clock, sleep=clock.sleep, **limits
    )
    with pytest.raises(ToolError) as info:
        await bucket.acquire(2)
    assert info.value.code == "cache_unavailable"
    assert f"the {limit} request limit cannot be counted" in info.value.message
    assert "no request was sent" in info.value.message


@pytest.mark.asyncio
@pytest.mark.parametrize("code", ["cache_error", "cache_unavailable"])
async def test_an_uncountable_request_hints_at_what_can_help(code: str) -> None:
    """A monthly-limited search refused because the store failed tells the model what
    helps (WebFetch, telling the user), not to retry with force_fresh, which cannot."""
    clock = FakeClock()
    failed = ToolError(code, "cache rate limit failed: database or disk is full")  # type: ignore[arg-type]
    bucket = SharedBucket(
        FakeBudget(error=failed), "brave:k", monthly_limit=100, clock=clock, sleep=clock.sleep
    )
    with pytest.raises(ToolError) as info:
        await bucket.acquire(2)
    assert info.value.code == code
    assert info.value.hint is not None
    assert "force_fresh" not in info.value.hint
    assert "WebFetch" in info.value.hint
