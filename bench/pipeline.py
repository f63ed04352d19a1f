"""Excerpt search end to end on a simulated web: wall time, cache hits, memory, answer recall.

Everything runs on 127.0.0.1: an aiohttp server answers for fake host names (``p1.test``...,
mapped by the manifest's ``url_policy.resolve``) with real article pages from the benchmark
data (synthetic pages if the data is missing), each after its own latency; one page never
finishes and one answers HTTP 500. A ``MockProvider`` plays the search engine. WebSearch runs
through the reference :class:`~insomnia_web.Runtime` exactly as a host would call it.

Printed:

1. an excerpt search with five healthy pages (50-400 ms): its wall time against the slowest
   page it used (that page fetched and extracted alone) and against fetching and extracting
   the same pages one after another; and the first search of the process, which also starts
   the extraction worker processes;
1b. ten results on one host (``pages = 10``), per ``per_host_concurrency`` and
   ``max_pages_per_host``, against the slowest page read (alone); the five pages the
   default reads, each on its own host; and ten results on ten hosts. After a warm-up
   search, each measured search waits until the per-host rate has recovered from the
   previous one (``web.fetch.host_rate_limit_per_s``), as for a host not read in the last
   few seconds;
2. an excerpt search with a page that never finishes and one that fails: wall time against
   the deadline;
3. the repeat of the same search (a cache hit, in process);
4. memory of one excerpt search: the peak resident size of every process involved (this
   one, which also serves the simulated web, and each extraction worker; Linux ``VmHWM``,
   reset before the search through ``/proc/PID/clear_refs``), and its peak traced Python
   memory (tracemalloc);
5. the answer-recall table of ``bench/recall.py`` (ours vs BM25 vs lead at 500/1000/2000).

    python bench/pipeline.py [--runs 5] [--deadline 1.0] [--no-recall]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import importlib
import os
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import msgspec
from aiohttp import web

from insomnia_web import Runtime, parse_manifest
from insomnia_web.extract import convert_async, shutdown_workers
from insomnia_web.net import SafeClient
from insomnia_web.search.base import (
    SearchHit,
    SearchRequest,
)
from insomnia_web.testing import MockProvider, ProviderPlugin

BENCH_DIR = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"
HEALTHY_MS = (50, 120, 200, 300, 400)
SAME_HOST_MS = (60, 90, 120, 150, 180, 210, 240, 270, 300, 320)
SAME_HOST_TRIED = ((6, 10), (10, 10), (6, 6), (None, None))
"""(per_host_concurrency, max_pages_per_host) rows of the one-host case (None: default)."""
QUERY_FALLBACK = "how long do tortoises live"


class SimPage(msgspec.Struct, kw_only=True):
    """One page of the simulated web."""

    host: str
    title: str
    html: str
    delay_s: float = 0.0
    hang: bool = False
    status: int = 200


def _synthetic(i: int) -> tuple[str, str]:
    paragraphs = "".join(
        f"<p>Paragraph {j} of page {i}: tortoises live long lives, often {80 + i + j} years, "
        "and giant tortoises are among the longest-lived vertebrates.</p>"
        for j in range(60)
    )
    title = f"Tortoise page {i}"
    return title, f"<html><head><title>{title}</title></head><body><article>{paragraphs}"


def load_pages(n: int) -> tuple[str, list[tuple[str, str]]]:
    """A query and *n* (title, html) pages: the dev set's first aeb answer page and others."""
    try:
        recall = _recall_module()
        questions = msgspec.json.decode((BENCH_DIR / "qa-dev.json").read_bytes())
        aeb = [q for q in questions if q["dataset"] == "aeb"]
        chosen = [aeb[0]["page"]] + [q["page"] for q in aeb[1:] if q["page"] != aeb[0]["page"]]
        pages = []
        for sha in list(dict.fromkeys(chosen))[:n]:
            path = recall.DATA_DIR / "aeb" / "html" / f"{sha}.html.gz"
            html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
            found = re.search(r"<title[^>]*>([^<]{1,200})</title>", html, re.IGNORECASE)
            pages.append((found.group(1).strip() if found else sha[:12], html))
        if len(pages) == n:
            return str(aeb[0]["question"]), pages
    except (OSError, KeyError, IndexError, ImportError, msgspec.DecodeError) as exc:
        print(f"# benchmark pages unavailable ({exc!r}); using synthetic pages")
    return QUERY_FALLBACK, [_synthetic(i) for i in range(n)]


