"""Run extraction off the event loop, under a deadline, a few conversions at a time.

readability's scoring is pure Python and holds the GIL, and some lxml calls hold it for
long stretches on big pages, so a worker *thread* would still steal the event loop's time,
and a thread cannot be stopped once it has started. A conversion is therefore sent where
its expected cost says (:func:`expected_cost_s`, from the number of elements more than the
size): a tiny one (a few dozen elements) on the event loop itself, a cheap one in a thread,
an expensive one in a worker *process* (spawned, so no lock or thread state leaks from the
parent).

- Each process conversion has a worker of its own for as long as it runs. A conversion
  whose deadline passes, or whose caller is cancelled, kills *its* worker and nothing else:
  the other conversions go on (a new worker is started when one is needed).
- At most :data:`MAX_WORKERS` process and :data:`MAX_THREADS` thread conversions run at
  once, in the whole program; the others wait their turn, in order. Waiting counts
  against the conversion's deadline, and a conversion whose deadline passes (or whose
  caller is cancelled) while it waits never starts. A thread conversion cannot be
  stopped once started, which is why only cheap ones run in threads.
- A worker that dies (killed from outside, out of memory) fails its conversion with a
  retryable ``internal_error``; nothing else notices.

Nothing starts at import: workers start on the first expensive conversion, or earlier when
a caller that expects one soon calls :func:`warm_workers`.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import multiprocessing
import os
import pickle
import queue
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Literal

from ..errors import ErrorInfo, ToolError, ToolTimeout
from .dispatch import Mode, convert, is_supported_type, media_type
from .model import Extracted

__all__ = [
    "INLINE_S",
    "MAX_THREADS",
    "MAX_WORKERS",
    "PROCESS_THRESHOLD_S",
    "WORKER_NICENESS",
    "convert_async",
    "convert_pdf_async",
    "expected_cost_s",
    "process_threshold_s",
    "running_extractions",
    "runs_in_process",
    "shutdown_workers",
    "warm_workers",
]

MAX_WORKERS = 2
"""Most conversions running in worker processes at once."""
MAX_THREADS = 2
"""Most conversions running in threads at once."""
WORKER_NICENESS = 10
"""How much lower worker processes are scheduled than the process they work for."""
PROCESS_THRESHOLD_S = 0.1
"""Conversions expected to take at least this long (seconds) run in a worker process."""
INLINE_S = 0.001
"""Conversions expected to take less than this run on the event loop: a hand-off to a
thread and back costs more (two GIL hand-offs, each slow on a busy machine)."""

# Measured on the benchmark pages (bench/loop_stall.py, bench/extract.py): readability and
# our serializer cost about 17 us per element (up to ~60 us on the worst real pages) and
# up to ~0.5 us per character of text.
_S_PER_ELEMENT = 20e-6
_S_PER_CHAR = 0.4e-6
_HTML_TYPES = frozenset(("text/html", "application/xhtml+xml"))

_threshold_s = PROCESS_THRESHOLD_S


def process_threshold_s(value: float | None = None) -> float:
    """Return (and with *value*, set) the expected cost from which conversions use a process.

    ``0`` sends every conversion to a worker process, ``float("inf")`` none.
    """
    global _threshold_s
    if value is not None:
        _threshold_s = value
    return _threshold_s


def expected_cost_s(text: str, content_type: str, mode: Mode) -> float:
    """About how long (CPU seconds) :func:`convert` will take for this document.

    HTML costs per element (counted as ``<`` signs, which is cheap) and per character;
    JSON is parsed and printed again (per character); the other types pass through.
    """
    if mode == "raw":
        return 0.0
    kind = media_type(content_type)
    if kind in _HTML_TYPES:
        return text.count("<") * _S_PER_ELEMENT + len(text) * _S_PER_CHAR
    if kind == "application/json" or kind.endswith("+json"):
        return len(text) * _S_PER_CHAR
    return 0.0


def runs_in_process(text: str, content_type: str, mode: Mode) -> bool:
    """Whether :func:`convert_async` sends this document to a worker process."""
    return expected_cost_s(text, content_type, mode) >= _threshold_s


# --- worker processes --------------------------------------------------------------------

_Reply = tuple[Literal["ok"], Extracted] | tuple[Literal["tool_error"], ErrorInfo]
_Job = tuple[Callable[..., Extracted], tuple[Any, ...]]
"""A module-level function (sent to a worker by name) and its arguments."""


def _dumps(value: object) -> bytes:
    """*value* pickled to plain bytes.

    ``Connection.send`` pickles into a ``BytesIO`` and sends a view of it; on Python 3.13.0 a
    view still alive when the buffer is collected raises ``BufferError`` in the collector.
    Plain bytes have no such view, and jobs and replies are plain data.
    """
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(data: bytes) -> Any:
    """The value :func:`_dumps` pickled (from our own worker or parent only)."""
    return pickle.loads(data)  # noqa: S301 - the bytes come from our own process pair


def _serve(conn: Connection) -> None:
    """The worker's loop: convert each job received on *conn* and send the outcome back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if hasattr(os, "nice"):  # the event loop's own work comes first
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICENESS)
    while True:
        try:
            function, args = _loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        reply: tuple[str, Any]
        try:
            reply = ("ok", function(*args))
        except ToolError as exc:
            reply = ("tool_error", exc.info())
        except Exception as exc:  # a bug in the extractor: reported, the worker goes on
            message = f"extracting the page failed: {type(exc).__name__}"
            reply = ("tool_error", ToolError("internal_error", message).info())
        conn.send_bytes(_dumps(reply))


