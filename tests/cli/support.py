"""Running the real ``insomnia-web`` console script, on pipes or on a pseudo-terminal.

The loopback site answers on 127.0.0.1 only; the CLI reaches it through host names that
the manifest's ``resolve`` table (or ``--resolve``) maps there, so nothing leaves the
machine.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

__all__ = [
    "ARTICLE",
    "SLOW_S",
    "Terminal",
    "console_script",
    "install_plugin",
    "loopback_site",
    "on_terminal",
    "run",
    "write_manifest",
]

ARTICLE = """<!doctype html><html><head><title>CLI page</title></head><body>
<article><h1>Fetched from the command line</h1>
<p>The command prints a metadata header and the page text between the delimiters, and this
paragraph is long enough to be the main content of the page without any doubt at all.</p>
<p>A second paragraph gives the page enough text to be cut into slices by a small limit of
characters, so that continuing it from a start index can be shown from the command line.</p>
</article></body></html>"""

SLOW_S = 1.6
"""How long the slow page takes to arrive (in chunks)."""


class _Site(BaseHTTPRequestHandler):
    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        host = self.headers.get("Host", "")
        port = host.rsplit(":", 1)[-1]
        html = {"Content-Type": "text/html; charset=utf-8"}
        if self.path == "/":
            self._send(200, ARTICLE.encode(), html)
        elif self.path.startswith("/moved"):
            target = self.path.removeprefix("/moved/")
            self._send(302, b"", {"Location": f"http://{target}:{port}/"})
        elif self.path == "/slow":
            self._slow()
        elif self.path.startswith("/search"):
            results = [{"url": f"http://site.test:{port}/", "title": "CLI page", "content": "x"}]
            body = json.dumps({"query": "q", "results": results}).encode()
            self._send(200, body, {"Content-Type": "application/json"})
        else:
            self._send(404, b"not here", {"Content-Type": "text/plain"})

    def _slow(self) -> None:
        body = ARTICLE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        steps = 10
        size = len(body) // steps + 1
        for i in range(0, len(body), size):
            self.wfile.write(body[i : i + size])
            self.wfile.flush()
            time.sleep(SLOW_S / steps)

    def log_message(self, format: str, *args: object) -> None:
        return None


@contextmanager
def loopback_site() -> Iterator[int]:
    """Serve the test site on 127.0.0.1 in a thread; yields its port."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def install_plugin(folder: Path, name: str, source: str) -> dict[str, str]:
    """Put module *name* (*source*) and a dist-info declaring it in the ``insomnia``
    entry-point group in *folder*; the environment that loads it, and only it, from there."""
    (folder / f"{name}.py").write_text(source)
    dist = folder / f"{name}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[insomnia]\n{name} = {name}\n")
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path, "INSOMNIA_PLUGINS": name}


def write_manifest(path: Path, port: int, *, extra: str = "", allow: Sequence[str] = ()) -> Path:
    """A manifest for the loopback site: its hosts resolve to 127.0.0.1 on *port* only."""
    hosts = ("site.test", "other.test", "denied.test")
    rules = json.dumps(["WebFetch(domain:site.test)", *allow])
    path.write_text(
        "[web.url_policy]\n"
        'allow_cidrs = ["127.0.0.1/32"]\n'
        f"ports = [{port}]\n"
        "[web.url_policy.resolve]\n"
        + "".join(f'"{h}" = ["127.0.0.1"]\n' for h in hosts)
        + "[web.cache]\n"
        f"path = {json.dumps(str(path.parent / 'cache.sqlite3'))}\n"
        "[permissions]\n"
        f"allow = {rules}\n"
        'deny = ["WebFetch(domain:denied.test)"]\n' + extra
    )
    return path


def console_script() -> list[str]:
    """The installed ``insomnia-web`` next to this interpreter (else ``python -m``)."""
    script = Path(sys.executable).parent / "insomnia-web"
    return [str(script)] if script.exists() else [sys.executable, "-m", "insomnia_web"]


def run(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    stdin: str = "",
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """Run ``insomnia-web ARGS`` with pipes for stdin, stdout and stderr."""
    return subprocess.run(
        [*console_script(), *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


class Terminal:
    """A console-script process whose stdin and stderr are a pseudo-terminal."""

    def __init__(self, proc: subprocess.Popen[bytes], master: int) -> None:
        self.proc = proc
        self.master = master
        self.screen = ""

    def read_until(self, text: str, timeout: float = 30) -> str:
        """Read the terminal until *text* appears (fails after *timeout* seconds)."""
        deadline = time.monotonic() + timeout
        while text not in self.screen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} not shown; the terminal shows:\n{self.screen}"
            if select.select([self.master], [], [], min(left, 0.2))[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the process closed the terminal
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    continue
                self.screen += chunk.decode(errors="replace")
        return self.screen

    def drain(self) -> str:
        """Whatever the terminal shows by now."""
        while select.select([self.master], [], [], 0.1)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.screen += chunk.decode(errors="replace")
        return self.screen

    def type(self, text: str) -> None:
        """Type *text* on the terminal."""
        os.write(self.master, text.encode())

    def interrupt(self) -> None:
        """Ctrl-C: SIGINT to the process."""
        self.proc.send_signal(signal.SIGINT)


@contextmanager
def on_terminal(*args: str, cwd: Path) -> Iterator[Terminal]:
    """Start ``insomnia-web ARGS`` with stdin and stderr on a pseudo-terminal."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*console_script(), *args],
        cwd=cwd,
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=slave,
        start_new_session=True,
    )
    os.close(slave)
    term = Terminal(proc, master)
    try:
        yield term
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()
        os.close(master)
