"""The command line prints web text without letting it drive the terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from insomnia_web.cli.doctor import run_doctor
from insomnia_web.cli.output import StderrProgress, print_result
from insomnia_web.history import ProgressEvent
from insomnia_web.runtime import ToolResult

HOSTILE = "Title\x1b]52;c;cm0gLXJmIH4K\x07 body\x1b[2J\x9b31m \u202eexe.pdf\nnext line\tkept"


def test_result_text_shows_terminal_controls_as_escapes() -> None:
    """A page's escape sequences and bidi overrides print as escapes; lines and tabs stay."""
    out, err = io.StringIO(), io.StringIO()
    result = ToolResult(call_id="c", tool="WebFetch", ok=True, text=HOSTILE)
    assert print_result(result, as_json=False, out=out, err=err) == 0
    printed = out.getvalue()
    assert not any(c in printed for c in "\x1b\x07\x9b\u202e")
    assert "\\x1b]52;c;cm0gLXJmIH4K\\x07 body\\x1b[2J\\x9b31m \\u202eexe.pdf" in printed
    assert "\nnext line\tkept" in printed


def test_error_text_shows_terminal_controls_as_escapes() -> None:
    """A failed call's text on stderr shows its controls as escapes too."""
    out, err = io.StringIO(), io.StringIO()
    result = ToolResult(call_id="c", tool="WebFetch", ok=False, text=HOSTILE)
    assert print_result(result, as_json=False, out=out, err=err) == 1
    assert "\x1b" not in err.getvalue()
    assert out.getvalue() == ""


def test_progress_line_shows_terminal_controls_as_escapes() -> None:
    """A progress message cannot write an escape sequence to the live status line."""
    stream = io.StringIO()
    progress = StderrProgress(stream, live=True)
    progress.append(ProgressEvent(call_id="c", message=HOSTILE, done=None, total=None))
    shown = stream.getvalue().removeprefix("\r\x1b[K")
    assert not any(c in shown for c in "\x1b\n")


def test_doctor_shows_manifest_values_with_controls_escaped(tmp_path: Path) -> None:
    """A manifest value holding an escape sequence (a history path) prints escaped."""
    manifest = tmp_path / "insomnia.toml"
    history = (tmp_path / "h").as_posix() + "\\u001b]0;owned\\u0007.jsonl"
    cache = (tmp_path / "cache.sqlite3").as_posix()
    manifest.write_text(
        f'[web]\nhistory_path = "{history}"\n[web.cache]\npath = "{cache}"\n', encoding="utf-8"
    )
    out = io.StringIO()
    run_doctor(str(manifest), as_json=False, out=out)
    assert "h\\x1b]0;owned\\x07.jsonl" in out.getvalue()
    assert "\x1b" not in out.getvalue()


def test_json_output_escapes_terminal_controls_and_stays_equal() -> None:
    """With --json, C1 controls, DEL and bidi overrides are JSON escapes too; the JSON
    decodes to the same text."""
    out, err = io.StringIO(), io.StringIO()
    result = ToolResult(call_id="c", tool="WebFetch", ok=True, text=HOSTILE + "\x7f")
    print_result(result, as_json=True, out=out, err=err)
    printed = out.getvalue()
    assert not any(c in printed for c in "\x1b\x07\x9b\u202e\x7f")
    assert json.loads(printed)["text"] == HOSTILE + "\x7f"


def test_crlf_line_ends_stay_and_a_lone_cr_is_escaped() -> None:
    """A CRLF line end (a raw page's) prints as it is; a lone CR, which would let the rest of
    a line overwrite its start, is escaped."""
    out, err = io.StringIO(), io.StringIO()
    result = ToolResult(call_id="c", tool="WebFetch", ok=True, text="one\r\ntwo safe\rEVIL")
    print_result(result, as_json=False, out=out, err=err)
    assert out.getvalue() == "one\r\ntwo safe\\rEVIL\n"