class _Worker:
    """One worker process and the pipe to it; used by one conversion at a time."""

    def __init__(self, generation: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(child,), name="insomnia-web-extract", daemon=True
        )
        self.process.start()
        child.close()  # the worker holds the only other end: its death is our EOF
        self.generation = generation
        self.killed = False

    def run(self, job: _Job) -> _Reply:
        """Send *job* and wait for the reply (blocking; raises EOFError if the worker died)."""
        self.conn.send_bytes(_dumps(job))
        reply: _Reply = _loads(self.conn.recv_bytes())
        return reply

    def kill(self) -> None:
        """Stop the worker now, whatever it is doing."""
        self.killed = True
        with contextlib.suppress(OSError, ValueError, AttributeError):  # gone, or not started
            self.process.kill()

    def close(self) -> None:
        """Kill the worker and release its process and pipe (blocking, briefly)."""
        self.kill()
        try:
            self.process.join(timeout=5)
            self.process.close()
        except (OSError, ValueError):
            pass
        self.conn.close()


_lock = threading.Lock()
_idle: list[_Worker] = []
_busy: set[_Worker] = set()
_generation = 0
_warming = False
_warm_up: threading.Thread | None = None
_running = 0


def _take_worker() -> _Worker:
    """An idle worker, or a new one (blocking: spawning takes a moment)."""
    with _lock:
        worker = _idle.pop() if _idle else None
        generation = _generation
    if worker is None:
        worker = _Worker(generation)
    with _lock:
        _busy.add(worker)
    return worker


def _give_back(worker: _Worker) -> None:
    """Keep *worker* for the next conversion, or close it if it is dead or surplus."""
    with _lock:
        _busy.discard(worker)
        keep = (
            not worker.killed
            and worker.generation == _generation
            and len(_idle) < MAX_WORKERS
            and worker.process.is_alive()
        )
        if keep:
            _idle.append(worker)
    if not keep:
        worker.close()


def warm_workers() -> None:
    """Start the worker processes in the background, unless they are already running.

    Returns at once (a background thread spawns the workers, which load the extractor on
    their own) and never raises: a worker that cannot start now fails again, and is
    reported, on the conversion that needs it.
    """
    global _warming, _warm_up
    with _lock:
        if _idle or _busy or _warming:
            return
        _warming = True
    try:
        thread = threading.Thread(target=_spawn_workers, name="extract-warm-up", daemon=True)
        thread.start()
        _warm_up = thread
    except Exception:  # no thread to spare: the first large conversion starts a worker
        with _lock:
            _warming = False


def _spawn_workers() -> None:
    global _warming
    try:
        with _lock:
            generation = _generation
        spawned = [_Worker(generation) for _ in range(MAX_WORKERS)]
        for worker in spawned:
            _give_back(worker)
    except Exception:  # noqa: S110 - no processes to spare: stay cold, fail on use
        pass
    finally:
        with _lock:
            _warming = False


