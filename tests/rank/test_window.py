"""best_window: the sentences of a passage that fit a small budget and name the query."""

from __future__ import annotations

from insomnia_web.rank import estimate_tokens
from insomnia_web.rank.candidates import query_terms
from insomnia_web.rank.window import best_window, sentence_spans

TEXT = (
    "The harbour opens at dawn. Boats leave for the fishing grounds before six. "
    "The volcano last erupted in 1783 and its lava reached the sea. "
    "Tourists come for the views. The lava fields are now a park."
)


def sentences(text: str) -> list[str]:
    """The sentences :func:`sentence_spans` finds in *text*."""
    return [text[s:e] for s, e in sentence_spans(text)]


def test_sentences_are_split_at_stops_and_line_ends() -> None:
    """Sentence ends (Latin and CJK stops) and line breaks bound the spans, spaces left out."""
    assert sentences("The first. Two!\nThree 三。四") == ["The first.", "Two!", "Three 三。", "四"]


def test_a_stop_after_a_short_capitalised_word_ends_no_sentence() -> None:
    """``Mr.``, ``Dr.``, ``St.``, ``U.S.``, ``Inc.`` are abbreviations, not sentence ends;
    a stop after a lower-case or longer word (``it.``, ``Rome.``) or capitals (``CEO.``)
    still is."""
    text = "Mr. Lee met Dr. Ann Roe of the U.S. Navy. They left Rome. It was the CEO. Then it."
    assert sentences(text) == [
        "Mr. Lee met Dr. Ann Roe of the U.S. Navy.",
        "They left Rome.",
        "It was the CEO.",
        "Then it.",
    ]


def test_the_window_holds_the_most_query_terms_that_fit() -> None:
    """Of the runs of whole sentences that fit, the one naming the most query terms wins."""
    asked = query_terms("when did the volcano erupt lava")
    start, end = best_window(TEXT, asked, 20) or (0, 0)
    assert TEXT[start:end] == ("The volcano last erupted in 1783 and its lava reached the sea.")


def test_a_larger_budget_takes_more_sentences_around_the_match() -> None:
    """With room for more, the window grows to whole neighbouring sentences within budget."""
    asked = query_terms("volcano lava park")
    start, end = best_window(TEXT, asked, 40) or (0, 0)
    window = TEXT[start:end]
    assert "erupted in 1783" in window
    assert "lava fields are now a park" in window
    assert estimate_tokens(window) <= 40


def test_no_window_when_nothing_that_fits_names_the_query() -> None:
    """A budget smaller than every matching sentence, or a query the text lacks, gives None."""
    assert best_window(TEXT, query_terms("volcano"), 5) is None
    assert best_window(TEXT, query_terms("glacier"), 100) is None
