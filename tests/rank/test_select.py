"""select_excerpts: candidates, ranking, dedup, budget and output order."""

from __future__ import annotations

import pytest

import insomnia_web.rank
from insomnia_web.rank import Excerpt, SourceDoc, estimate_tokens, select_excerpts
from insomnia_web.rank.budget import selection_cost
from insomnia_web.rank.candidates import query_terms
from insomnia_web.rank.features import DEFAULT_WEIGHTS
from insomnia_web.rank.ranker import select_weighted

FILLER = (
    "Visitors often arrive in the late afternoon when the light over the harbour turns gold "
    "and the fishing boats come back with their catch for the evening market."
)


def para(topic: str) -> str:
    """Return a 60-word paragraph that mentions *topic* once."""
    return f"{FILLER} {topic}. {FILLER}"


def doc(rank: int, text: str, *, snippet: str | None = None, title: str = "") -> SourceDoc:
    """Return a SourceDoc with a URL and title derived from *rank*."""
    return SourceDoc(
        url=f"https://site{rank}.example/page",
        title=title or f"Page {rank}",
        text=text,
        rank=rank,
        snippet=snippet,
    )


def total_cost(excerpts: list[Excerpt], query: str) -> int:
    """Return the budget cost of *excerpts* for *query*, labels included."""
    asked = frozenset(query_terms(query))
    return selection_cost(((e.title, e.url, e.heading, e.text) for e in excerpts), asked)


def corpus() -> list[SourceDoc]:
    """Return three pages, each with several paragraphs, one of which is about volcanoes."""
    return [
        doc(1, "\n\n".join(para(f"harbour fact {i}") for i in range(8))),
        doc(2, "\n\n".join([para("volcano eruption lava"), *(para(f"x{i}") for i in range(6))])),
        doc(3, "\n\n".join([*(para(f"y{i}") for i in range(6)), para("volcano ash cloud")])),
    ]


def test_public_names_are_exported() -> None:
    """The package exports exactly the documented API."""
    assert sorted(insomnia_web.rank.__all__) == [
        "Excerpt",
        "Method",
        "SourceDoc",
        "estimate_tokens",
        "select_excerpts",
    ]


@pytest.mark.parametrize("method", ["ours", "bm25"])
@pytest.mark.parametrize("budget", [60, 150, 400, 1000])
def test_budget_is_respected(method: str, budget: int) -> None:
    """The excerpts plus their label overhead never exceed max_tokens."""
    found = select_excerpts("volcano lava harbour", corpus(), max_tokens=budget, method=method)  # type: ignore[arg-type]
    assert total_cost(found, "volcano lava harbour") <= budget


def test_relevant_passages_come_first_when_budget_is_tight() -> None:
    """The passage matching all query terms is chosen and scored above partial matches."""
    found = select_excerpts("volcano eruption lava", corpus(), max_tokens=300)
    best = max(found, key=lambda e: e.score)
    assert "volcano eruption lava" in best.text
    assert all(e.score < best.score for e in found if e is not best)


def test_passages_without_query_terms_are_not_returned() -> None:
    """Only passages containing a query term are eligible, even when budget is left over."""
    found = select_excerpts("volcano", corpus(), max_tokens=5000)
    assert found
    assert all("volcano" in e.text for e in found)


def test_excerpt_offsets_match_the_page_text() -> None:
    """Each page excerpt's text is page_text[start:end] of its source."""
    docs = corpus()
    by_url = {d.url: d.text for d in docs}
    for e in select_excerpts("volcano", docs, max_tokens=2000):
        assert e.kind == "page"
        assert by_url[e.url][e.start : e.end] == e.text


