"""The extraction benchmark's tuning / check split and its report (bench/extract.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "extract.py"


def _bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_extract", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look it up there
    spec.loader.exec_module(module)
    return module


def test_a_limited_run_keeps_each_page_in_its_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page loaded by a run with ``--limit`` is in the part a full run puts it in."""
    bench = _bench(monkeypatch)
    ids = [f"{n:04d}" for n in range(40)]
    folder = tmp_path / "wcxb-dev"
    folder.mkdir()
    files = {page_id: {"page_type": "listing"} for page_id in ids}
    (folder / "metadata.json").write_text(json.dumps({"files": files}))
    monkeypatch.setattr(bench, "DATA", tmp_path)
    full = [bench.Page("wcxb", page_id, "", "") for page_id in ids]
    bench.split_parts(full)
    limited = [bench.Page("wcxb", page_id, "", "") for page_id in ids[:6]]
    bench.split_parts(limited)
    assert [page.part for page in limited] == [page.part for page in full[:6]]
    assert {page.part for page in full} == {"tune", "check"}


def test_wcxb_page_types_are_reported_per_part(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each WCXB page type's F1 is printed on all its pages, then on the tuning and check
    parts, and each of the worst pages says its part."""
    bench = _bench(monkeypatch)
    scores = bench.Scores()
    for page_id, part, f1 in (("1", "tune", 0.25), ("2", "tune", 0.75), ("3", "check", 1.0)):
        page = bench.Page("wcxb", page_id, "", "", "listing", part=part)
        scores.rows.append(bench.Row(page, f1, f1, f1, None, None, (0, 0, 0, 0), 0.0))
    bench.report({"ours": scores}, per_page=True)
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    at = lines.index(["wcxb", "listing", "F1", "0.667"])
    assert lines[at + 1 : at + 3] == [["tune", "0.500"], ["check", "1.000"]]
    assert ["wcxb/1", "listing", "tune", "F1=0.25", "P=0.25", "R=0.25"] in lines
