"""Query analysis (the kind of answer a question asks for) and the answer_type feature."""

from __future__ import annotations

import msgspec
import pytest

from insomnia_web.rank import SourceDoc
from insomnia_web.rank.answer_type import (
    ANSWER_KINDS,
    AnswerQuery,
    answer_kind,
    holds_answer_kind,
    query_language,
    read_question,
)
from insomnia_web.rank.features import DEFAULT_WEIGHTS
from insomnia_web.rank.ranker import rank_candidates

QUESTIONS = [
    ("en", "How many moons does Jupiter have?", "quantity"),
    ("en", "In which year did the Berlin Wall fall?", "date"),
    ("en", "Who directed the most recent Star Trek film?", "name"),
    ("en", "Where is the Flos showroom in Milan?", "place"),
    ("de", "Wie viele Clubs sind vom Bau der A100 bedroht?", "quantity"),
    ("de", "Wann fand die Volksabstimmung über den Brexit statt?", "date"),
    ("de", "Wer leitet den Rennstall von Alfa Romeo?", "name"),
    ("de", "Wo steht das Bunkermuseum der Stadt?", "place"),
    ("fr", "Combien coûte la mise sur le marché d'un pesticide ?", "quantity"),
    ("fr", "Quand la grève commence-t-elle à l'université ?", "date"),
    ("fr", "Qui est le haut-commissaire aux retraites ?", "name"),
    ("fr", "Où se trouve le siège de la société ?", "place"),
    ("es", "¿Cuántos años de historia tiene el periódico?", "quantity"),
    ("es", "¿Cuándo entró el área protegida al sistema nacional?", "date"),
    ("es", "¿Cómo se llama el jefe de la Fiscalía?", "name"),
    ("es", "¿Dónde vive el presidente de la Asamblea?", "place"),
    ("it", "Quanti metri di neve sono caduti sull'Appennino?", "quantity"),
    ("it", "Quando è stato installato il Climate Clock?", "date"),
    ("it", "Chi ha costruito il Metronome di New York?", "name"),
    ("it", "Dove si trova il Metronome di New York?", "place"),
    ("fi", "Kuinka monta suomalaista aikuista asuu kaupungissa?", "quantity"),
    ("fi", "Milloin talvi on leuto?", "date"),
    ("fi", "Kuka on Ilmatieteen laitoksen tutkija?", "name"),
    ("fi", "Missä on Ilmatieteen laitos?", "place"),
    ("ja", "東京タワーの高さは何メートルですか", "quantity"),
    ("ja", "東京タワーはいつ完成しましたか", "date"),
    ("ja", "東京タワーを設計したのは誰ですか", "name"),
    ("ja", "東京タワーはどこにありますか", "place"),
    ("zh", "长城有多长", "quantity"),
    ("zh", "长城是什么时候建的", "date"),
    ("zh", "谁建了长城", "name"),
    ("zh", "长城在哪里", "place"),
]


def test_every_language_and_kind_of_the_table_has_a_question() -> None:
    """Each kind of ANSWER_KINDS, in each of its languages, is exercised by a question here."""
    table = {(lang, kind) for kind, by_language in ANSWER_KINDS.items() for lang in by_language}
    assert table == {(lang, kind) for lang, _, kind in QUESTIONS}


@pytest.mark.parametrize(("lang", "question", "kind"), QUESTIONS)
def test_a_question_word_says_the_kind_in_its_language(lang: str, question: str, kind: str) -> None:
    """A question's opening words give its language and the kind of answer it asks for."""
    assert query_language(question) == lang
    assert answer_kind(question) == kind


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("From how many nations do the artists come?", "quantity"),
        ("Auf wie vielen Zimmern erzählt das Museum von der NS-Zeit?", "quantity"),
        ("nickname of the Ukraine irregular channel trio Volker", None),
        ("the report says who won the award", None),
        ("Quanta immune sentinels tuft abundance surprise", None),
        ("Chi-square test for the survey data", None),
        ("What did the state pay for the ad campaign?", None),
    ],
)
def test_the_phrase_must_open_the_query_in_its_language(query: str, kind: str | None) -> None:
    """A phrase counts within the first three words, only in the query's own language."""
    assert answer_kind(query) == kind


