"""Near-duplicate detection."""

from __future__ import annotations

from insomnia_web.rank.dedup import is_near_duplicate, shingles

TEXT = (
    "Tokio is an asynchronous runtime for the Rust programming language. It provides the "
    "building blocks needed for writing network applications with high performance."
)


def test_identical_text_is_a_duplicate() -> None:
    """The same passage seen twice is a near-duplicate."""
    assert is_near_duplicate(shingles(TEXT), shingles(TEXT))


def test_small_edits_are_still_duplicates() -> None:
    """Changing case, punctuation and one trailing word keeps Jaccard above the threshold."""
    edited = TEXT.upper().replace(".", "!").replace("performance", "speed")
    assert is_near_duplicate(shingles(TEXT), shingles(edited))


def test_a_snippet_contained_in_a_passage_is_a_duplicate() -> None:
    """A short text whose shingles all lie inside a longer one counts as a duplicate."""
    snippet = "Tokio is an asynchronous runtime for the Rust programming language."
    assert is_near_duplicate(shingles(snippet), shingles(TEXT))


def test_different_text_is_not_a_duplicate() -> None:
    """Two passages about different things are kept apart."""
    other = "Nginx selects the location block with the longest matching prefix."
    assert not is_near_duplicate(shingles(TEXT), shingles(other))


def test_empty_text_is_never_a_duplicate() -> None:
    """An empty shingle set matches nothing."""
    assert not is_near_duplicate(shingles(""), shingles(TEXT))
