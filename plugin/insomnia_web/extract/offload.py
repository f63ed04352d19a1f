"""Run extraction off the event loop, under a deadline.

readability's scoring is pure Python and holds the GIL, and some lxml calls hold it for
long stretches on big pages, so a worker *thread* would still steal the event loop's time.
Extraction therefore runs in a small pool of worker *processes* (spawned, so no lock or
thread state leaks from the parent). Small documents are cheap enough to convert in a
thread, which avoids the cost of shipping them to another process. A conversion that runs
out of time is abandoned: its worker process is terminated and the pool is replaced.
Nothing starts at import: the pool starts on the first large conversion, or earlier when a
caller that expects one soon calls :func:`warm_workers`.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import functools
import multiprocessing
import threading
from typing import Any

from ..errors import ErrorInfo, ToolError, ToolTimeout
from .dispatch import Mode, convert, is_supported_type
from .model import Extracted

__all__ = [
    "PROCESS_THRESHOLD_CHARS",
    "convert_async",
    "convert_pdf_async",
    "process_threshold_chars",
    "shutdown_workers",
    "warm_workers",
]

# Documents at least this long are converted in a worker process, smaller ones in a thread.
PROCESS_THRESHOLD_CHARS = 256 * 1024
_MAX_WORKERS = 2

_threshold = PROCESS_THRESHOLD_CHARS
_lock = threading.Lock()


def process_threshold_chars(value: int | None = None) -> int:
    """Return (and with *value*, set) the size from which documents go to a worker process."""
    global _threshold
    if value is not None:
        _threshold = value
    return _threshold


_pool: concurrent.futures.ProcessPoolExecutor | None = None
_warming = False


def _get_pool() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=_MAX_WORKERS, mp_context=context
            )
        return _pool


def _ready() -> bool:
    """Run in a worker: importing this module there loads the whole extractor."""
    return True


def warm_workers() -> None:
    """Start the worker processes in the background, unless they are already running.

    Returns at once (a background thread spawns the workers, which load the extractor on
    their own) and never raises: a pool that cannot start now fails again, and is reported,
    on the conversion that needs it.
    """
    global _warming
    with _lock:
        if _pool is not None or _warming:
            return
        _warming = True
    try:
        threading.Thread(target=_spawn_workers, name="extract-warm-up", daemon=True).start()
    except Exception:  # no thread to spare: the first large conversion starts the pool
        with _lock:
            _warming = False


def _spawn_workers() -> None:
    global _warming
    try:
        pool = _get_pool()
        for _ in range(_MAX_WORKERS):
            pool.submit(_ready)  # each submission while no worker is idle spawns one
    except Exception:  # noqa: S110 - a pool shut down meanwhile, or no processes: stay cold
        pass
    finally:
        with _lock:
            _warming = False


def _discard_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Terminate *pool*'s workers (one of them is stuck on an abandoned conversion)."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def shutdown_workers() -> None:
    """Stop the worker processes (they are started again on the next large conversion)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown_workers)


async def convert_async(
    text: str,
    content_type: str,
    *,
    url: str | None = None,
    mode: Mode = "readable",
    timeout_s: float | None = None,
) -> Extracted:
    """Like :func:`convert`, without blocking the event loop.

    Raises ``ToolTimeout(phase="extract")`` when the conversion takes longer than
    *timeout_s* seconds, and the same ``ToolError`` as :func:`convert` for unsupported types.
    """
    if not is_supported_type(content_type, mode=mode):
        return convert(text, content_type, url=url, mode=mode)  # raises unsupported_content
    loop = asyncio.get_running_loop()
    call = functools.partial(convert, text, content_type, url=url, mode=mode)
    pool: concurrent.futures.ProcessPoolExecutor | None = None
    if mode == "raw" or len(text) < process_threshold_chars():
        future = loop.run_in_executor(None, call)
    else:
        pool = _get_pool()
        future = loop.run_in_executor(pool, call)
    try:
        return await asyncio.wait_for(future, timeout_s)
    except TimeoutError:
        if pool is not None:
            _discard_pool(pool)
        raise ToolTimeout(
            f"Extracting the page text took longer than {timeout_s:g} s.",
            phase="extract",
            hint="The page is too large or complex to convert; try mode 'raw' or another URL.",
        ) from None


def _pdf(data: bytes, max_chars: int, truncated: bool) -> Extracted | ErrorInfo:
    """Run in a worker: the PDF module (and pypdf) load there on the first PDF.

    A typed failure comes back as its :class:`ErrorInfo` (a ``ToolError`` does not pickle).
    """
    from .pdf import extract_pdf

    try:
        return extract_pdf(data, max_chars=max_chars, truncated=truncated)
    except ToolError as exc:
        return exc.info()


async def convert_pdf_async(
    data: bytes, *, max_chars: int, truncated: bool = False, timeout_s: float | None = None
) -> Extracted:
    """:func:`~.pdf.extract_pdf` in a worker process, under a deadline.

    pypdf is pure Python: in a thread it would hold the event loop's GIL and could not be
    stopped, so every PDF goes to the process pool, whose stuck worker a deadline replaces.
    Raises ``ToolTimeout(phase="extract")`` past *timeout_s*, and the PDF's typed errors.
    """
    loop = asyncio.get_running_loop()
    pool = _get_pool()
    future = loop.run_in_executor(pool, _pdf, data, max_chars, truncated)
    try:
        answer = await asyncio.wait_for(future, timeout_s)
    except TimeoutError:
        _discard_pool(pool)
        raise ToolTimeout(
            f"Reading the PDF took longer than {timeout_s:g} s.",
            phase="extract",
            hint="The document is too large or complex to read in time; try another source.",
        ) from None
    if isinstance(answer, ErrorInfo):
        raise ToolError(
            answer.code,
            answer.message,
            hint=answer.hint,
            retryable=answer.retryable,
            details=answer.details,
        )
    return answer