def shutdown_workers() -> None:
    """Stop the idle worker processes; busy ones stop when their conversion ends.

    Workers are started again on the next expensive conversion.
    """
    global _generation
    with _lock:
        _generation += 1
        idle = list(_idle)
        _idle.clear()
    for worker in idle:
        worker.close()


def _kill_all() -> None:
    """At exit: let a warm-up finish starting its workers, then stop every worker.

    A worker whose start is cut off by the exit (the parent not yet done sending it its
    start-up data) would print a traceback on the stderr it shares with the program.
    """
    thread = _warm_up
    if thread is not None:
        thread.join(timeout=10)
    shutdown_workers()
    with _lock:
        busy = list(_busy)
    for worker in busy:
        worker.kill()


atexit.register(_kill_all)


def running_extractions() -> int:
    """How many conversions are running right now (in threads or worker processes)."""
    with _lock:
        return _running


# --- runner threads ----------------------------------------------------------------------


class _Runners:
    """A fixed number of daemon threads that take conversions from one queue, in order.

    There are :data:`MAX_THREADS` runners for thread conversions and :data:`MAX_WORKERS`
    for process conversions (each drives one worker process), in the whole program: that
    is the bound on conversions running at once. A runner is busy until the work has
    really stopped; a conversion abandoned while queued is skipped when its turn comes.
    Handing work over never blocks the event loop (``Thread.start()`` can: it waits until
    the new thread holds the GIL), so the runners start with the first conversion.
    """

    def __init__(self, size: int, name: str) -> None:
        self.size = size
        self.name = name
        self._jobs: queue.SimpleQueue[_Conversion] = queue.SimpleQueue()
        self._started = 0
        self._lock = threading.Lock()

    def submit(self, work: _Conversion) -> None:
        """Queue *work* for the next free runner (raises RuntimeError if none can start)."""
        with self._lock:
            missing = self.size - self._started
            self._started = self.size
        try:
            for _ in range(missing):
                threading.Thread(target=self._serve, name=self.name, daemon=True).start()
        except BaseException:
            with self._lock:
                self._started = 0  # try again next time
            raise
        self._jobs.put(work)

    def _serve(self) -> None:
        while True:
            self._jobs.get().run()  # never raises: run() delivers every outcome


# --- one conversion ----------------------------------------------------------------------


class _Conversion:
    """One conversion, run by a runner thread: in the thread itself, or via a worker.

    The runner settles :attr:`future` on the caller's loop. :meth:`abandon` (the caller
    gave up) skips the work if it has not started, and kills its worker if it has.
    """

    def __init__(self, job: _Job, *, in_process: bool, loop: asyncio.AbstractEventLoop) -> None:
        self.job: _Job | None = job
        self.in_process = in_process
        self.loop = loop
        self.future: asyncio.Future[Extracted] = loop.create_future()
        self._lock = threading.Lock()
        self._abandoned = False
        self._worker: _Worker | None = None

    def abandon(self) -> None:
        """The caller is gone: stop the work if it can be stopped, and never start it."""
        with self._lock:
            self._abandoned = True
            self.job = None  # a queued page is not kept alive for nobody
            worker = self._worker
        if worker is not None:
            worker.kill()

    def run(self) -> None:
        """Do the work (in a runner thread) and deliver its outcome to the caller's loop."""
        global _running
        with self._lock:
            job = self.job
        if job is None:
            return  # abandoned while it waited: never started
        with _lock:
            _running += 1
        outcome: Extracted | BaseException
        try:
            outcome = self._in_worker(job) if self.in_process else job[0](*job[1])
        except BaseException as exc:  # delivered to the caller, who raises it
            outcome = exc
        finally:
            with _lock:
                _running -= 1
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
            self.loop.call_soon_threadsafe(self._settle, outcome)

    def _settle(self, outcome: Extracted | BaseException) -> None:
        if self.future.done():
            return
        if isinstance(outcome, BaseException):
            self.future.set_exception(outcome)
        else:
            self.future.set_result(outcome)

    def _in_worker(self, job: _Job) -> Extracted:
        try:
            worker = _take_worker()
        except Exception as exc:
            raise ToolError(
                "internal_error", f"no extraction worker could be started: {type(exc).__name__}"
            ) from exc
        with self._lock:
            abandoned = self._abandoned
            if not abandoned:
                self._worker = worker
        if abandoned:
            _give_back(worker)
            raise _Abandoned
        try:
            _, value = worker.run(job)
        except (EOFError, OSError) as exc:
            worker.kill()
            raise ToolError(
                "internal_error",
                "the extraction worker stopped before it finished",
                hint="Retry once; if it fails again, fetch the page with mode 'raw'.",
                retryable=True,
            ) from exc
        finally:
            with self._lock:
                self._worker = None
            _give_back(worker)
        if isinstance(value, Extracted):
            return value
        raise ToolError(
            value.code,
            value.message,
            hint=value.hint,
            remedy=value.remedy,
            retryable=value.retryable,
            details=value.details,
        )


