"""The CLI's fetch, extract and cache commands, run through ``cli.main`` like a user would.

``fetch`` talks to a loopback HTTP server in a background thread (the CLI runs its own
event loop); ``site.test`` reaches it only through ``--resolve site.test:127.0.0.1``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from insomnia_web.cli import main
from insomnia_web.modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END

ARTICLE = """<!doctype html><html><head><title>CLI page</title></head><body>
<nav><a href="/">Home</a> <a href="/menu">Site menu link</a></nav>
<article><h1>Fetched from the command line</h1>
<p>The command prints a metadata header and the page text between the delimiters, and this
paragraph is long enough to be the main content of the page without any doubt at all.</p>
<table><tr><th>Key</th><th>Meaning</th></tr>
<tr><td>status</td><td>the HTTP status code of the final response</td></tr>
<tr><td>type</td><td>the media type the server declared or the one sniffed</td></tr></table>
</article></body></html>"""


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path != "/":
            self.send_error(404)
            return
        body = ARTICLE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture
def server() -> Iterator[int]:
    """A loopback HTTP server in a thread; yields its port."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture
def manifest(tmp_path: Path, server: int) -> Path:
    """A manifest allowing 127.0.0.1 on the server's port and WebFetch on site.test only."""
    path = tmp_path / "insomnia.toml"
    path.write_text(
        "[web.url_policy]\n"
        'allow_cidrs = ["127.0.0.1/32"]\n'
        f"ports = [{server}]\n"
        "[web.cache]\n"
        f"path = {json.dumps(str(tmp_path / 'cache.sqlite3'))}\n"
        "[permissions]\n"
        'allow = ["WebFetch(domain:site.test)"]\n'
    )
    return path


# --- fetch ------------------------------------------------------------------------------------


def test_fetch_prints_header_and_delimited_text(
    manifest: Path, server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """fetch prints the metadata header, then the page's title and text between the
    delimiters."""
    url = f"http://site.test:{server}/"
    code = main(["--manifest", str(manifest), "fetch", url, "--resolve", "site.test:127.0.0.1"])
    out = capsys.readouterr().out
    assert code == 0, out
    header, _, rest = out.partition(UNTRUSTED_BEGIN + "\n")
    assert header.startswith(f"URL: {url}\n")
    assert "Status: 200 · Type: text/html; charset=utf-8" in header
    body = rest.split("\n" + UNTRUSTED_END)[0]
    assert body.startswith('Title: "CLI page"\n\n# Fetched from the command line')
    assert "| Key | Meaning |\n| --- | --- |" in body
    assert "Site menu link" not in body


def test_fetch_json_and_continuation(
    manifest: Path, server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json prints the ToolResult; --start-index continues from the stored snapshot."""
    base = ["--manifest", str(manifest), "--json", "fetch", f"http://site.test:{server}/"]
    resolve = ["--resolve", "site.test:127.0.0.1"]
    assert main([*base, "--max-chars", "100", *resolve]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["ok"] is True
    nxt = first["output"]["next_start_index"]
    assert first["output"]["truncated"] is True
    assert f"start_index={nxt}" in first["text"]
    assert main([*base, "--start-index", str(nxt), *resolve]) == 0
    second = json.loads(capsys.readouterr().out)["output"]
    assert second["cache"]["hit"] is True
    assert second["snapshot"] == first["output"]["snapshot"]
    assert second["start_index"] == nxt


def test_fetch_of_an_ask_host_without_a_terminal_is_denied(
    manifest: Path, server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a terminal and without --yes an asked call is denied (exit 1); --yes allows it."""
    args = ["--manifest", str(manifest), "fetch", f"http://other.test:{server}/"]
    args += ["--resolve", "other.test:127.0.0.1"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Error [permission_denied]" in captured.err
    assert main([*args, "--yes"]) == 0
    assert "# Fetched from the command line" in capsys.readouterr().out


# --- extract ----------------------------------------------------------------------------------


def test_extract_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One file prints just its text, decoded with its meta charset."""
    page = tmp_path / "ru.html"
    page.write_bytes(
        '<html><head><meta charset="windows-1251"><title>Заголовок</title></head>'
        "<body><h1>Привет</h1><p>Текст страницы.</p></body></html>".encode("cp1251")
    )
    assert main(["extract", str(page)]) == 0
    assert capsys.readouterr().out == "# Привет\n\nТекст страницы.\n"  # noqa: RUF001


def test_extract_several_files_and_modes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Several files get a '==> FILE <==' line each; --mode full keeps navigation text."""
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    a.write_text(ARTICLE)
    b.write_text("<p>Second file.</p>")
    assert main(["extract", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"==> {a} <==\n# Fetched from the command line")
    assert f"\n\n==> {b} <==\nSecond file.\n" in out
    assert "Site menu link" not in out
    assert main(["extract", "--mode", "full", "--url", "https://example.com/a", str(a)]) == 0
    assert "Site menu link" in capsys.readouterr().out


def test_extract_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object per file with file, title and text."""
    a = tmp_path / "a.html"
    a.write_text(ARTICLE)
    assert main(["extract", "--json", str(a), str(a)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) == {"file", "title", "text"}
    assert first["file"] == str(a)
    assert first["title"] == "CLI page"
    assert first["text"].startswith("# Fetched from the command line")


def test_extract_reports_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing or binary file is reported on stderr; the others are still extracted."""
    good, binary = tmp_path / "good.html", tmp_path / "image.html"
    good.write_text("<p>Fine.</p>")
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(32))
    code = main(["extract", str(tmp_path / "missing.html"), str(binary), str(good)])
    captured = capsys.readouterr()
    assert code == 1
    assert "missing.html" in captured.err
    assert "a PNG image" in captured.err
    assert "Fine." in captured.out


def test_extract_shows_file_names_with_terminal_controls_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file's name holding an escape sequence (as a server may name a download) is shown,
    in its ``==> FILE <==`` line and in an error about it, with the sequence as escapes:
    it does not write the person's clipboard or move the cursor."""
    named = tmp_path / "page\x1b]52;c;ZWNobyBodWg=\x07.html"
    named.write_text("<p>Fine.</p>")
    missing = tmp_path / "gone\x1b[2J.html"
    assert main(["extract", str(named), str(named), str(missing)]) == 1
    captured = capsys.readouterr()
    assert "==> " + str(tmp_path) + "/page\\x1b]52;c;ZWNobyBodWg=\\x07.html <==" in captured.out
    assert "gone\\x1b[2J.html" in captured.err
    assert "\x1b" not in captured.out + captured.err


# --- cache -------------------------------------------------------------------------------------


def test_cache_stats_and_clear(
    manifest: Path, server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """cache stats counts the stored page; cache clear empties it."""
    prefix = ["--manifest", str(manifest)]
    assert main([*prefix, "cache", "stats"]) == 0
    assert "does not exist yet" in capsys.readouterr().out
    fetch = ["fetch", f"http://site.test:{server}/", "--resolve", "site.test:127.0.0.1"]
    assert main([*prefix, *fetch]) == 0
    capsys.readouterr()
    assert main([*prefix, "cache", "stats"]) == 0
    assert "pages: 1\n" in capsys.readouterr().out
    assert main([*prefix, "--json", "cache", "stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["pages"], stats["searches"], stats["enabled"]) == (1, 0, True)
    assert main([*prefix, "cache", "clear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deleted"] == 1
    assert main([*prefix, "--json", "cache", "stats"]) == 0
    assert json.loads(capsys.readouterr().out)["pages"] == 0