def _recall_module() -> Any:
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    return importlib.import_module("recall")


class SimWeb:
    """An aiohttp server answering for every fake host from a page table."""

    def __init__(self) -> None:
        self.pages: dict[str, SimPage] = {}
        self.release = asyncio.Event()
        self.port = 0

    def url(self, key: str) -> str:
        """The URL of a page: *key* is a host (its ``/article``) or ``host/path``."""
        host, _, path = key.partition("/")
        return f"http://{host}:{self.port}/{path or 'article'}"

    async def handle(self, request: web.Request) -> web.Response:
        """Answer after the page's latency; a hanging page waits until shutdown. Every host's
        robots.txt allows everything, at once."""
        host = (request.host or "").split(":")[0]
        if request.path == "/robots.txt":
            return web.Response(text="User-agent: *\nAllow: /\n", content_type="text/plain")
        page = self.pages.get(f"{host}{request.path}") or self.pages[host]
        if page.hang:
            await self.release.wait()
        await asyncio.sleep(page.delay_s)
        return web.Response(
            status=page.status, text=page.html, content_type="text/html", charset="utf-8"
        )

    @asynccontextmanager
    async def running(self) -> AsyncIterator[SimWeb]:
        """Serve on 127.0.0.1 (port 0) for the duration of the block."""
        app = web.Application()
        app.router.add_get("/{path:.*}", self.handle)
        runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        self.port = int(server.sockets[0].getsockname()[1])
        try:
            yield self
        finally:
            self.release.set()
            await runner.cleanup()


class Bench:
    """The simulated web, the provider that points at it, and a runtime per scenario."""

    def __init__(self, query: str, pages: list[tuple[str, str]], cache_dir: Path) -> None:
        self.query = query
        self.raw = pages
        self.web = SimWeb()
        self.hosts: list[str] = []
        self.cache_dir = cache_dir

    def scenario(self, name: str, specs: list[tuple[float, bool, int]]) -> list[str]:
        """Lay out pages (latency s, hangs, status) as hosts ``<name>N.test``; return hosts."""
        hosts = []
        for i, ((title, html), (delay, hang, status)) in enumerate(
            zip(self.raw, specs, strict=False)
        ):
            host = f"{name}{i + 1}.test"
            self.web.pages[host] = SimPage(
                host=host, title=title, html=html, delay_s=delay, hang=hang, status=status
            )
            hosts.append(host)
        return hosts

    def same_host(self, host: str, delays_s: list[float]) -> list[str]:
        """Lay out one page per latency under one *host*; return their keys (``host/pN``)."""
        keys = []
        for i, ((title, html), delay) in enumerate(zip(self.raw, delays_s, strict=False)):
            key = f"{host}/p{i + 1}"
            self.web.pages[key] = SimPage(host=host, title=title, html=html, delay_s=delay)
            keys.append(key)
        return keys

    def runtime(
        self,
        hosts: list[str],
        *,
        deadline_s: float,
        tag: str,
        per_host: int | None = None,
        max_pages: int | None = None,
    ) -> Runtime:
        """A runtime whose provider returns *hosts* (page keys) and whose policy reaches the
        server; *per_host* overrides ``per_host_concurrency`` and *max_pages*
        ``max_pages_per_host``."""
        urls = [self.web.url(h) for h in hosts]
        titles = [self.web.pages[h].title for h in hosts]
        pipeline: dict[str, Any] = {"pages": len(hosts), "deadline_s": deadline_s}
        if per_host is not None:
            pipeline["per_host_concurrency"] = per_host
        if max_pages is not None:
            pipeline["max_pages_per_host"] = max_pages
        names = sorted({h.partition("/")[0] for h in hosts})

        def answer(request: SearchRequest) -> list[SearchHit]:
            return [
                SearchHit(title=t, url=u, snippet=f"{t}: a page about {request.query}")
                for t, u in zip(titles, urls, strict=True)
            ]

        provider = MockProvider.named("sim", answer)

        manifest = parse_manifest(
            {
                "web": {
                    "search": {"provider": "sim", "count": len(hosts)},
                    "pipeline": pipeline,
                    "fetch": {"timeout_s": 30},
                    "url_policy": {
                        "allow_cidrs": [f"{LOOPBACK}/32"],
                        "ports": [self.web.port],
                        "resolve": {h: [LOOPBACK] for h in names},
                    },
                    "cache": {"path": str(self.cache_dir / f"{tag}.sqlite3")},
                },
                "permissions": {"allow": ["WebSearch", "WebFetch"]},
            }
        )
        return Runtime(
            manifest,
            plugins=[ProviderPlugin(provider, name="bench-sim-provider")],
            load_entrypoints=False,
        )

    async def sequential(self, hosts: list[str]) -> list[float]:
        """Seconds to fetch and extract each page alone, one after another."""
        manifest = parse_manifest(
            {
                "web": {
                    "url_policy": {
                        "allow_cidrs": [f"{LOOPBACK}/32"],
                        "ports": [self.web.port],
                        "resolve": {h.partition("/")[0]: [LOOPBACK] for h in hosts},
                    }
                }
            }
        )
        times = []
        async with SafeClient(manifest.web.fetch, manifest.web.url_policy) as client:
            for host in hosts:
                start = time.perf_counter()
                result = await client.fetch(self.web.url(host))
                text, _ = result.decode()
                await convert_async(text, result.content_type, url=result.final_url)
                times.append(time.perf_counter() - start)
        return times


