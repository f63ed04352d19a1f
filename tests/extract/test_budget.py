"""Extraction keeps to a time budget and returns the best text it has when it runs out."""

from __future__ import annotations

import time

import pytest
from lxml.html import HtmlElement

from insomnia_web.extract import extract_html
from insomnia_web.extract import html as html_module
from insomnia_web.extract.clean import strip_invisible
from insomnia_web.extract.counts import BlockCounts
from insomnia_web.extract.html import Budget
from insomnia_web.extract.parse import parse_html

STORY = " ".join(
    f"<p>Sentence {n} of the council report explains how the new tram line will run.</p>"
    for n in range(12)
)
PAGE = f"<html><body><nav><a href='/'>Home</a></nav><article>{STORY}</article></body></html>"


def test_an_unspent_budget_lets_readability_choose() -> None:
    """With the default budget a plain story is readability's article."""
    assert extract_html(PAGE).method == "readability"


def test_a_spent_budget_skips_readability(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the budget is gone before readability starts, the page extraction answers."""
    monkeypatch.setattr(html_module, "BUDGET", Budget(seconds=0.0))
    result = extract_html(PAGE)
    assert result.method == "page"
    assert "Sentence 11 of the council report" in result.text


def test_a_page_with_too_many_elements_skips_readability(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree larger than readability's element limit gets the page extraction alone."""
    monkeypatch.setattr(html_module, "BUDGET", Budget(readability_max_elements=10))
    assert extract_html(PAGE).method == "page"


def test_the_element_limit_reads_the_trees_counts_as_the_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cleaned tree of exactly the element limit fits readability, one element more does
    not, whether its elements are walked or read from its counts."""
    root = parse_html(f"<!-- a note -->{PAGE}<script>run()</script>")
    assert root is not None
    strip_invisible(root)
    size = sum(1 for _ in root.iter())
    counts = BlockCounts(root, links=False)
    for limit, fits in ((size, True), (size - 1, False)):
        monkeypatch.setattr(html_module, "BUDGET", Budget(readability_max_elements=limit))
        assert html_module._readability_fits(PAGE, root, 0.0) is fits
        assert html_module._readability_fits(PAGE, root, 0.0, counts) is fits


def test_running_out_after_readability_returns_its_article(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Out of time after readability, its article is returned without the page extraction."""

    def page_extraction(*args: object) -> None:
        raise AssertionError("the page extraction ran after the budget was spent")

    monkeypatch.setattr(html_module, "prune_boilerplate", page_extraction)
    monkeypatch.setattr(html_module, "BUDGET", Budget(seconds=1e-9, readability_start_share=1e12))
    result = extract_html(PAGE)
    assert result.method == "readability"
    assert "Sentence 11 of the council report" in result.text


def test_time_spent_waiting_does_not_spend_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget counts the thread's CPU time: a wait for a core (a busy machine) keeps it."""

    def slow_strip(root: HtmlElement) -> None:
        time.sleep(0.15)  # waiting, as a niced worker waits on a busy machine
        strip_invisible(root)

    monkeypatch.setattr(html_module, "strip_invisible", slow_strip)
    monkeypatch.setattr(html_module, "BUDGET", Budget(seconds=0.2))
    assert extract_html(PAGE).method == "readability"
