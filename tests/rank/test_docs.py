"""The usage example in the package docstring."""

from __future__ import annotations

import doctest

import insomnia_web.rank


def test_package_docstring_example_runs() -> None:
    """The select_excerpts example in insomnia_web.rank's docstring produces what it shows."""
    result = doctest.testmod(insomnia_web.rank, raise_on_error=False, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0
