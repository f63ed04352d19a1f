"""Class and id name patterns ignore case, on ASCII names and on others alike."""

from __future__ import annotations

import re

import pytest

from insomnia_web.extract.patterns import BOILERPLATE_RE, NamePattern


def test_a_name_pattern_matches_as_the_ignore_case_pattern_does() -> None:
    """Lowercasing an ASCII name finds what ``re.IGNORECASE`` finds, and only that."""
    pattern = r"(?:^|[-_ ])(?:nav|site-?footer)(?:$|[-_ ])|tooltip(?![a-z])"
    names = NamePattern(pattern)
    slow = re.compile(pattern, re.I)
    for text in ("Site-Footer", "main NAV", "navigation", "ToolTip", "TooltipX", "Über NAV", "K"):
        found, expected = names.search(text), slow.search(text)
        assert (found and found.span()) == (expected and expected.span()), text


def test_a_non_ascii_name_keeps_unicode_case_folding() -> None:
    """A Kelvin sign folds to "k" under ``re.IGNORECASE``; the fast path must not lose it."""
    assert NamePattern("kelvin").search("\u212aelvin") is not None
    assert BOILERPLATE_RE.search("Site-Footer \u00fcber") is not None


def test_a_name_pattern_written_with_capitals_is_refused() -> None:
    """Capitals in the pattern would not match a lowercased name: the pattern says so at once."""
    with pytest.raises(ValueError, match="lowercase"):
        NamePattern("Footer")
    NamePattern(r"\W+footer\S")  # escapes are not capitals
