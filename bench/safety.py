"""SafeClient against hostile servers: time and memory stay bounded.

Serves, from 127.0.0.1 in a separate process (so only the client's memory is measured):

- ``bomb``: a 1 GiB gzip bomb, compressed on the fly and streamed (never materialised);
- ``drip``: one byte per second of a 1 MB body;
- ``endless``: an endless chunked body.

For each, prints the wall time against the configured deadline, the outcome, the peak RSS
growth of this process (sampled from /proc every 2 ms) and the tracemalloc peak. Targets:
stop within deadline + 10 %, memory growth under 64 MiB.

Run: ``python bench/safety.py [--deadline S] [--drip-deadline S] [--max-mib N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import threading
import time
import tracemalloc
import zlib
from dataclasses import dataclass

from insomnia_web.config import FetchConfig, UrlPolicyConfig
from insomnia_web.errors import ToolError
from insomnia_web.net import SafeClient, StaticResolver

MiB = 1024 * 1024
BOMB_BYTES = 1024 * MiB
PAGE = os.sysconf("SC_PAGE_SIZE")


# --- server (child process) ------------------------------------------------------------


async def _bomb(writer: asyncio.StreamWriter) -> None:
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(MiB)
    for _ in range(BOMB_BYTES // MiB):
        data = comp.compress(zeros)
        if data:
            writer.write(b"%x\r\n%s\r\n" % (len(data), data))
            await writer.drain()
    tail = comp.flush()
    writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(tail), tail))
    await writer.drain()


async def _drip(writer: asyncio.StreamWriter) -> None:
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n")
    while True:
        writer.write(b"x")
        await writer.drain()
        await asyncio.sleep(1.0)


async def _endless(writer: asyncio.StreamWriter) -> None:
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (64 * 1024, b"e" * 64 * 1024)
    while True:
        writer.write(chunk)
        await writer.drain()


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        path = head.split(b" ", 2)[1].decode()
        await {"/bomb": _bomb, "/drip": _drip, "/endless": _endless}[path](writer)
    except (ConnectionError, asyncio.IncompleteReadError, KeyError):
        pass
    finally:
        writer.close()


async def _serve() -> None:
    server = await asyncio.start_server(_handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


# --- client (this process) -------------------------------------------------------------


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


class _RssSampler(threading.Thread):
    """Samples this process's RSS until stopped; keeps the peak."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = _rss()
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(0.002):
            self.peak = max(self.peak, _rss())

    def stop(self) -> int:
        self._stop_event.set()
        self.join()
        return max(self.peak, _rss())


@dataclass
class Row:
    case: str
    deadline_s: float
    wall_s: float
    outcome: str
    rss_growth_mib: float
    traced_peak_mib: float

    @property
    def ok(self) -> bool:
        return self.wall_s <= self.deadline_s * 1.1 and self.rss_growth_mib < 64


async def _measure(client: SafeClient, case: str, url: str, deadline: float) -> Row:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = _rss()
    sampler = _RssSampler()
    sampler.start()
    started = time.monotonic()
    try:
        result = await client.fetch(url, timeout_s=deadline)
        outcome = f"{result.bytes_read // MiB} MiB kept, truncated={result.truncated}"
    except ToolError as exc:
        outcome = f"{exc.code}" + (f" ({exc.details['phase']})" if "phase" in exc.details else "")
    wall = time.monotonic() - started
    peak = sampler.stop()
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Row(case, deadline, wall, outcome, (peak - base) / MiB, traced / MiB)


async def _bench(port: int, args: argparse.Namespace) -> list[Row]:
    client = SafeClient(
        FetchConfig(max_response_bytes=args.max_mib * MiB),
        UrlPolicyConfig(allow_cidrs=["127.0.0.1/32"], ports=[port]),
        resolver=StaticResolver({"bench.test": ["127.0.0.1"]}),
    )
    base = f"http://bench.test:{port}"
    async with client:
        await client.fetch(f"{base}/endless", max_bytes=1024)  # warm up the session
        return [
            await _measure(client, "1 GiB gzip bomb", f"{base}/bomb", args.deadline),
            await _measure(client, "1 byte/s drip", f"{base}/drip", args.drip_deadline),
            await _measure(client, "endless chunked", f"{base}/endless", args.deadline),
        ]


def _table(rows: list[Row], max_mib: int) -> str:
    header = (
        f"{'case':<18} {'deadline s':>10} {'wall s':>7} {'wall/deadline':>13} "
        f"{'RSS growth MiB':>14} {'traced peak MiB':>15}  {'ok':<3} outcome"
    )
    lines = [f"SafeClient under hostile servers (max_response_bytes = {max_mib} MiB)", header]
    lines.append("-" * len(header))
    for r in rows:
        lines.append(
            f"{r.case:<18} {r.deadline_s:>10.1f} {r.wall_s:>7.2f} {r.wall_s / r.deadline_s:>13.2f} "
            f"{r.rss_growth_mib:>14.1f} {r.traced_peak_mib:>15.1f}  {'yes' if r.ok else 'NO':<3} "
            f"{r.outcome}"
        )
    lines.append("targets: wall <= deadline * 1.10, RSS growth < 64 MiB")
    return "\n".join(lines)


def main() -> int:
    """Run the benchmark (or, with --serve, the hostile server) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--deadline", type=float, default=10.0, help="deadline of bomb/endless")
    parser.add_argument("--drip-deadline", type=float, default=3.0, help="deadline of the drip")
    parser.add_argument("--max-mib", type=int, default=5, help="max_response_bytes in MiB")
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve())
        return 0
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        rows = asyncio.run(_bench(port, args))
    finally:
        server.terminate()
        server.wait(timeout=5)
    print(_table(rows, args.max_mib))
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
