"""The CLI's foundation commands: tools, schema, manifest errors."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from insomnia_web.cli.main import main, with_resolve
from insomnia_web.cli.output import StderrProgress
from insomnia_web.config import parse_manifest
from insomnia_web.history import ProgressEvent, ToolCallEvent

ROOT = Path(__file__).resolve().parents[1]


def _walk_properties(schema: Any, path: str) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(schema, dict):
        for name, prop in schema.get("properties", {}).items():
            out.append((f"{path}.{name}", prop))
            out.extend(_walk_properties(prop, f"{path}.{name}"))
        for key in ("anyOf", "items"):
            sub = schema.get(key)
            for s in sub if isinstance(sub, list) else [sub]:
                out.extend(_walk_properties(s, path))
    return out


def test_tools_json_lists_three_tools_with_full_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    """`tools --json` lists the three tools with inlined schemas; every input is described."""
    assert main(["tools", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [t["name"] for t in listing] == ["WebSearch", "WebFetch", "SaveFinding"]
    for tool in listing:
        assert tool["description"]
        for kind in ("input_schema", "output_schema"):
            schema = tool[kind]
            assert schema["type"] == "object"
            assert "$ref" not in json.dumps(schema)
            props = _walk_properties(schema, tool["name"])
            assert props
            if kind == "input_schema":  # outputs may rely on a name that says it all ("url")
                for path, prop in props:
                    assert prop.get("description") or prop.get("title"), path


def test_tools_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    """`tools` without --json prints each tool with its plugin and inputs."""
    assert main(["tools"]) == 0
    out = capsys.readouterr().out
    assert "WebFetch  (plugin web)" in out
    assert "input: url, mode" in out


def test_schema_command_equals_checked_in_file(capsys: pytest.CaptureFixture[str]) -> None:
    """`schema` prints exactly manifest.schema.json."""
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == (ROOT / "manifest.schema.json").read_text()


def test_published_tool_schemas_equal_the_checked_in_snapshot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`tools --json` (default manifest) prints exactly tool-schemas.json: a change to what
    the model and clients see is a reviewed change (regenerate with the same command)."""
    assert main(["tools", "--json"]) == 0
    snapshot = json.loads((ROOT / "tool-schemas.json").read_text())
    assert json.loads(capsys.readouterr().out) == snapshot


def test_typo_in_manifest_exits_2_with_key_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest with a typo'd key is refused with exit status 2 and the key path."""
    path = tmp_path / "insomnia.toml"
    path.write_text("[web.fetch]\ntimeout = 3\n")
    assert main(["--manifest", str(path), "tools"]) == 2
    assert "web.fetch.timeout: unknown key" in capsys.readouterr().err


