"""The model-facing text of an excerpt search."""

from __future__ import annotations

from insomnia_web.modeltext import UNTRUSTED_BEGIN, UNTRUSTED_END
from insomnia_web.pipeline import render_excerpt_search, render_findings
from insomnia_web.schemas import (
    ExcerptItem,
    FindingItem,
    PageStatus,
    ResultItem,
    SearchCacheInfo,
    WebSearchOutput,
)

HEADER = "[cache: miss · mock · 2026-12-02T10:00Z]"


def sample(**changes: object) -> WebSearchOutput:
    """An excerpt search with two excerpts from one source, one unused result, one failure."""
    values: dict[str, object] = {
        "query": "q",
        "provider": "mock",
        "mode": "excerpts",
        "cache": SearchCacheInfo(status="miss"),
        "results": [
            ResultItem(rank=1, title="First", url="https://a.test/1"),
            ResultItem(rank=2, title="Second", url="https://b.test/2"),
        ],
        "excerpts": [
            ExcerptItem(
                id=1,
                url="https://a.test/1",
                title="First",
                text="alpha",
                score=1.0,
                start=0,
                end=5,
                heading="Intro > Part",
            ),
            ExcerptItem(
                id=2, url="https://a.test/1", title="First", text="beta", score=0.5, start=9, end=13
            ),
        ],
        "pages": [
            PageStatus(url="https://a.test/1", status="ok"),
            PageStatus(url="https://b.test/2", status="skipped", error_code="timeout"),
        ],
    }
    values.update(changes)
    return WebSearchOutput(**values)  # type: ignore[arg-type]


def test_header_first_then_labelled_excerpts_inside_delimiters() -> None:
    """The provenance line comes first; excerpts are labelled and wrapped as untrusted."""
    lines = render_excerpt_search(sample(), HEADER).splitlines()
    assert lines[0] == HEADER
    assert lines[1] == UNTRUSTED_BEGIN
    assert lines[2:5] == ["[1] First - https://a.test/1", "§ Intro > Part", "alpha"]
    assert lines[6:8] == ["[2] First - https://a.test/1", "beta"]
    assert UNTRUSTED_END in lines


def test_unused_results_and_unread_pages_are_listed() -> None:
    """Results without an excerpt are listed by title and URL; failed pages are noted."""
    text = render_excerpt_search(sample(), HEADER)
    assert "Other results (not used):\n- Second - https://b.test/2" in text
    assert "Not read: https://b.test/2 (timeout)" in text


def test_findings_come_last_and_are_labelled_unverified() -> None:
    """A finding follows the web excerpts and carries the UNVERIFIED label."""
    finding = FindingItem(id="1", query="q", content="fact", verified=False, age_s=90_000)
    text = render_excerpt_search(sample(findings=[finding]), HEADER)
    assert text.index("UNVERIFIED model finding") > text.index("[2] First")
    assert 'UNVERIFIED model finding, saved 1d ago for "q": fact' in text


def test_verified_finding_names_its_page() -> None:
    """A verified finding is labelled with the page that confirmed it."""
    finding = FindingItem(
        id="1", query="q", content="fact", source_url="https://a.test/", verified=True
    )
    assert "model finding, verified by https://a.test/" in render_findings([finding])
    assert "UNVERIFIED" not in render_findings([finding])


def test_no_results_says_so() -> None:
    """An empty search says there were no results, under the header."""
    text = render_excerpt_search(sample(results=[], excerpts=[], pages=[]), HEADER)
    assert text == f"{HEADER}\nNo results."