def _convert(
    text: str, content_type: str, url: str | None, mode: Mode, content_language: str | None
) -> Extracted:
    return convert(text, content_type, url=url, mode=mode, content_language=content_language)


def _pdf(data: bytes, max_chars: int, truncated: bool) -> Extracted:
    """Read a PDF (the PDF module, and pypdf, load in the worker on the first PDF)."""
    from .pdf import extract_pdf

    return extract_pdf(data, max_chars=max_chars, truncated=truncated)


class _Abandoned(Exception):
    """The caller gave up before the work started (never seen by the caller)."""


_thread_runners = _Runners(MAX_THREADS, "extract-thread")
_process_runners = _Runners(MAX_WORKERS, "extract-process")


async def convert_async(
    text: str,
    content_type: str,
    *,
    url: str | None = None,
    mode: Mode = "readable",
    timeout_s: float | None = None,
    content_language: str | None = None,
) -> Extracted:
    """Like :func:`convert`, without blocking the event loop.

    Raises ``ToolTimeout(phase="extract")`` when the conversion (its wait for a free
    runner included) takes longer than *timeout_s* seconds, ``internal_error``
    (retryable) when its worker process dies, and the same ``ToolError`` as
    :func:`convert` for unsupported types.
    """
    if not is_supported_type(content_type, mode=mode):
        return convert(text, content_type, url=url, mode=mode)  # raises unsupported_content
    cost = expected_cost_s(text, content_type, mode)
    if cost < INLINE_S and cost < _threshold_s:
        return convert(text, content_type, url=url, mode=mode, content_language=content_language)
    job: _Job = (_convert, (text, content_type, url, mode, content_language))
    return await _run(
        job,
        in_process=cost >= _threshold_s,
        timeout_s=timeout_s,
        late=ToolTimeout(
            f"Extracting the page text took longer than {timeout_s or 0:g} s.",
            phase="extract",
            hint="The page is too large or complex to convert; try mode 'raw' or another URL.",
        ),
    )


async def convert_pdf_async(
    data: bytes, *, max_chars: int, truncated: bool = False, timeout_s: float | None = None
) -> Extracted:
    """:func:`~.pdf.extract_pdf` in a worker process, under a deadline.

    pypdf is pure Python: in a thread it would hold the event loop's GIL and could not be
    stopped, so every PDF goes to a worker process, killed if the deadline passes.
    Raises ``ToolTimeout(phase="extract")`` past *timeout_s*, and the PDF's typed errors.
    """
    return await _run(
        (_pdf, (data, max_chars, truncated)),
        in_process=True,
        timeout_s=timeout_s,
        late=ToolTimeout(
            f"Reading the PDF took longer than {timeout_s or 0:g} s.",
            phase="extract",
            hint="The document is too large or complex to read in time; try another source.",
        ),
    )


async def _run(
    job: _Job, *, in_process: bool, timeout_s: float | None, late: ToolTimeout
) -> Extracted:
    """Queue *job* for a runner and wait for it; *late* is raised when time runs out."""
    work = _Conversion(job, in_process=in_process, loop=asyncio.get_running_loop())
    try:
        async with asyncio.timeout(timeout_s):
            (_process_runners if in_process else _thread_runners).submit(work)
            return await work.future
    except ToolError:
        raise
    except TimeoutError:
        work.abandon()
        raise late from None
    except BaseException:
        work.abandon()
        raise