async def _search(rt: Runtime, query: str, **extra: Any) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    result = await rt.call_tool("WebSearch", {"query": query, **extra})
    elapsed = time.perf_counter() - start
    if not result.ok or result.output is None:
        raise SystemExit(f"search failed: {result.text}")
    return elapsed, result.output


def _descendants(pid: int) -> list[int]:
    """*pid*'s child processes, their children, and so on (Linux ``/proc``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            found += [int(child), *_descendants(int(child))]
    return found


def _processes() -> list[int]:
    """This process and all its descendants (the extraction workers among them)."""
    return [os.getpid(), *_descendants(os.getpid())]


def _status_kib(pid: int, field: str) -> int:
    """A ``kB`` field of ``/proc/PID/status`` (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def reset_peaks(pids: list[int]) -> bool:
    """Reset the peak resident size of *pids* to their current size; False where refused."""
    ok = True
    for pid in pids:
        try:
            Path(f"/proc/{pid}/clear_refs").write_text("5")
        except OSError:
            ok = False
    return ok


def peak_rss_mib(pids: list[int]) -> dict[int, float]:
    """Peak resident size (``VmHWM``) of each of *pids*, in MiB."""
    return {pid: _status_kib(pid, "VmHWM") / 1024 for pid in pids}


def _role(pid: int) -> str:
    """What a child process is, from its command line."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "child (gone)"
    if b"resource_tracker" in cmdline:
        return "multiprocessing resource tracker"
    return "extraction worker" if b"spawn_main" in cmdline else "child"


def _pct(value: float, base: float) -> str:
    return f"{100 * (value / base - 1):+.0f}%"


async def same_host_section(bench: Bench, query: str, runs: int) -> None:
    """Ten results on one host, per ``per_host_concurrency`` and ``max_pages_per_host``; the
    same pages on other hosts at the defaults. Each measured search starts once the per-host
    rate has recovered from the one before."""
    one_host = bench.same_host("news.test", [ms / 1000 for ms in SAME_HOST_MS])
    many = bench.scenario("many", [(ms / 1000, False, 200) for ms in SAME_HOST_MS])
    five = many[:5]  # the pages one host's default round reads, each on a host of its own
    alone = [statistics.median(t) for t in zip(*[await bench.sequential(one_host)
                                                 for _ in range(runs)], strict=True)]  # fmt: skip
    print(f"\n## 1b. ten results, latencies {SAME_HOST_MS[0]}-{SAME_HOST_MS[-1]} ms "
          f"(median of {runs} runs)\n")  # fmt: skip
    print("| results | per_host_concurrency | max_pages_per_host | pages read | wall ms "
          "| vs slowest page read, alone |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    defaults = parse_manifest({}).web.pipeline
    rows = [("one host", one_host, ph, mp) for ph, mp in SAME_HOST_TRIED]
    rows.append(("five hosts (the same 5 pages)", five, None, None))
    rows.append(("ten hosts", many, None, None))
    fetch = parse_manifest({}).web.fetch
    for n, (label, keys, per_host, max_pages) in enumerate(rows):
        # The per-host rate recovers from one search's requests in this long.
        per_host_keys = max(Counter(k.partition("/")[0] for k in keys).values())
        recover_s = per_host_keys / fetch.host_rate_limit_per_s
        walls, read = [], []
        rt = bench.runtime(keys, deadline_s=10.0, tag=f"same-{n}", per_host=per_host,
                           max_pages=max_pages)  # fmt: skip
        async with rt:
            await _search(rt, query, force_fresh=True)  # warm: robots.txt read, client open
            for _ in range(runs):
                await asyncio.sleep(recover_s)
                wall, out = await _search(rt, query, force_fresh=True)
                walls.append(wall)
                read = [j for j, p in enumerate(out["pages"]) if p["status"] == "ok"]
        wall = statistics.median(walls)
        slowest = max(alone[j] for j in read) if read else float("nan")
        ph = f"{per_host}" if per_host is not None else f"{defaults.per_host_concurrency} (default)"
        mp = f"{max_pages}" if max_pages is not None else f"{defaults.max_pages_per_host} (default)"
        print(f"| {label} | {ph} | {mp} | {len(read)} | {1000 * wall:.0f} | "
              f"{wall / slowest:.2f}x |")  # fmt: skip
    print("\ntargets at the defaults: one host <= 1.3x, ten hosts <= 1.15x")


async def run(args: argparse.Namespace) -> None:
    """Run the three scenarios and print their tables."""
    query, pages = load_pages(len(SAME_HOST_MS))
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(query, pages, Path(tmp))
        healthy = bench.scenario("ok", [(ms / 1000, False, 200) for ms in HEALTHY_MS])
        faulty = bench.scenario(
            "bad", [(0.05, False, 200), (0.15, False, 200), (0.4, False, 200), (0, True, 200),
                    (0.1, False, 500)]
        )  # fmt: skip
        async with bench.web.running():
            cold_rt = bench.runtime(healthy, deadline_s=10.0, tag="cold")
            async with cold_rt:  # the first search starts the extraction worker processes
                cold, _ = await _search(cold_rt, query)
            print(f"# query: {query!r}; {len(healthy)} pages, latencies {HEALTHY_MS} ms")
            print(f"# page sizes: {[len(h) // 1024 for _, h in pages]} KiB of HTML\n")
            rows: list[tuple[float, float, float]] = []
            rt = bench.runtime(healthy, deadline_s=10.0, tag="healthy")
            async with rt:
                for _ in range(args.runs):
                    wall, out = await _search(rt, query, force_fresh=True)
                    seq = await bench.sequential(healthy)
                    used = [i for i, p in enumerate(out["pages"]) if p["status"] == "ok"]
                    rows.append((wall, max(seq[i] for i in used), sum(seq)))
                hit_times = [(await _search(rt, query))[0] for _ in range(args.runs * 4)]
                _, hit = await _search(rt, query)
            wall, slowest, seq_total = (statistics.median(c) for c in zip(*rows, strict=True))
            print("## 1. excerpt search, 5 healthy pages (median of", args.runs, "runs)\n")
            print("| measure | ms | vs excerpt search |")
            print("|---|---|---|")
            print(f"| excerpt search (WebSearch, wall) | {1000 * wall:.0f} | - |")
            print(f"| first search of the process (starts extraction workers) | "
                  f"{1000 * cold:.0f} | {cold / wall:.1f}x |")  # fmt: skip
            print(f"| slowest page it used, alone | {1000 * slowest:.0f} | {_pct(wall, slowest)} |")
            print(f"| same pages one after another | {1000 * seq_total:.0f} | "
                  f"{seq_total / wall:.1f}x slower |")  # fmt: skip
            verdict = "PASS" if wall <= slowest * 1.15 else "FAIL"
            print(f"\nexcerpts: {len(out['excerpts'])}, tokens: {out['tokens']}; "
                  f"target: wall <= slowest + 15% -> {verdict}")  # fmt: skip

            await same_host_section(bench, query, args.runs)

            rt = bench.runtime(faulty, deadline_s=args.deadline, tag="faulty")
            async with rt:
                walls = []
                for _ in range(args.runs):
                    wall, out = await _search(rt, query, force_fresh=True)
                    walls.append(wall)
            statuses = ", ".join(f"{p['status']}:{p['error_code'] or ''}" for p in out["pages"])
            worst = max(walls)
            print(f"\n## 2. a page that never finishes and one HTTP 500, deadline "
                  f"{args.deadline:g} s\n")  # fmt: skip
            print("| measure | ms | vs deadline |")
            print("|---|---|---|")
            print(f"| median wall | {1000 * statistics.median(walls):.0f} | "
                  f"{_pct(statistics.median(walls), args.deadline)} |")  # fmt: skip
            print(f"| worst wall | {1000 * worst:.0f} | {_pct(worst, args.deadline)} |")
            verdict = "PASS" if worst <= args.deadline * 1.1 else "FAIL"
            print(f"\npages: {statuses}; excerpts: {len(out['excerpts'])}; "
                  f"target: worst <= deadline + 10% -> {verdict}")  # fmt: skip

            print("\n## 3. repeat of the same search (cache hit, in process)\n")
            print("| measure | ms |")
            print("|---|---|")
            print(f"| first repeat | {1000 * hit_times[0]:.2f} |")
            median_hit = statistics.median(hit_times)
            print(f"| median of {len(hit_times)} repeats | {1000 * median_hit:.2f} |")
            print(f"| worst | {1000 * max(hit_times):.2f} |")
            print(f"\ncache: {hit['cache']}; target: median < 10 ms -> "
                  f"{'PASS' if median_hit < 0.010 else 'FAIL'}")  # fmt: skip

            rt = bench.runtime(healthy, deadline_s=10.0, tag="memory")
            async with rt:
                await _search(rt, query, force_fresh=True)  # workers started, client open
                pids = _processes()
                reset = reset_peaks(pids)
                tracemalloc.start()
                await _search(rt, query, force_fresh=True)
                _, peak = tracemalloc.get_traced_memory()
                tracemalloc.stop()
                peaks = peak_rss_mib(_processes())
            size = sum(len(h) for _, h in pages) / 2**20
            print("\n## 4. memory of one excerpt search\n")
            print("| process | peak resident MiB |\n|---|---|")
            for pid, mib in peaks.items():
                kind = "this one (runtime and simulated web)" if pid == os.getpid() else _role(pid)
                print(f"| {kind} ({pid}) | {mib:.1f} |")
            print(f"| all {len(peaks)}, summed | {sum(peaks.values()):.1f} |")
            since = "during the search" if reset else "since each process started"
            print(f"\npeaks {since}; {size:.1f} MiB of HTML fetched; peak traced Python "
                  f"memory of this process: {peak / 2**20:.1f} MiB")  # fmt: skip
    shutdown_workers()


def main() -> None:
    """Parse arguments, run the pipeline benchmark, then the recall benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="searches per measurement")
    parser.add_argument("--deadline", type=float, default=1.0, help="deadline_s of scenario 2")
    parser.add_argument("--no-recall", action="store_true", help="skip the answer-recall table")
    args = parser.parse_args()
    asyncio.run(run(args))
    if not args.no_recall:
        print("\n## 5. answer recall (bench/recall.py)\n")
        recall = _recall_module()
        saved = sys.argv
        sys.argv = ["recall.py"]
        try:
            recall.main()
        finally:
            sys.argv = saved


if __name__ == "__main__":
    main()
