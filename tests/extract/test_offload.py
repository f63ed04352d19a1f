"""Off-loop extraction under load: each conversion owns its worker, its slot and its deadline.

A conversion that runs out of time (or whose caller is cancelled) stops: its worker process
is killed, and no other caller's conversion is touched. Expensive documents (many elements)
go to a process, cheap ones to a thread, and only a few run at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from insomnia_web.errors import ToolError, ToolTimeout
from insomnia_web.extract import convert_async, offload
from insomnia_web.extract.model import Extracted


def forum_page(target_chars: int) -> str:
    """A forum-like page of about *target_chars*: many small elements (costly to extract)."""
    parts = ["<html><head><title>Thread</title></head><body><main><h1>Thread</h1>"]
    size, n = 0, 0
    while size < target_chars:
        post = (
            f"<article class='post'><header><a href='/u/{n}'>user{n}</a></header>"
            f"<div class='body'><p>Reply {n} says something, with <b>bold</b> words and "
            f"<a href='/t/{n}'>a link</a>.</p><ul><li>one {n}</li><li>two {n}</li></ul>"
            f"</div><footer><button>Like</button></footer></article>"
        )
        parts.append(post)
        size += len(post)
        n += 1
    parts.append("</main></body></html>")
    return "".join(parts)


BIG = forum_page(300_000)  # half a second of work, over any size threshold: in a process
MEDIUM = forum_page(240_000)  # under the old size threshold, yet a third of a second of work
SMALL = "<p>x</p>" * 100  # a few milliseconds of work: a thread's


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(autouse=True)
def fresh_workers() -> Iterator[None]:
    """Every test starts and ends without worker processes."""
    offload.shutdown_workers()
    yield
    offload.shutdown_workers()


def test_cost_is_judged_by_elements_not_size() -> None:
    """Many small elements go to a process; a long text of few elements stays in a thread."""
    assert offload.runs_in_process(MEDIUM, "text/html", "readable")
    assert offload.runs_in_process(BIG, "text/html", "full")
    assert not offload.runs_in_process(SMALL, "text/html", "readable")
    assert offload.expected_cost_s(SMALL, "text/html", "readable") > offload.INLINE_S
    assert offload.expected_cost_s("<p>hello</p>", "text/html", "readable") < offload.INLINE_S
    assert not offload.runs_in_process("word " * 60_000, "text/plain", "readable")
    assert not offload.runs_in_process(MEDIUM, "text/html", "raw")


@pytest.mark.asyncio
async def test_one_timeout_leaves_other_conversions_alone() -> None:
    """A conversion that times out does not break the others running or waiting beside it."""
    short = asyncio.create_task(convert_async(BIG, "text/html", timeout_s=0.1))
    # One runs beside the short one, one waits for a worker.
    others = [asyncio.create_task(convert_async(BIG, "text/html", timeout_s=60)) for _ in range(2)]
    with pytest.raises(ToolTimeout):
        await short
    results = await asyncio.gather(*others, return_exceptions=True)
    assert [r.title if isinstance(r, Extracted) else r for r in results] == ["Thread"] * 2


@pytest.mark.asyncio
async def test_timed_out_conversions_stop_burning_cpu() -> None:
    """Once conversions have timed out, no thread of ours goes on working on them."""
    calls = [convert_async(MEDIUM, "text/html", timeout_s=0.4) for _ in range(12)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert any(isinstance(r, ToolTimeout) for r in results)
    assert all(isinstance(r, Extracted | ToolTimeout) for r in results), results
    started = time.process_time()
    await asyncio.sleep(0.5)
    assert time.process_time() - started < 0.05  # the event loop itself, idle
    assert offload.running_extractions() == 0


@pytest.mark.asyncio
async def test_cancelled_caller_kills_its_worker() -> None:
    """Cancelling the caller of a process conversion kills that worker process at once."""
    task = asyncio.create_task(convert_async(BIG, "text/html", timeout_s=60))
    for _ in range(200):  # wait until the worker is busy with it
        await asyncio.sleep(0.02)
        if offload.running_extractions() and multiprocessing.active_children():
            break
    pids = [w.pid for w in multiprocessing.active_children() if w.pid is not None]
    assert pids
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(100):
        if not any(map(_alive, pids)) and offload.running_extractions() == 0:
            break
        await asyncio.sleep(0.02)
    assert not any(map(_alive, pids))
    assert offload.running_extractions() == 0


@pytest.mark.asyncio
async def test_worker_that_dies_is_a_retryable_error_and_is_replaced() -> None:
    """A worker killed from outside fails its conversion with a typed, retryable error."""
    task = asyncio.create_task(convert_async(BIG, "text/html", timeout_s=60))
    for _ in range(200):
        await asyncio.sleep(0.02)
        if offload.running_extractions() and multiprocessing.active_children():
            break
    for worker in multiprocessing.active_children():
        worker.kill()
    with pytest.raises(ToolError) as info:
        await task
    assert info.value.code == "internal_error"
    assert info.value.retryable
    again = await convert_async(BIG, "text/html", timeout_s=60)
    assert again.title == "Thread"


@pytest.mark.asyncio
async def test_thread_conversions_run_a_few_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many callers there are, only a few thread conversions run at once."""
    running, peak = 0, 0
    lock = threading.Lock()

    def slow_convert(text: str, content_type: str, **kw: Any) -> Extracted:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return Extracted(title=None, text=text, method="passthrough")

    monkeypatch.setattr(offload, "convert", slow_convert)
    results = await asyncio.gather(
        *(convert_async(SMALL, "text/html", timeout_s=30) for _ in range(12))
    )
    assert len(results) == 12
    assert peak == offload.MAX_THREADS


@pytest.mark.asyncio
async def test_queued_conversion_that_runs_out_of_time_never_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A conversion still waiting for a slot when its deadline passes is never run."""
    started: list[str] = []

    def slow_convert(text: str, content_type: str, **kw: Any) -> Extracted:
        started.append(text)
        time.sleep(0.3)
        return Extracted(title=None, text=text, method="passthrough")

    monkeypatch.setattr(offload, "convert", slow_convert)
    calls = [
        convert_async(f"<h1>{i}</h1>{SMALL}", "text/html", timeout_s=0.1)
        for i in range(offload.MAX_THREADS + 3)
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert all(isinstance(r, ToolTimeout) for r in results)
    await asyncio.sleep(0.4)
    assert len(started) == offload.MAX_THREADS


@pytest.mark.asyncio
async def test_tiny_documents_are_converted_on_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A document of a few elements is converted at once, without a hand-off to a thread."""
    threads: list[str] = []

    def recording_convert(text: str, content_type: str, **kw: Any) -> Extracted:
        threads.append(threading.current_thread().name)
        return Extracted(title=None, text=text, method="passthrough")

    monkeypatch.setattr(offload, "convert", recording_convert)
    await convert_async("<p>tiny</p>", "text/html", timeout_s=1)
    await convert_async(SMALL, "text/html", timeout_s=5)
    assert threads == [threading.main_thread().name, "extract-thread"]


EXIT_WHILE_WARMING = """
import sys, time
from insomnia_web.extract.offload import warm_workers
warm_workers()
time.sleep(float(sys.argv[1]))
"""


def test_exit_while_workers_start_is_silent() -> None:
    """A program that exits while the warm-up starts workers writes nothing to stderr."""
    import subprocess
    import sys

    for delay in ("0", "0.001", "0.003", "0.005", "0.008", "0.012"):
        done = subprocess.run(
            [sys.executable, "-c", EXIT_WHILE_WARMING, delay],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, ""), f"after {delay} s"
