"""Filling the room a selection leaves with the leading sentences of the next-best passage."""

from __future__ import annotations

from insomnia_web.rank import SourceDoc, estimate_tokens, select_excerpts
from insomnia_web.rank.budget import passage_cost, selection_cost, source_label_cost
from insomnia_web.rank.fill import CUT_MARK, MIN_FILL_TOKENS, leading_sentences

SENTENCE = "The harbour market opens at dawn and closes when the boats are empty."


def test_leading_sentences_stop_at_the_last_sentence_end_that_fits() -> None:
    """The cut keeps whole sentences only, as many as fit, and ends with the cut mark."""
    text = " ".join(f"{SENTENCE[:-1]} number {i}." for i in range(10))
    head = leading_sentences(text, 60)
    assert head is not None
    assert head.endswith("." + CUT_MARK)
    assert text.startswith(head[: -len(CUT_MARK)])
    assert estimate_tokens(head) <= 60
    longer = leading_sentences(text, 60 + estimate_tokens(SENTENCE) + 4)
    assert longer is not None
    assert len(longer) > len(head)


def test_no_cut_inside_a_sentence() -> None:
    """When not even the first sentence fits, nothing is returned (never a word cut)."""
    text = " ".join(["word"] * 80) + ". And more words follow here."
    assert leading_sentences(text, 60) is None


def test_cjk_sentence_ends_need_no_space() -> None:
    """Text written without spaces is cut after a full-width full stop, exclamation or
    question mark."""
    for end in "\u3002\uff01\uff1f":
        sentence = "港口的市场在黎明时开放渔船卸完货后关闭" + end
        text = sentence * 6
        head = leading_sentences(text, estimate_tokens(sentence * 3 + CUT_MARK))
        assert head == sentence * 3 + CUT_MARK


def test_a_fragment_under_the_minimum_is_not_worth_adding() -> None:
    """A cut shorter than MIN_FILL_TOKENS tokens of text is not made."""
    text = "Short one. " + SENTENCE * 5
    assert estimate_tokens("Short one.") < MIN_FILL_TOKENS
    assert leading_sentences(text, MIN_FILL_TOKENS - 1) is None


def test_the_whole_passage_is_never_returned_as_a_cut() -> None:
    """A text that fits whole is not a cut (the selection takes it whole)."""
    assert leading_sentences(SENTENCE * 3, 1000) is None


def _pages(n_sentences: int) -> list[SourceDoc]:
    """Two pages about tortoises, each one passage of *n_sentences* sentences."""
    places = {1: "harbour garden", 2: "mountain zoo"}

    def body(r: int) -> str:
        return " ".join(
            f"Tortoise {i * r} of the {places[r]} lived for {100 + i * r} years."
            for i in range(n_sentences)
        )

    return [
        SourceDoc(url=f"https://site{r}.example/p", title=f"Page {r}", text=body(r), rank=r)
        for r in (1, 2)
    ]


def test_the_room_left_is_filled_with_the_next_passage_cut_short() -> None:
    """When the second-best passage does not fit, its leading sentences fill the room,
    marked with the cut mark, and the whole selection still fits the budget."""
    docs = _pages(8)
    whole = select_excerpts("tortoise years", docs, max_tokens=400)
    budget = selection_cost([(e.title, e.url, e.heading, e.text) for e in whole[:1]]) + 60
    got = select_excerpts("tortoise years", docs, max_tokens=budget)
    assert len(got) == 2
    assert got[1].text.endswith(CUT_MARK)
    assert docs[1].text.startswith(got[1].text[: -len(CUT_MARK)])
    assert got[1].end - got[1].start == len(got[1].text) - len(CUT_MARK)
    assert selection_cost((e.title, e.url, e.heading, e.text) for e in got) <= budget


def test_too_little_room_is_left_unused() -> None:
    """With room for less than MIN_FILL_TOKENS tokens of text, no cut passage is added,
    though a sentence would fit."""
    docs = _pages(8)
    whole = select_excerpts("tortoise years", docs, max_tokens=400)
    first = selection_cost([(e.title, e.url, e.heading, e.text) for e in whole[:1]])
    label = source_label_cost("Page 2", docs[1].url)
    room = label + passage_cost("Page 2", None, "") + MIN_FILL_TOKENS - 1
    assert estimate_tokens(docs[1].text.split(". ")[0] + "." + CUT_MARK) < room - label - 1
    got = select_excerpts("tortoise years", docs, max_tokens=first + room)
    assert [e.text for e in got] == [whole[0].text]
