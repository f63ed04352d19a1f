"""The CLI speaks to people: its own option names, exact headers, counted nouns."""

from __future__ import annotations

import json
from pathlib import Path

from insomnia_web.cli.calls import with_scheme

from .support import run


def test_truncation_names_the_cli_option(tmp_path: Path, manifest: Path, port: int) -> None:
    """A cut page ends with `--start-index N`, and that option continues it."""
    url = f"http://site.test:{port}/"
    base = ["fetch", url, "--manifest", str(manifest)]
    done = run(*base, "--max-chars", "120", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    marker = done.stdout.rstrip("\n").splitlines()[-1]
    assert "run the same command with --start-index " in marker
    assert "start_index=" not in done.stdout
    start = marker.split("--start-index ")[1].split()[0]
    more = run(*base, "--start-index", start, cwd=tmp_path)
    assert f"Chars: {start}-" in more.stdout


def test_a_stored_copy_names_the_cli_option(tmp_path: Path, manifest: Path, port: int) -> None:
    """A page served from the cache says `--force-fresh` fetches it again, and that option
    does."""
    base = ["fetch", f"http://site.test:{port}/", "--manifest", str(manifest)]
    assert run(*base, cwd=tmp_path).returncode == 0
    stored = run(*base, cwd=tmp_path)
    assert "Source: stored copy fetched" in stored.stdout
    assert "; --force-fresh fetches it again\n" in stored.stdout
    assert "force_fresh=" not in stored.stdout
    fresh = run(*base, "--force-fresh", cwd=tmp_path)
    assert "Source: fetched " in fresh.stdout


def test_json_keeps_the_model_wording(tmp_path: Path, manifest: Path, port: int) -> None:
    """--json prints the tool's own text, which tells a model start_index=N."""
    url = f"http://site.test:{port}/"
    done = run(
        "fetch", url, "--json", "--max-chars", "120", "--manifest", str(manifest), cwd=tmp_path
    )
    assert "call WebFetch again with start_index=" in json.loads(done.stdout)["text"]


def test_max_chars_above_the_cap_says_so(tmp_path: Path, manifest: Path, port: int) -> None:
    """--max-chars above web.fetch.max_output_chars is capped, and stderr says so."""
    manifest.write_text(manifest.read_text() + "[web.fetch]\nmax_output_chars = 150\n")
    url = f"http://site.test:{port}/"
    done = run("fetch", url, "--max-chars", "5000", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == (
        "insomnia-web: --max-chars 5000 is above the configured cap "
        "(web.fetch.max_output_chars = 150); capped at 150\n"
    )


def test_type_header_keeps_the_charset_equals(tmp_path: Path, manifest: Path, port: int) -> None:
    """The Type header reads `text/html; charset=utf-8`, as the server sent it."""
    done = run("fetch", f"http://site.test:{port}/", "--manifest", str(manifest), cwd=tmp_path)
    assert "Type: text/html; charset=utf-8\n" in done.stdout


def test_a_url_without_scheme_gets_https() -> None:
    """`example.com/a` means https://example.com/a; a URL with a scheme is left alone."""
    assert with_scheme("example.com/a") == "https://example.com/a"
    assert with_scheme("//example.com/a") == "https://example.com/a"
    assert with_scheme("http://example.com/") == "http://example.com/"


def test_fetch_without_scheme_asks_for_https(tmp_path: Path, manifest: Path, port: int) -> None:
    """The console script fetches `site.test:PORT/` over https (this plain-http site fails)."""
    done = run("fetch", f"site.test:{port}/", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"Error [tls_error]: site.test does not speak TLS on port {port}")


def test_cache_clear_counts_one_entry(tmp_path: Path, manifest: Path, port: int) -> None:
    """Clearing one stored page says "1 entry", not "1 entries"."""
    fetched = run("fetch", f"http://site.test:{port}/", "--manifest", str(manifest), cwd=tmp_path)
    assert fetched.returncode == 0
    done = run("cache", "clear", "--manifest", str(manifest), cwd=tmp_path)
    assert done.stdout == f"cleared 1 entry from {tmp_path / 'cache.sqlite3'}\n"


def test_search_without_cache_has_no_cache_line(tmp_path: Path, port: int) -> None:
    """With the cache off, a search's first line names the provider, not a cache."""
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        '[web.search]\nprovider = "searxng"\nmode = "results"\n'
        f'[web.search.searxng]\nbase_url = "http://127.0.0.1:{port}"\n'
        "[web.cache]\nenabled = false\n"
        '[permissions]\nallow = ["WebSearch"]\n'
    )
    done = run("search", "cli page", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == "[source: searxng]"
    assert "[cache:" not in done.stdout


def test_extract_labels_cannot_look_like_headings(tmp_path: Path) -> None:
    """Several files are labelled `==> FILE <==`, never a Markdown heading like `# FILE`."""
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    a.write_text("<h1>a.html</h1><p>First.</p>")
    b.write_text("<p>Second.</p>")
    done = run("extract", "a.html", "b.html", cwd=tmp_path)
    assert done.stdout == "==> a.html <==\n# a.html\n\nFirst.\n\n==> b.html <==\nSecond.\n"


def test_extract_of_a_binary_file_speaks_of_the_file(tmp_path: Path) -> None:
    """A binary file given to extract is "not HTML text", not a "response" with a label."""
    (tmp_path / "photo.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    done = run("extract", "photo.html", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == "insomnia-web: photo.html: not HTML text: the file is a PNG image\n"
