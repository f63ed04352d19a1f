"""One word counter and sentence splitter for every script."""

from __future__ import annotations

from insomnia_web.extract.words import (
    collapsed_at_most,
    count_words,
    more_runs_than,
    sentences,
    word_list,
)


def test_latin_words_are_whitespace_tokens() -> None:
    """Outside CJK scripts a word is what whitespace separates."""
    assert count_words("Price: 20 EUR, don't miss\nit") == 6
    assert count_words("Prix réduit à 20 €") == 5


def test_cjk_runs_count_one_word_per_two_characters() -> None:
    """A Japanese paragraph without spaces counts as many words, not one."""
    assert count_words("京都市は観光特急を新設") == 6  # 11 characters
    assert count_words("杭州 地铁") == 2


def test_mixed_scripts_add_up() -> None:
    """Latin words beside a CJK run are counted apart from it."""
    assert count_words("iPhone 15の発売日") == 4  # "iPhone", "15", "の発売日" (2)


def test_word_list_gives_cjk_bigrams() -> None:
    """CJK runs are compared by their character bigrams, Latin words whole and lower-cased."""
    assert word_list("Tokyo 東京都") == ["tokyo", "東京", "京都"]


def test_sentences_end_at_ideographic_punctuation() -> None:
    """。！？ end a sentence without a space after them, as . ! ? do with one."""
    assert sentences("開通しました。便利です！本当？") == ["開通しました。", "便利です！", "本当？"]
    assert sentences("One. Two! Three?") == ["One.", "Two!", "Three?"]


def test_more_runs_than_counts_the_runs_word_list_reads() -> None:
    """``more_runs_than`` counts word and CJK runs as ``word_list`` reads them (a CJK mark
    that is no word character, a script change inside a word, included), for any limit."""
    text = "Ça va, 日本語です! Ünïcode İstanbul ・ iPhone15の発売日 — x"
    runs = 9  # Ça va 日本語です Ünïcode İstanbul ・ iPhone15 の発売日 x
    assert len(word_list(text)) >= runs
    assert [more_runs_than(text, limit) for limit in range(runs - 1, runs + 2)] == [
        True,
        False,
        False,
    ]
    assert more_runs_than("one two " * 100_000, 10)
    assert not more_runs_than("", 0)


def test_ascii_text_has_the_words_it_has_beside_other_scripts() -> None:
    """ASCII text, read by a narrower pattern, has the words and runs it has in a text that
    holds other characters too (digits and underscores are word characters in both)."""
    text = "Don't stop_now: 42x, a-b 7"
    other = f"{text} — «»"
    assert word_list(text) == word_list(other) == ["don", "t", "stop_now", "42x", "a", "b", "7"]
    for limit in range(8):
        assert more_runs_than(text, limit) == more_runs_than(other, limit) == (limit < 7)


def test_a_text_is_collapsed_only_when_it_is_short() -> None:
    """A text of at most the limit of whitespace tokens comes back collapsed; a longer one,
    trailing spaces or not, does not."""
    assert collapsed_at_most("  Quick \n view ", 4) == "Quick view"
    assert collapsed_at_most("one two three four", 4) == "one two three four"
    assert collapsed_at_most("one two three four ", 4) == "one two three four"
    assert collapsed_at_most("one two three four five", 4) is None
    assert collapsed_at_most(" \t", 4) == ""


def test_ascii_words_are_word_character_runs() -> None:
    """Words of ASCII text are its lowercased runs of letters, digits and underscores; every
    other character, control characters included, separates them."""
    assert word_list("Snake_case\x1cNEXT-word\t42 (c)") == ["snake_case", "next", "word", "42", "c"]
    assert word_list("\u212aelvin") == ["kelvin"]  # lowercases to ASCII
