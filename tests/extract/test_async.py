"""``convert_async``: off-loop extraction with a deadline."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from insomnia_web.errors import ToolError, ToolTimeout
from insomnia_web.extract import convert_async, offload, shutdown_workers, warm_workers
from insomnia_web.extract.offload import process_threshold_s

PAGE = "<html><head><title>A</title></head><body><p>Async hello.</p></body></html>"


@pytest.mark.asyncio
async def test_convert_async_returns_extracted() -> None:
    """A small page is converted off the loop and returns the same result as ``convert``."""
    result = await convert_async(PAGE, "text/html", timeout_s=30)
    assert result.title == "A"
    assert result.text == "Async hello."


@pytest.mark.asyncio
async def test_convert_async_refuses_unsupported_type() -> None:
    """Unsupported types raise ``unsupported_content`` without starting any work."""
    with pytest.raises(ToolError) as caught:
        await convert_async("x", "application/pdf")
    assert caught.value.code == "unsupported_content"


@pytest.mark.asyncio
async def test_convert_async_timeout_raises_tool_timeout() -> None:
    """Running out of time raises ``ToolTimeout`` with phase ``extract``."""
    big = "<html><body>" + "<div><p>some words here</p></div>" * 50_000 + "</body></html>"
    with pytest.raises(ToolTimeout) as caught:
        await convert_async(big, "text/html", timeout_s=0.001)
    assert caught.value.code == "timeout"
    assert caught.value.details["phase"] == "extract"


@pytest.mark.asyncio
async def test_large_page_in_worker_process() -> None:
    """Documents above the cost threshold are converted in a worker process."""
    previous = process_threshold_s()
    process_threshold_s(0)
    try:
        result = await convert_async(PAGE, "text/html", timeout_s=60)
    finally:
        process_threshold_s(previous)
    assert result.text == "Async hello."


@pytest.mark.asyncio
async def test_warm_workers_is_idempotent_and_pool_serves_large_pages() -> None:
    """Warming twice keeps one pool, and a later large conversion runs in its workers."""
    shutdown_workers()
    warm_workers()
    warm_workers()
    previous = process_threshold_s()
    process_threshold_s(0)
    try:
        for _ in range(500):  # the warm-up thread spawns the workers in the background
            if not offload._warming:
                break
            await asyncio.sleep(0.01)
        workers = list(offload._idle)
        assert len(workers) == offload.MAX_WORKERS
        warm_workers()
        result = await convert_async(PAGE, "text/html", timeout_s=60)
    finally:
        process_threshold_s(previous)
    assert result.text == "Async hello."
    assert sorted(map(id, offload._idle)) == sorted(map(id, workers))


def test_import_and_registration_start_no_worker() -> None:
    """Importing the package and registering its tools start no extraction worker process."""
    script = (
        "import multiprocessing\n"
        "from insomnia_web import Runtime\n"
        "from insomnia_web.extract import offload\n"
        "Runtime(load_entrypoints=True)\n"
        "assert not offload._idle and not offload._busy and not offload._warming\n"
        "assert not multiprocessing.active_children()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
