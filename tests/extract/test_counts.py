"""Word and link counts per element: when counts made earlier still hold."""

from __future__ import annotations

from insomnia_web.extract.counts import BlockCounts
from tests.extract.support import body_of as _body


def test_counts_hold_until_an_element_is_removed() -> None:
    """Counts of a tree still hold while it keeps every element, and not once one is dropped."""
    body = _body("<div><p>One two three.</p><p><a href='/a'>Four</a> five.</p></div>")
    counts = BlockCounts(body, links=False)
    assert counts.still_hold()
    body.find(".//a").drop_tree()
    assert not counts.still_hold()
