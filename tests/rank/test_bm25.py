"""BM25 scoring and text analysis."""

from __future__ import annotations

from collections import Counter

import pytest

from insomnia_web.rank.analysis import analyze
from insomnia_web.rank.bm25 import BM25
from insomnia_web.rank.features import bigrams, coverage, proximity


def index(*texts: str) -> BM25:
    """Build a BM25 index over *texts*, analysed like passages."""
    terms = [analyze(t) for t in texts]
    return BM25([Counter(t) for t in terms], [len(t) for t in terms])


def test_passage_with_the_query_terms_outranks_one_without() -> None:
    """A passage containing the query terms scores above one that does not."""
    bm25 = index(
        "Install the package on Linux with apt.",
        "The weather in spring is mild and pleasant.",
        "Cooking pasta takes about ten minutes.",
    )
    scores = bm25.scores(analyze("install on linux"))
    assert scores[0] > 0
    assert scores[1] == scores[2] == 0


def test_rare_terms_weigh_more_than_common_ones() -> None:
    """Matching a term found in one passage scores higher than one found in all of them."""
    bm25 = index("python ranking", "python budget", "python cache", "python other")
    assert bm25.idf("ranking") > bm25.idf("python")


def test_shorter_passage_wins_at_equal_term_frequency() -> None:
    """With the same single match, the shorter passage scores higher (length normalisation)."""
    bm25 = index("zebra", "zebra " + " ".join(f"filler{i}" for i in range(50)), "other")
    scores = bm25.scores(["zebra"])
    assert scores[0] > scores[1] > 0


def test_mismatched_lengths_are_rejected() -> None:
    """Term frequencies and lengths of different sizes raise ValueError."""
    with pytest.raises(ValueError, match="same length"):
        BM25([{"a": 1}], [1, 2])


def test_analysis_drops_stopwords_and_folds_plurals() -> None:
    """Stopwords are removed and plural or -ing forms meet their stem."""
    assert analyze("The cities of the world") == analyze("city world")
    assert analyze("running") == analyze("run")
    assert analyze("Rust crates") == ["rust", "crate"]


def test_suffixes_keep_a_doubled_l_s_or_z() -> None:
    """A past or -ing form meets its base word: a doubled consonant goes, but not l, s or z."""
    assert analyze("called calling") == analyze("call call")
    assert analyze("passed passing") == analyze("pass pass")
    assert analyze("stopped stopping") == ["stop", "stop"]
    assert analyze("buzzed") == analyze("buzz")


def test_cjk_is_indexed_as_character_bigrams() -> None:
    """A CJK run becomes overlapping character bigrams so words inside it can match."""
    assert analyze("東京都庁") == ["東京", "京都", "都庁"]
    assert set(analyze("東京")) <= set(analyze("東京都庁は新宿区にあります"))


def test_proximity_rewards_query_terms_close_together() -> None:
    """Query terms side by side score 1, spread apart less, a single term 0."""
    wanted = {"tokio", "runtime"}
    assert proximity(["tokio", "runtime", "rust"], wanted) == 1.0
    assert proximity(["tokio", "a", "b", "runtime"], wanted) == 0.5
    assert proximity(["tokio", "rust"], wanted) == 0.0


def test_coverage_is_idf_weighted() -> None:
    """Covering the rarer query term counts for more than covering the common one."""
    idf = {"rare": 3.0, "common": 1.0}
    assert coverage({"rare"}, idf) == 0.75
    assert coverage({"common"}, idf) == 0.25
    assert bigrams(["a", "b", "c"]) == {("a", "b"), ("b", "c")}


def test_markdown_link_targets_are_not_indexed() -> None:
    """The text of a Markdown link is indexed, its URL is not."""
    assert analyze("See [the guide](https://example.com/install-guide) now") == [
        "see",
        "guide",
        "now",
    ]


def test_link_targets_with_parentheses_are_dropped() -> None:
    """A Wikipedia-style URL with one level of parentheses is skipped as a whole."""
    text = "[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) rocks"
    assert analyze(text) == ["foo", "rock"]


@pytest.mark.timeout(10)
def test_repeated_link_openers_do_not_backtrack() -> None:
    """200k unclosed '](' openers are scanned in linear time and yield no terms."""
    assert analyze("](" * 200_000) == []