def test_policy_check_explains_decoded_address(capsys: pytest.CaptureFixture[str]) -> None:
    """`policy check` refuses 0x7f.1 naming 127.0.0.1, without connecting."""
    assert main(["policy", "check", "http://0x7f.1/", "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["code"] == "blocked_address"
    assert "127.0.0.1" in verdict["reason"]


def test_policy_check_with_resolve_allows(capsys: pytest.CaptureFixture[str]) -> None:
    """`policy check --resolve HOST:IP` vets the given public address and allows it."""
    argv = ["policy", "check", "https://example.com/", "--resolve", "example.com:93.184.215.14"]
    assert main(argv) == 0
    assert "93.184.215.14" in capsys.readouterr().out


def test_policy_check_shows_a_urls_terminal_controls_as_escapes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`policy check` of a URL copied from a page prints the URL with its escape sequences
    (a clipboard write, an 8-bit CSI, a bidi override) shown as escapes, in text and in
    JSON: checking a suspicious URL must not let it drive the terminal."""
    urls = [
        "https://a.example/\x1b]52;c;aGk=\x07",
        "http://10.0.0.1/\x9b2J",
        "https://x\u202e.example/",
    ]
    assert main(["policy", "check", *urls]) == 1
    text = capsys.readouterr().out
    assert "https://a.example/\\x1b]52;c;aGk=\\x07 [invalid_url]" in text
    assert "http://10.0.0.1/\\x9b2J [blocked_address]" in text
    assert main(["policy", "check", "--json", *urls]) == 1
    shown = text + capsys.readouterr().out
    assert not {"\x1b", "\x07", "\x9b", "\u202e"} & set(shown)


def test_search_without_api_key_fails_fast_naming_what_to_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the Brave key unset, `search` fails with not_configured before any prompt."""
    monkeypatch.delenv("BRAVE_SEARCH_API_KEY", raising=False)
    path = tmp_path / "insomnia.toml"
    path.write_text('[web.search]\nprovider = "brave"\n')
    assert main(["--manifest", str(path), "--json", "search", "hello"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["error"]["code"] == "not_configured"
    assert "BRAVE_SEARCH_API_KEY" in result["error"]["message"]
    assert "web.search.brave.api_key_env" in result["error"]["message"]


def test_progress_is_one_status_line_on_a_terminal() -> None:
    """On a terminal, progress events rewrite one status line, erased when the call ends."""
    stream = io.StringIO()
    sink = StderrProgress(stream, live=True)
    sink.append(ToolCallEvent(call_id="c", tool="WebSearch", input={}))
    sink.append(ProgressEvent(call_id="c", message="fetched https://a.example/", done=1, total=5))
    sink.finish()
    assert stream.getvalue() == "\r\x1b[Kfetched https://a.example/ (1/5)\r\x1b[K"


def test_progress_on_a_dumb_terminal_uses_no_escape_codes() -> None:
    """With TERM=dumb the status line is rewritten with spaces, never an escape sequence."""
    stream = io.StringIO()
    sink = StderrProgress(stream, live=True, dumb=True)
    sink.append(ProgressEvent(call_id="c", message="fetched https://a.example/long"))
    sink.append(ProgressEvent(call_id="c", message="fetched b"))
    sink.finish()
    long_line, short_line = "fetched https://a.example/long", "fetched b"
    pad = " " * (len(long_line) - len(short_line))
    blank = " " * len(long_line)
    assert stream.getvalue() == f"\r{long_line}\r{short_line}{pad}\r{blank}\r"
    assert StderrProgress(io.StringIO(), env={"TERM": "dumb"}).dumb is True
    assert StderrProgress(io.StringIO(), env={"TERM": "xterm"}).dumb is False


def test_progress_is_silent_off_a_terminal() -> None:
    """When stderr is not a terminal, progress events print nothing."""
    stream = io.StringIO()
    sink = StderrProgress(stream)
    sink.append(ProgressEvent(call_id="c", message="fetched https://a.example/", done=1, total=5))
    sink.finish()
    assert stream.getvalue() == ""


def test_resolve_override_replaces_the_manifest_entry_however_spelled() -> None:
    """A --resolve answer replaces the manifest's answer for the same host in another case."""
    manifest = parse_manifest({"web": {"url_policy": {"resolve": {"Example.com": ["1.1.1.1"]}}}})
    merged = with_resolve(manifest, {"example.COM.": ["8.8.8.8"]})
    assert merged.web.url_policy.resolve == {"example.com": ["8.8.8.8"]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[web]\nhistory_path = "{blocker}/history.jsonl"\n', "web.history_path"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ('[permissions]\nallow = ["WebFech(domain:x.example)"]\n', "permissions.allow[0]"),
        ('[web.search]\nprovider = "bravee"\n', "web.search.provider"),
    ],
)
def test_bad_manifest_exits_2_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    """Manifests that load but cannot work exit with status 2 and name the problem."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    path = tmp_path / "insomnia.toml"
    path.write_text(text.replace("{blocker}", str(blocker)))
    assert main(["--manifest", str(path), "tools"]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err


def test_yes_is_accepted_before_and_after_the_command() -> None:
    """`--yes` works where earlier versions took it (before the command) and after it."""
    from insomnia_web.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["--json", "--yes", "search", "q"]).yes is True
    assert parser.parse_args(["search", "q", "--yes"]).yes is True
    assert parser.parse_args(["search", "q"]).yes is False
    assert parser.parse_args(["fetch", "https://a.example/"]).yes is False
