"""Rerankers are built once per process, each in a thread of its own, never on the event loop.

A reranker's ``__init__`` loads its model: the built-in ``static`` one takes about half a
second, a plugin's cross-encoder seconds, and every call of every agent shares one event
loop. So the first excerpt search starts the build in a daemon thread before it asks the
provider, and waits for it, without holding the loop, once it has pages to rank; searches
that arrive meanwhile wait for the same build. A build that raises is forgotten, so the
next search tries again. A search gives up waiting after its own bound; the build goes on,
and later searches use what it made. (A daemon thread, not an executor's: one stuck in a
plugin's ``__init__`` does not hold up the end of the process.)
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future

from ..rank.rerank import Reranker

__all__ = ["built_reranker", "start_build"]

_lock = threading.Lock()
_builds: dict[type[Reranker], Future[Reranker]] = {}
"""The build of each reranker class: under way, done, or failed (then replaced)."""


def start_build(cls: type[Reranker], make: Callable[[], Reranker]) -> Future[Reranker]:
    """The build of *cls* under way or done; a new one, running ``make()`` in a thread of its
    own, when there is none or the last one failed. Never waits for it."""
    with _lock:
        build = _builds.get(cls)
        if build is None or (build.done() and build.exception() is not None):
            build = Future()
            build.set_running_or_notify_cancel()  # a waiter that gives up cannot cancel it
            _builds[cls] = build
            worker = threading.Thread(
                target=_run, args=(make, build), name=f"build reranker {cls.name}", daemon=True
            )
            worker.start()
    return build


def _run(make: Callable[[], Reranker], build: Future[Reranker]) -> None:
    try:
        build.set_result(make())
    except BaseException as exc:  # a plugin's code: whatever it raises goes to the waiters
        build.set_exception(exc)


async def built_reranker(
    cls: type[Reranker], make: Callable[[], Reranker], *, wait_s: float
) -> Reranker | None:
    """The one instance of *cls* in this process, made by ``make()`` in a worker thread the
    first time; ``None`` when it is not ready within *wait_s* (the build goes on).

    What the build raised is raised here, to each search that waited for it.
    """
    waiter = asyncio.wrap_future(start_build(cls, make))
    try:
        await asyncio.wait((waiter,), timeout=wait_s)
    finally:
        waiter.cancel()  # done or given up: the build itself runs on
    return waiter.result() if not waiter.cancelled() else None
