"""WebFetch through the runtime: modes, content types, paging, snapshots and history."""

from __future__ import annotations

import json
from typing import Any

import pytest

from insomnia_web.cache import snapshot_hash
from insomnia_web.history import (
    MemoryHistory,
    PermissionEvent,
    ProgressEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from insomnia_web.modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END
from insomnia_web.runtime import Runtime, ToolResult

from .conftest import MakeRuntime, Site
from .pages import ARTICLE, TABLE_MARKDOWN, long_text


async def fetch(runtime: Runtime, site: Site, path: str = "/", **args: Any) -> ToolResult:
    """Call WebFetch on *path* of the site."""
    return await runtime.call_tool("WebFetch", {"url": site.url(path), **args})


def ok(result: ToolResult) -> dict[str, Any]:
    """The structured output of a successful call (fails the test otherwise)."""
    assert result.ok, result.text
    assert result.output is not None
    return result.output


def page_text(result: ToolResult) -> str:
    """The page text between the untrusted-content delimiters, after the title and author
    lines the page states."""
    inner = result.text.split(UNTRUSTED_BEGIN + "\n", 1)[1]
    if inner.startswith(('Title: "', "Author: ")):
        inner = inner.split("\n\n", 1)[1]
    return inner.rsplit("\n" + UNTRUSTED_END, 1)[0]


# --- modes -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_readable_mode_keeps_content_and_tables(site: Site, runtime: Runtime) -> None:
    """readable mode returns the article as Markdown, tables as Markdown tables, no chrome."""
    site.set("/", ARTICLE)
    out = ok(result := await fetch(runtime, site))
    assert out["title"] == "Python release notes"
    assert out["content_type"] == "text/html"
    assert out["charset"] == "utf-8"
    assert out["status"] == 200
    text = out["text"]
    assert text.startswith("# Python releases")
    assert TABLE_MARKDOWN in text
    assert "| 3.2 | Python 3.2 brought faster startup and better error messages | 2017 |" in text
    assert "- Upgrade one minor version at a time." in text
    for chrome in ("Navigation blog link", "script text", "color: red", "Footer text"):
        assert chrome not in text
    assert page_text(result) == text
    assert out["truncated"] is False
    assert out["next_start_index"] is None
    assert out["total_chars"] == len(text)


@pytest.mark.asyncio
async def test_full_mode_keeps_all_visible_text(site: Site, runtime: Runtime) -> None:
    """full mode keeps navigation and footer text but still drops scripts and styles."""
    site.set("/", ARTICLE)
    text = ok(await fetch(runtime, site, mode="full"))["text"]
    assert "Navigation blog link" in text
    assert "Footer text" in text
    assert TABLE_MARKDOWN in text
    assert "script text" not in text
    assert "color: red" not in text


@pytest.mark.asyncio
async def test_raw_mode_returns_the_decoded_source(site: Site, runtime: Runtime) -> None:
    """raw mode returns the HTML source itself, scripts included."""
    site.set("/", ARTICLE)
    out = ok(await fetch(runtime, site, mode="raw"))
    assert out["text"] == ARTICLE
    assert out["title"] is None


@pytest.mark.asyncio
async def test_modes_are_stored_separately(site: Site, runtime: Runtime) -> None:
    """A stored readable snapshot is not served for a full-mode call of the same URL."""
    site.set("/", ARTICLE)
    readable = ok(await fetch(runtime, site))
    full = ok(await fetch(runtime, site, mode="full"))
    assert full["cache"]["hit"] is False
    assert full["snapshot"] != readable["snapshot"]
    assert site.hits["/"] == 2


def words(n: int) -> str:
    """*n* different words."""
    return " ".join(f"w{i}" for i in range(n))


APP_SHELL = """<!doctype html><html><head><title>Shop</title>
<script src="/app.js"></script></head><body><header><nav><a href="/">Home</a></nav></header>
<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>
<script>window.__STATE__ = {"items": []};</script></body></html>"""


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("body", "found"),
    [
        (APP_SHELL, "only 1 word(s) of readable text found"),
        ("<p></p>", "no readable text found"),
        (f"<p>{words(12)}</p>", "only 12 word(s) of readable text found"),
        ("<p>" + "".join(chr(0x4E00 + i) for i in range(40)) + "</p>", "only 20 word(s)"),
    ],
)
async def test_a_page_with_little_readable_text_says_what_to_try(
    site: Site, runtime: Runtime, body: str, found: str
) -> None:
    """An HTML page with fewer than 30 readable words (CJK counted by twos) warns that its
    content may be drawn by script, and names mode full and another source, fresh or stored."""
    site.set("/app", body)
    for _ in range(2):
        result = await fetch(runtime, site, "/app")
        (warning,) = ok(result)["warnings"]
        assert warning.startswith(found)
        assert 'mode "full"' in warning
        assert "another source" in warning
        assert f"Warning: {warning}" in result.text
    assert ok(result)["cache"]["hit"] is True


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("path", "body", "args"),
    [
        ("/long", f"<p>{words(30)}</p>", {}),
        ("/full", "<p>short page</p>", {"mode": "full"}),
        ("/raw", "<p>short page</p>", {"mode": "raw"}),
        ("/plain", "short text", {}),
    ],
)
async def test_no_thin_text_warning_for_enough_words_or_other_reads(
    site: Site, runtime: Runtime, path: str, body: str, args: dict[str, str]
) -> None:
    """Thirty readable words, mode full or raw, or a non-HTML body earn no thin-text warning."""
    kind = "text/plain" if path == "/plain" else "text/html"
    site.set(path, body, content_type=kind)
    assert ok(await fetch(runtime, site, path, **args))["warnings"] == []


