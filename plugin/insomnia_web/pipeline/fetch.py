"""Fetch and extract the top result pages concurrently, under one overall deadline.

Every page is one task: fetch through :class:`~insomnia_web.net.SafeClient`, check the status,
read the body as WebFetch does (:func:`~insomnia_web.extract.document.read_document`: a PDF's
pages, or type sniffing, unsupported and binary bodies refused, charset decoding with
warnings), then extract readable text off the event loop. Tasks on the same host
share a semaphore (``per_host_concurrency``). The caller waits for all tasks with
``asyncio.wait(timeout=...)``; whatever is still running at the deadline is cancelled and
reported as ``skipped`` with ``error_code="timeout"``: a slow page is dropped, never waited
for. Each fetch's and extraction's own time-out is also capped by the time that remains.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal, Protocol

import msgspec
from yarl import URL

from ..errors import ToolError
from ..extract.document import read_document
from ..net.client import SafeClient
from ..net.urlpolicy import POLICY_CODES, Target

__all__ = ["FetchContext", "PageOutcome", "PageRequest", "fetch_pages"]

SKIP_CODES = POLICY_CODES | {
    "permission_denied",
    "robots_disallowed",
    "permission_required",
    "redirect_blocked",
    "redirect_not_followed",
    "unsupported_content",
}
"""Failures that mean "not fetched by choice" (``skipped``) rather than "failed" (``error``)."""

MIN_STEP_S = 0.05
"""Least time worth starting a fetch or an extraction with."""

Status = Literal["ok", "error", "skipped"]
Gate = Callable[[float], Callable[[URL], Awaitable[None]]]
"""Gives the ``before_request`` hook of a fetch with a deadline (robots.txt, host rate)."""


class FetchContext(Protocol):
    """What the pipeline needs from a tool call: progress events and the permission probe."""

    def progress(self, message: str, done: int | None = None, total: int | None = None) -> None:
        """Record a progress event."""

    def permission_for(self, tool: str, host: str) -> Literal["allow", "ask", "deny"]:
        """The policy's verdict for *tool* on *host*, without prompting."""

    async def approve_page(self, tool: str, url: str, host: str) -> Literal["allow", "ask", "deny"]:
        """The verdict for reading *url* within this call: an ``ask`` becomes ``allow`` (and
        is recorded) only where the person approved every question in advance."""


class PageRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One page to fetch."""

    url: str


class PageOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What happened to one page: its status, and its extracted text when it worked."""

    url: str
    status: Status
    error_code: str | None = None
    final_url: str | None = None
    """Where the page was read, when a redirect took it to another URL."""
    title: str | None = None
    text: str = ""
    warnings: list[str] = msgspec.field(default_factory=list)
    """What reading the page noted: a sniffed type, charset trouble."""
    author: str | None = None
    published: str | None = None
    """Publication date the page states (ISO 8601 text)."""
    modified: str | None = None
    """Last-modified date the page states (ISO 8601 text)."""


def _status_for(code: str, *, out_of_time: bool) -> Status:
    if code in SKIP_CODES or (code == "timeout" and out_of_time):
        return "skipped"
    return "error"


