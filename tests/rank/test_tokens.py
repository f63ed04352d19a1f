"""The token estimator."""

from __future__ import annotations

from insomnia_web.rank import estimate_tokens


def test_empty_text_costs_nothing() -> None:
    """An empty string is estimated at zero tokens."""
    assert estimate_tokens("") == 0


def test_english_prose_is_about_1_3_tokens_per_word() -> None:
    """Plain English prose is estimated between 1 and 2 tokens per word."""
    text = "The quick brown fox jumps over the lazy dog near the river bank. " * 10
    words = len(text.split())
    assert words <= estimate_tokens(text) <= 2 * words


def test_url_heavy_text_costs_more_than_its_word_count_suggests() -> None:
    """A long URL counts by its bytes, not as a single word."""
    url = "https://example.com/a/very/long/path/with/many/segments/and?query=string&x=1"
    assert estimate_tokens(url) >= len(url) // 4


def test_cjk_text_is_not_undercounted() -> None:
    """Text without spaces in a CJK script costs at least 0.75 tokens per character."""
    text = "東京都庁は新宿区にあります" * 5
    assert estimate_tokens(text) >= 0.75 * len(text)


def test_estimate_never_shrinks_when_text_grows() -> None:
    """Appending text never lowers the estimate."""
    base = "Install the package with pip."
    assert estimate_tokens(base + " Then import it.") >= estimate_tokens(base)
