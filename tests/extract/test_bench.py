"""The extraction benchmark's tuning / check split and its report (bench/extract.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

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


def test_a_run_against_saved_pages_lists_the_pages_whose_text_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run compared with the per-page scores a run saved counts and lists the pages whose
    text changed, with each one's F1 before and after, and each part's F1 before and after."""
    bench = _bench(monkeypatch)

    def scores(texts: dict[str, tuple[str, float]]) -> Any:
        found = bench.Scores()
        for page_id, (text, f1) in texts.items():
            part = "tune" if page_id == "1" else "check"
            page = bench.Page("wcxb", page_id, "", "", "listing", part=part)
            digest = bench.text_digest(text)
            row = bench.Row(page, f1, f1, f1, None, None, (0, 0, 0, 0), 0.0, digest=digest)
            found.rows.append(row)
        return found

    saved = tmp_path / "before.json"
    bench.save_pages(scores({"1": ("one two three", 1.0), "2": ("four five", 1.0)}), saved)
    bench.compare_pages(scores({"1": ("one two", 0.8), "2": ("four five", 1.0)}), saved)
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert lines[0][-5:] == ["1", "of", "2", "pages", "changed"]
    assert ["wcxb", "tune", "F1", "1.000", "->", "0.800", "(1", "changed)"] in lines
    assert ["wcxb", "check", "F1", "1.000", "->", "1.000", "(0", "changed)"] in lines
    assert ["wcxb", "listing", "tune", "F1", "1.000", "->", "0.800", "(1", "changed)"] in lines
    assert ["wcxb/1", "listing", "tune", "F1", "1.000", "->", "0.800"] in lines


def test_a_run_against_saved_pages_splits_each_part_into_precision_and_recall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bag-of-words part compared with a saved run also prints its mean precision and
    recall before and after, so a change's loss reads as words added or words missed."""
    bench = _bench(monkeypatch)

    def scores(p: float, r: float) -> Any:
        page = bench.Page("aeb", "1", "", "", part="tune")
        f1 = 2 * p * r / (p + r)
        found = bench.Scores()
        found.rows.append(bench.Row(page, p, r, f1, None, None, (0, 0, 0, 0), 0.0, digest=str(p)))
        return found

    saved = tmp_path / "before.json"
    bench.save_pages(scores(0.5, 1.0), saved)
    bench.compare_pages(scores(1.0, 0.75), saved)
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    at = lines.index(["aeb", "tune", "F1", "0.667", "->", "0.857", "(1", "changed)"])
    assert lines[at + 1] == ["P", "0.500", "->", "1.000,", "R", "1.000", "->", "0.750"]