class _Run:
    """The shared state of one concurrent fetch: deadline, host limits, progress count."""

    def __init__(
        self,
        *,
        client: SafeClient,
        ctx: FetchContext,
        deadline: float,
        per_host: int,
        total: int,
        clock: Callable[[], float],
        gate: Gate | None = None,
    ) -> None:
        self.client = client
        self.gate = gate
        self.ctx = ctx
        self.deadline = deadline
        self.per_host = per_host
        self.total = total
        self.clock = clock
        self.done = 0
        self.host_slots: dict[str, asyncio.Semaphore] = {}

    def remaining(self) -> float:
        """Seconds left before the overall deadline."""
        return self.deadline - self.clock()

    def _budget(self, cap: float) -> float:
        left = self.remaining()
        if left < MIN_STEP_S:
            raise ToolError("timeout", "the page deadline passed", details={"phase": "total"})
        return min(cap, left)

    async def _refuse_denied(self, target: Target) -> None:
        """Redirect check: follow a hop only to a host WebFetch is allowed on without asking."""
        verdict = self.ctx.permission_for("WebFetch", target.host)
        if verdict != "allow":
            raise ToolError(
                "redirect_blocked",
                f"redirect to {target.host} refused: WebFetch on that host is "
                + ("denied" if verdict == "deny" else "not allowed without asking"),
                details={"hop": str(target.url), "permission": verdict},
            )

    async def page(self, request: PageRequest) -> PageOutcome:
        """Fetch and extract one page; every failure becomes an outcome, never an exception."""
        try:
            host = self.client.policy.check(request.url).host
        except ToolError as exc:
            return PageOutcome(url=request.url, status="skipped", error_code=exc.code)
        slot = self.host_slots.setdefault(host, asyncio.Semaphore(self.per_host))
        try:
            async with slot:
                outcome = await self._fetch_and_extract(request)
        except ToolError as exc:
            status = _status_for(exc.code, out_of_time=self.remaining() < MIN_STEP_S)
            outcome = PageOutcome(url=request.url, status=status, error_code=exc.code)
        self.done += 1
        verb = "fetched" if outcome.status == "ok" else f"{outcome.error_code}:"
        self.ctx.progress(f"{verb} {request.url}", self.done, self.total)
        return outcome

    async def _fetch_and_extract(self, request: PageRequest) -> PageOutcome:
        cfg = self.client.config
        budget = self._budget(cfg.timeout_s)
        result = await self.client.fetch(
            request.url,
            timeout_s=budget,
            allow_truncate=True,
            redirect_check=self._refuse_denied,
            before_request=self.gate(budget) if self.gate is not None else None,
        )
        result.raise_for_status()
        doc = await read_document(
            result,
            "readable",
            timeout_s=self._budget(cfg.timeout_s),
            max_chars=cfg.max_response_bytes,
        )
        extracted = doc.extracted
        return PageOutcome(
            url=request.url,
            status="ok",
            final_url=result.final_url if result.redirects else None,
            title=extracted.title,
            text=extracted.text,
            warnings=doc.warnings,
            author=extracted.author,
            published=extracted.published,
            modified=extracted.modified,
        )


async def fetch_pages(
    requests: Sequence[PageRequest],
    *,
    client: SafeClient,
    ctx: FetchContext,
    deadline_s: float,
    per_host_concurrency: int = 6,
    clock: Callable[[], float] = time.monotonic,
    gate: Gate | None = None,
) -> list[PageOutcome]:
    """Fetch and extract *requests* concurrently; return one outcome per request, in order.

    Only pages on hosts WebFetch is allowed on without asking are read: a page the URL
    policy refuses is skipped with the policy's code, one on a denied host with
    ``permission_denied``, one on a host WebFetch would ask about with
    ``permission_required`` (nobody is asked mid-search); all without a connection.
    *gate* (robots.txt and the per-host rate, see :class:`~insomnia_web.net.politeness.
    Politeness`) runs before every request.
    Nothing runs past *deadline_s*: unfinished pages are cancelled and reported skipped.
    """
    outcomes: dict[int, PageOutcome] = {}
    allowed: list[int] = []
    for i, request in enumerate(requests):
        refusal = await _refusal(request.url, client, ctx)
        if refusal is None:
            allowed.append(i)
        else:
            outcomes[i] = PageOutcome(url=request.url, status="skipped", error_code=refusal)
    run = _Run(
        client=client,
        ctx=ctx,
        deadline=clock() + deadline_s,
        per_host=per_host_concurrency,
        total=len(allowed),
        clock=clock,
        gate=gate,
    )
    tasks = {asyncio.create_task(run.page(requests[i])): i for i in allowed}
    if tasks:
        done, pending = await asyncio.wait(tasks, timeout=max(0.0, run.remaining()))
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        for task, i in tasks.items():
            if task in done and not task.cancelled() and task.exception() is None:
                outcomes[i] = task.result()
            else:
                outcomes[i] = _late(requests[i], task)
    return [outcomes[i] for i in range(len(requests))]


async def _refusal(url: str, client: SafeClient, ctx: FetchContext) -> str | None:
    """Why *url* is not read (a policy code, ``permission_denied`` or ``permission_required``),
    or None when WebFetch is allowed on its host without asking (or the person approved
    every question in advance: ``--yes``)."""
    try:
        host = client.policy.check(url).host
    except ToolError as exc:
        return exc.code
    verdict = ctx.permission_for("WebFetch", host)
    if verdict == "ask":
        verdict = await ctx.approve_page("WebFetch", url, host)
    if verdict == "allow":
        return None
    return "permission_denied" if verdict == "deny" else "permission_required"


def _late(request: PageRequest, task: asyncio.Task[PageOutcome]) -> PageOutcome:
    """The outcome of a task that missed the deadline (or failed unexpectedly)."""
    if not task.cancelled() and task.exception() is not None:
        return PageOutcome(url=request.url, status="error", error_code="internal_error")
    return PageOutcome(url=request.url, status="skipped", error_code="timeout")