# --- content types ---------------------------------------------------------------------


XHTML = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>XHTML page</title></head>
<body><h2>Strict markup</h2><p>An XHTML document is parsed as HTML.</p></body></html>"""


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        (
            "application/xhtml+xml",
            XHTML,
            "## Strict markup\n\nAn XHTML document is parsed as HTML.",
        ),
        ("text/plain; charset=utf-8", "line one\n  indented <b>not html</b>\n", None),
        ("text/markdown", "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", None),
        ("application/xml", "<?xml version='1.0'?><root><item>1</item></root>", None),
    ],
)
async def test_text_types(
    site: Site, runtime: Runtime, content_type: str, body: str, expected: str | None
) -> None:
    """XHTML is extracted; plain text, Markdown and XML pass through unchanged."""
    site.set("/doc", body, content_type=content_type)
    out = ok(await fetch(runtime, site, "/doc"))
    assert out["content_type"] == content_type.split(";")[0]
    assert out["text"] == (expected if expected is not None else body)


@pytest.mark.asyncio
async def test_json_is_pretty_printed(site: Site, runtime: Runtime) -> None:
    """A JSON body comes back indented, with the same data."""
    data = {"name": "insomnia", "tags": ["web", "tools"], "nested": {"n": 1}}
    site.set("/api", json.dumps(data, separators=(",", ":")), content_type="application/json")
    text = ok(await fetch(runtime, site, "/api"))["text"]
    assert text == json.dumps(data, indent=2)


@pytest.mark.asyncio
async def test_image_is_unsupported_content(site: Site, runtime: Runtime) -> None:
    """An image/png response is refused with unsupported_content naming the type."""
    site.set("/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64), content_type="image/png")
    result = await fetch(runtime, site, "/logo.png")
    assert result.error is not None
    assert result.error.code == "unsupported_content"
    assert "image/png" in result.error.message
    assert result.error.details["content_type"] == "image/png"


@pytest.mark.asyncio
async def test_source_only_type_points_to_raw_mode(site: Site, runtime: Runtime) -> None:
    """JavaScript has no readable form: the error says mode raw returns its source."""
    site.set("/app.js", "console.log(1)", content_type="application/javascript")
    result = await fetch(runtime, site, "/app.js")
    assert result.error is not None
    assert result.error.code == "unsupported_content"
    assert "mode='raw'" in result.error.hint
    raw = ok(await fetch(runtime, site, "/app.js", mode="raw"))
    assert raw["text"] == "console.log(1)"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("body", "sniffed"),
    [
        ("  <!DOCTYPE html><html><body><p>Sniffed as a page.</p></body></html>", "text/html"),
        ("just some words, no markup", "text/plain"),
    ],
)
async def test_missing_content_type_is_sniffed(
    site: Site, runtime: Runtime, body: str, sniffed: str
) -> None:
    """Without a Content-Type, HTML is recognised by its start and other text is plain."""
    site.set("/untyped", body, content_type=None)
    out = ok(await fetch(runtime, site, "/untyped"))
    assert out["content_type"] == sniffed
    assert any("no Content-Type" in w for w in out["warnings"])
    expected = "Sniffed as a page." if sniffed == "text/html" else body
    assert out["text"] == expected


# --- paging and snapshots ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_truncation_marker_and_boundary(site: Site, make_runtime: MakeRuntime) -> None:
    """A long page is cut at a line or space, ends with a marker naming the next start_index."""
    runtime = make_runtime(fetch={"max_output_chars": 1000})
    doc = long_text("one")
    site.set("/long", doc, content_type="text/plain")
    result = await fetch(runtime, site, "/long")
    out = ok(result)
    assert out["truncated"] is True
    assert result.truncated is True
    end = out["next_start_index"]
    assert 800 <= end <= 1000
    assert doc[end - 1] in " \n"
    assert out["text"] == doc[:end]
    assert out["total_chars"] == len(doc)
    marker = (
        f"[truncated: showing 0-{end} of {len(doc)} chars; call WebFetch again with "
        f"start_index={end} to continue]"
    )
    assert result.text.endswith(UNTRUSTED_END + "\n" + marker)
    assert f"Chars: 0-{end} of {len(doc)}" in result.text


@pytest.mark.asyncio
async def test_continuation_reads_the_first_version(site: Site, runtime: Runtime) -> None:
    """Page 2 comes from the stored snapshot even after the server changed the page."""
    site.set("/long", long_text("one"), content_type="text/plain")
    first = ok(await fetch(runtime, site, "/long", max_chars=2000))
    site.set("/long", long_text("two"), content_type="text/plain")
    second = ok(await fetch(runtime, site, "/long", start_index=first["next_start_index"]))
    assert site.hits["/long"] == 1
    assert second["snapshot"] == first["snapshot"]
    assert second["cache"]["hit"] is True
    assert second["cache"]["age_s"] >= 0
    assert "version one" in second["text"]
    assert "version two" not in second["text"]
    assert first["text"] + second["text"] == long_text("one")


@pytest.mark.asyncio
async def test_force_fresh_gets_the_new_version(site: Site, runtime: Runtime) -> None:
    """force_fresh fetches again and returns the changed page under a new snapshot hash."""
    site.set("/long", long_text("one"), content_type="text/plain")
    first = ok(await fetch(runtime, site, "/long"))
    site.set("/long", long_text("two"), content_type="text/plain")
    cached = ok(await fetch(runtime, site, "/long"))
    assert cached["cache"]["hit"] is True
    assert "version one" in cached["text"]
    fresh = ok(await fetch(runtime, site, "/long", force_fresh=True))
    assert fresh["cache"] == {"hit": False, "age_s": None}
    assert "version two" in fresh["text"]
    assert fresh["snapshot"] != first["snapshot"]
    assert site.hits["/long"] == 2


@pytest.mark.asyncio
async def test_expired_snapshot_is_not_continued(site: Site, make_runtime: MakeRuntime) -> None:
    """With no snapshot young enough, continuing fetches again and warns the text may differ."""
    runtime = make_runtime(cache={"page_ttl_s": 0})
    site.set("/long", long_text("one"), content_type="text/plain")
    first = ok(await fetch(runtime, site, "/long", max_chars=1000))
    second = ok(await fetch(runtime, site, "/long", start_index=first["next_start_index"]))
    assert second["cache"]["hit"] is False
    assert any("no stored copy" in w for w in second["warnings"])
    assert site.hits["/long"] == 2


@pytest.mark.asyncio
async def test_cache_hit_is_labelled(site: Site, runtime: Runtime) -> None:
    """A second call (fragment and host case aside, the same URL) is served from the snapshot."""
    site.set("/", ARTICLE)
    await fetch(runtime, site)
    other_form = site.url("/#section").replace("site.test", "Site.Test")
    result = await runtime.call_tool("WebFetch", {"url": other_form})
    assert ok(result)["cache"]["hit"] is True
    assert "Source: stored copy fetched" in result.text
    assert site.hits["/"] == 1


@pytest.mark.asyncio
async def test_start_index_past_the_end(site: Site, runtime: Runtime) -> None:
    """A start_index at or past the end is invalid_input naming $.start_index and the total."""
    site.set("/short", "tiny page", content_type="text/plain")
    await fetch(runtime, site, "/short")
    result = await fetch(runtime, site, "/short", start_index=9)
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert "$.start_index" in result.error.message
    assert result.error.details == {"field": "$.start_index", "total_chars": 9}


@pytest.mark.asyncio
async def test_max_chars_above_the_cap_is_capped(site: Site, make_runtime: MakeRuntime) -> None:
    """A max_chars above max_output_chars returns at most the cap, with a warning."""
    runtime = make_runtime(fetch={"max_output_chars": 500})
    site.set("/long", long_text("one"), content_type="text/plain")
    out = ok(await fetch(runtime, site, "/long", max_chars=5000))
    assert len(out["text"]) <= 500
    assert any("capped at 500" in w for w in out["warnings"])


@pytest.mark.asyncio
async def test_download_cut_is_reported(site: Site, make_runtime: MakeRuntime) -> None:
    """A body above max_response_bytes is cut, and the text says the download was cut."""
    runtime = make_runtime(fetch={"max_response_bytes": 2048})
    site.set("/big", "x" * 3000 + "\n", content_type="text/plain")
    result = await fetch(runtime, site, "/big")
    out = ok(result)
    assert out["download_truncated"] is True
    assert out["bytes"] == 2048
    assert out["total_chars"] == 2048
    assert "[download cut: only the first 2048 bytes" in result.text


# --- cache disabled, history --------------------------------------------------------------


@pytest.mark.asyncio
async def test_cache_disabled(site: Site, make_runtime: MakeRuntime) -> None:
    """Without a cache every call fetches; continuing warns the page was fetched again."""
    runtime = make_runtime(cache={"enabled": False})
    site.set("/long", long_text("one"), content_type="text/plain")
    first = ok(await fetch(runtime, site, "/long", max_chars=1000))
    assert first["snapshot"] == snapshot_hash(long_text("one"), "readable")
    site.set("/long", long_text("two"), content_type="text/plain")
    second = ok(await fetch(runtime, site, "/long", start_index=first["next_start_index"]))
    assert second["cache"]["hit"] is False
    assert "version two" in second["text"]
    assert any("cache is disabled" in w for w in second["warnings"])
    assert site.hits["/long"] == 2
    assert "SaveFinding" not in runtime.tools


@pytest.mark.asyncio
async def test_history_events_in_order(site: Site, runtime: Runtime) -> None:
    """A call leaves tool_call, permission, progress and tool_result events, in that order."""
    site.set("/", ARTICLE)
    result = await fetch(runtime, site)
    assert isinstance(runtime.history, MemoryHistory)
    assert len(runtime.history.of_call(result.call_id)) == 4
    call, permission, progress, final = runtime.history.of_call(result.call_id)
    assert isinstance(call, ToolCallEvent)
    assert call.input == {"url": site.url("/")}
    assert isinstance(permission, PermissionEvent)
    assert permission.decision == "allow"
    assert permission.rule == "WebFetch(domain:site.test)"
    assert isinstance(progress, ProgressEvent)
    assert "downloaded" in progress.message
    assert isinstance(final, ToolResultEvent)
    assert final.ok is True
    assert final.text == result.text