def test_a_tie_between_languages_tries_each_of_them() -> None:
    """Spanish "cuánto" is read although "de", "la" and "le" tie French with Spanish."""
    assert answer_kind("¿Cuánto tiempo de cárcel le tocó a la secretaria?") == "quantity"


def test_read_question_keeps_the_query_numbers_and_words() -> None:
    """What the query already holds is kept so that it does not count as evidence."""
    asked = read_question("How many visitors came to the 2,300-acre Park?")
    assert asked == AnswerQuery(
        "quantity",
        frozenset({"how", "many", "visitors", "came", "to", "the", "2", "300", "acre", "park"}),
        frozenset({"2,300"}),
    )
    assert read_question("Jupiter moons") is None


def asked(kind: str, query_words: str = "", numbers: str = "") -> AnswerQuery:
    """An AnswerQuery of *kind* whose query held *query_words* and *numbers*."""
    return AnswerQuery(kind, frozenset(query_words.split()), frozenset(numbers.split()))


@pytest.mark.parametrize(
    ("text", "question", "found"),
    [
        ("About 5,200 pounds leave every second.", asked("quantity"), True),
        ("The 2,300-acre park is large.", asked("quantity", numbers="2,300"), False),
        ("It comes with seven classic rock tracks.", asked("quantity"), True),
        ("Nobody counted them.", asked("quantity"), False),
        ("The shop dates back to 1930.", asked("date"), True),
        ("The shop dates back to 1930.", asked("date", numbers="1930"), False),
        ("Das Urteil vom 18.11.2019 ist rechtskräftig.", asked("date"), True),
        ("It opens in March.", asked("date"), True),
        ("東京タワーは1958年に完成した。", asked("date"), True),
        ("It opened long ago.", asked("date"), False),
        ("The film was directed by Justin Lin.", asked("name"), True),
        ("The film was directed by Justin Lin.", asked("name", "justin lin"), False),
        ("Die Stuttgarterinnen führen die Serie.", asked("name"), False),
        ("The family of Ludwig van Beethoven", asked("name"), True),
        ("The race was held in Madrid last week.", asked("place"), True),
        ("The race was held in Madrid last week.", asked("place", "madrid"), False),
        ("The race was held in the morning.", asked("place"), False),
        ("Das Museum liegt mitten aus Emden heraus.", asked("place"), True),
    ],
)
def test_a_passage_holds_a_token_of_the_kind_the_query_lacks(
    text: str, question: AnswerQuery, found: bool
) -> None:
    """Numbers, dates, name runs and places count only when the query does not hold them."""
    assert holds_answer_kind(text, question) is found


def moon_docs() -> list[SourceDoc]:
    """Two one-passage pages with the same query-term counts and lengths; only the second
    holds a number."""
    texts = (
        "Jupiter has many moons and astronomers keep finding more of them with telescopes.",
        "Jupiter has many moons and astronomers have counted 95 of them with telescopes.",
    )
    return [
        SourceDoc(url=f"https://site{i}.example/", title="Moons", text=text, rank=i)
        for i, text in enumerate(texts, start=1)
    ]


def test_the_feature_lifts_a_passage_holding_the_kind_asked_for() -> None:
    """With answer_type on, the passage holding a number outranks its twin for "how many"."""
    query = "How many moons does Jupiter have?"
    off = msgspec.structs.replace(DEFAULT_WEIGHTS, answer_type=0.0)
    on = msgspec.structs.replace(DEFAULT_WEIGHTS, answer_type=0.5)
    plain = rank_candidates(query, moon_docs(), off)
    assert plain[0].score == pytest.approx(plain[1].score)
    lifted = rank_candidates(query, moon_docs(), on)
    assert lifted[0].source.rank == 2
    assert lifted[0].score == pytest.approx(lifted[1].score + 0.5)


def test_a_keyword_query_gets_no_answer_type_score() -> None:
    """A query asking for no kind scores the same with the feature on or off."""
    query = "Jupiter moons astronomers"
    off = msgspec.structs.replace(DEFAULT_WEIGHTS, answer_type=0.0)
    on = msgspec.structs.replace(DEFAULT_WEIGHTS, answer_type=0.5)
    scores_off = [c.score for c in rank_candidates(query, moon_docs(), off)]
    assert [c.score for c in rank_candidates(query, moon_docs(), on)] == scores_off
