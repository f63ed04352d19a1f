"""Markdown links in the text an excerpt search reads: their text is kept, their target is not."""

from __future__ import annotations

from insomnia_web.pipeline.links import links_as_text


def test_a_link_reads_as_its_text() -> None:
    """``[text](url)`` becomes ``text``."""
    got = links_as_text("See [Target New Arrivals](https://www.target.com/c/new) today.")
    assert got == "See Target New Arrivals today."


def test_an_image_reads_as_its_alt_text() -> None:
    """``![alt](src)`` becomes ``alt``."""
    got = links_as_text("A ![red tortoise](https://a.test/t.png) basks.")
    assert got == "A red tortoise basks."


def test_a_link_with_a_title_or_a_bracketed_target_reads_as_its_text() -> None:
    """A link title (``"..."``) and an angle-bracketed target go with the target."""
    text = '[one](https://a.test/1 "First") and [two](<https://a.test/a b>)'
    assert links_as_text(text) == "one and two"


def test_a_target_with_balanced_parentheses_is_removed_whole() -> None:
    """A Wikipedia-style target such as ``.../A_(language)`` leaves no stray parenthesis."""
    text = "[A+](https://en.wikipedia.org/wiki/A%2B_(programming_language)) is old."
    assert links_as_text(text) == "A+ is old."


def test_a_link_inside_a_link_text_reads_as_text_too() -> None:
    """Nested links (``[Visit the [Workshop](u)](v)``) are flattened to their words."""
    text = "[Visit the [Workshop](https://a.test/w)](https://a.test/v)"
    assert links_as_text(text) == "Visit the Workshop"


def test_brackets_that_are_not_links_are_kept() -> None:
    """Text in brackets without a target, and a bare URL, are left as they are."""
    text = "Footnote [1] and (see https://a.test/x) stay; [a] (b) too."
    assert links_as_text(text) == text


def test_text_without_links_is_returned_as_is() -> None:
    """A page without links comes back unchanged (the same object: no copy)."""
    text = "Plain words. " * 100
    assert links_as_text(text) is text