def test_output_is_grouped_by_source_rank_then_page_order() -> None:
    """Excerpts are ordered by provider rank, then by position on the page; one id per
    source, counting from 1."""
    docs = [
        doc(2, "\n\n".join([para("alpha"), para("filler"), para("alpha beta")])),
        doc(1, "\n\n".join([para("beta"), para("filler"), para("alpha beta gamma")])),
    ]
    found = select_excerpts("alpha beta gamma", docs, max_tokens=5000)
    keys = [(e.source_rank, e.start) for e in found]
    assert keys == sorted(keys)
    assert next(e.source_rank for e in found) == 1
    sources = list(dict.fromkeys(e.url for e in found))
    assert [e.id for e in found] == [sources.index(e.url) + 1 for e in found]


def test_near_duplicates_are_returned_once() -> None:
    """The same paragraph on two pages is returned only once, from the higher-scored copy."""
    shared = para("kraken sighting")
    docs = [doc(1, shared), doc(2, shared + "\n\n" + para("kraken tentacles"))]
    found = select_excerpts("kraken sighting", docs, max_tokens=5000)
    assert sum(shared in e.text for e in found) == 1


def test_snippet_is_used_when_the_page_failed() -> None:
    """A result with no page text still contributes its provider snippet."""
    docs = [
        doc(1, "", snippet="The Eiffel Tower is 330 metres tall."),
        doc(2, para("unrelated harbour")),
    ]
    found = select_excerpts("eiffel tower height", docs, max_tokens=500)
    assert [(e.kind, e.start, e.end, e.source_rank) for e in found] == [("snippet", -1, -1, 1)]
    assert found[0].text == "The Eiffel Tower is 330 metres tall."


def test_snippet_repeated_on_the_page_is_dropped() -> None:
    """A snippet whose words are all in a chosen page passage is not returned twice."""
    sentence = "The Eiffel Tower is 330 metres tall and was finished in 1889."
    docs = [doc(1, f"{FILLER} {sentence}", snippet=sentence)]
    found = select_excerpts("eiffel tower height 1889", docs, max_tokens=1000)
    assert len(found) == 1


def test_heading_match_counts_for_ours_only() -> None:
    """A passage whose heading matches the query is eligible under 'ours' but not plain BM25."""
    text = "# Pricing\n\n" + para("plans start small") + "\n\n# Support\n\n" + para("email us")
    docs = [doc(1, text)]
    ours = select_excerpts("pricing", docs, max_tokens=1000, method="ours")
    plain = select_excerpts("pricing", docs, max_tokens=1000, method="bm25")
    assert [e.heading for e in ours] == ["Pricing"]
    assert [e.heading for e in plain] == ["Pricing"]
    assert all("# Pricing" not in e.text for e in ours + plain)


def test_split_table_excerpt_repeats_the_header() -> None:
    """An excerpt from the middle of a long table starts with the header row."""
    rows = [f"| city {i} | {FILLER} |" for i in range(20)] + ["| Reykjavik | capital of Iceland |"]
    text = "| Name | Notes |\n|---|---|\n" + "\n".join(rows)
    found = select_excerpts("reykjavik", [doc(1, text)], max_tokens=2000)
    assert len(found) == 1
    assert found[0].text.startswith("| Name | Notes |\n|---|---|\n")
    assert found[0].text.endswith(text[found[0].start : found[0].end])
    assert "Reykjavik" in text[found[0].start : found[0].end]


def test_empty_inputs_return_nothing() -> None:
    """No documents, no budget, or only empty pages give an empty list."""
    assert select_excerpts("anything", [], max_tokens=1000) == []
    assert select_excerpts("volcano", corpus(), max_tokens=0) == []
    assert select_excerpts("volcano", [doc(1, "  "), doc(2, "")], max_tokens=1000) == []


def test_query_without_terms_returns_page_leads_in_rank_order() -> None:
    """A query with no words falls back to the first passage of each page, by rank."""
    found = select_excerpts("?!", corpus(), max_tokens=5000)
    assert [e.source_rank for e in found] == [1, 2, 3]
    assert all(e.start == 0 for e in found)


def test_stopword_only_query_still_matches() -> None:
    """A query made only of stopwords ('The Who') searches with those words."""
    docs = [doc(1, para("harbour")), doc(2, para("The Who played live"))]
    found = select_excerpts("The Who", docs, max_tokens=200)
    best = max(found, key=lambda e: e.score)
    assert "The Who played live" in best.text


def test_cjk_query_finds_the_cjk_passage() -> None:
    """A Japanese query without spaces matches the Japanese passage on a mixed page."""
    text = (
        para("harbour") + "\n\n東京都庁は新宿区にあります。展望室は無料です。\n\n" + para("boats")
    )
    found = select_excerpts("都庁の展望室", [doc(1, text)], max_tokens=1000)
    assert len(found) == 1
    assert "展望室" in found[0].text
    assert estimate_tokens(found[0].text) > 0


def test_weak_matches_far_below_the_best_are_dropped() -> None:
    """Under 'ours', a passage scoring under a fifth of the best one is not returned."""
    strong = "Reykjavik geothermal heating: Reykjavik homes use geothermal water for heating."
    weak = para("one passing mention of heating")
    docs = [doc(1, strong), doc(2, para("harbour") + "\n\n" + weak)]
    ours = select_excerpts("reykjavik geothermal heating", docs, max_tokens=5000)
    plain = select_excerpts("reykjavik geothermal heating", docs, max_tokens=5000, method="bm25")
    assert len(ours) == 1
    assert strong in ours[0].text
    assert "passing mention" not in ours[0].text
    assert any("passing mention" in e.text for e in plain)


def test_a_passage_on_a_page_about_the_query_beats_a_lone_mention() -> None:
    """Under 'ours', page evidence (the page's BM25 as a whole) lifts a passage of a page about
    the query above a slightly stronger passage of a page that mentions it once."""
    other = (
        "Ferries leave the quay each morning and the market stalls open once the nets are in "
        "and the gulls settle on the roofs of the sheds along the old stone pier."
    )
    lone = [f"{other} Tortoise lifespan, a lifespan record. {other}"]
    lone += [para(f"harbour boat {i}") for i in range(3)]
    about = [para(f"tortoise lifespan note {i}") for i in range(4)]
    docs = [
        doc(1, "\n\n".join(f"# Part {i}\n\n{text}" for i, text in enumerate(lone))),
        doc(2, "\n\n".join(f"# Part {i}\n\n{text}" for i, text in enumerate(about))),
    ]
    ours = select_excerpts("tortoise lifespan", docs, max_tokens=120)
    plain = select_excerpts("tortoise lifespan", docs, max_tokens=120, method="bm25")
    assert [e.source_rank for e in plain] == [1]
    assert [e.source_rank for e in ours] == [2]


def test_unknown_method_is_rejected() -> None:
    """A method other than 'ours' or 'bm25' raises ValueError naming it."""
    with pytest.raises(ValueError, match="'tfidf'"):
        select_excerpts("volcano", corpus(), max_tokens=100, method="tfidf")  # type: ignore[arg-type]


def test_budget_left_by_whole_passages_goes_to_the_best_sentences_of_the_next() -> None:
    """When the next best passage does not fit, its sentences that name the query and fit
    are shown as a passage of their own, offsets into the page, within the budget."""
    query = "volcano eruption"
    second = f"{FILLER} The volcano eruption buried the town in ash. {FILLER} {FILLER}"
    page = para("volcano eruption lava") + "\n\n" + second
    docs = [doc(1, page)]
    whole = select_weighted(query, docs, max_tokens=150, weights=DEFAULT_WEIGHTS, fill=False)
    assert len(whole) == 1  # the second passage does not fit whole
    found = select_excerpts(query, docs, max_tokens=150)
    assert len(found) == 2
    assert total_cost(found, query) <= 150
    part = [e for e in found if "buried the town" in e.text]
    assert part
    assert part[0].text.startswith("The volcano eruption buried")
    assert page[part[0].start : part[0].end] == part[0].text
