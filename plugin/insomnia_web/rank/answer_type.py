"""Query analysis: the kind of answer a question asks for, and passages that hold one.

A full question says in its opening words what kind of answer it wants: "How many ..." a
quantity, "When ..." or "In which year ..." a date, "Who ..." a name, "Where ..." a place.
:data:`ANSWER_KINDS` is that table, as data: kind -> language -> opening phrases.
:func:`answer_kind` finds the phrase among the first words of a query (``"From how many
nations ..."``, ``"Auf wie vielen ..."``: up to :data:`OPENING_WORDS` words may come first);
only the phrases of the query's language count (:func:`query_language`: the language with
the most of the query's words among its function words, :data:`LANGUAGE_WORDS`), so
"Chi-square test" asks an English search for no name. Chinese and Japanese questions put
the question word anywhere ("東京タワーの高さは何メートル"), so for them it is looked for in the
whole query. A keyword query ("nickname of the Ukraine channel trio") asks for no kind.

:func:`read_question` reads the kind and the query's own words and numbers once;
:func:`holds_answer_kind` says whether a passage holds a token of the kind that the query
does not already hold:

- ``quantity``: a number (digits, or a number word of :data:`NUMBER_WORDS`);
- ``date``: a year (1500-2099), a numeric date (``18.11.2019``, ``2019-11-18``,
  ``11/18/19``), a month name (:data:`MONTHS`) or a CJK date (``2019年``);
- ``name``: a run of two or more capitalised words (``Bruno Fernandes``, ``Deutsche Bahn``,
  particles such as ``van``, ``de`` allowed inside), not counting a capitalised function word
  that opens a sentence; Latin scripts only (no cheap, sound rule finds CJK names);
- ``place``: a capitalised word after a locative preposition (``in Madrid``, ``aus Emden``).

It is the passage side of the ``answer_type`` ranking feature (:mod:`.features`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from .analysis import words

__all__ = [
    "ANSWER_KINDS",
    "LANGUAGE_WORDS",
    "MONTHS",
    "NUMBER_WORDS",
    "OPENING_WORDS",
    "AnswerQuery",
    "answer_kind",
    "holds_answer_kind",
    "query_language",
    "read_question",
]

ANSWER_KINDS: dict[str, dict[str, tuple[str, ...]]] = {
    "quantity": {
        "en": (
            "how many", "how much", "how long", "how far", "how old", "how big", "how large",
            "how high", "how tall", "how heavy", "how fast", "how often", "what percentage",
            "what percent", "what share", "what proportion", "what size", "what price",
            "what age", "what number", "what fraction",
        ),
        "de": (
            "wie viele", "wie viel", "wie vielen", "wie lange", "wie alt", "wie hoch",
            "wie groß", "wie gross", "wie schwer", "wie teuer", "wie weit", "wie oft",
            "wie schnell", "wie lang", "welcher anteil", "welchen anteil",
        ),
        "fr": ("combien", "quel âge", "quelle taille", "quel pourcentage", "quelle part"),
        "es": ("cuántos", "cuántas", "cuánto", "cuánta", "qué edad", "qué porcentaje"),
        "it": ("quanti", "quante", "quanto", "quanta", "che età", "quale percentuale"),
        "fi": ("kuinka monta", "kuinka moni", "kuinka paljon", "kuinka suuri", "kuinka suurella",
               "montako", "paljonko"),
        "ja": ("何人", "何個", "何本", "何回", "何歳", "何メートル", "何キロ", "何円", "いくつ",
               "いくら", "どのくらい", "どれくらい", "何パーセント"),
        "zh": ("多少", "几个", "多大", "多长", "多高", "多远"),
    },
    "date": {
        "en": (
            "when", "what year", "which year", "in what year", "in which year", "what date",
            "what day", "since when",
        ),
        "de": ("wann", "welchem jahr", "welches jahr", "seit wann", "bis wann", "welches datum"),
        "fr": ("quand", "quelle année", "depuis quand", "quelle date"),
        "es": ("cuándo", "qué año", "desde cuándo", "qué fecha"),
        "it": ("quando", "che anno", "quale anno", "da quando"),
        "fi": ("milloin", "minä vuonna"),
        "ja": ("いつ", "何年", "何月", "何日"),
        "zh": ("什么时候", "哪一年", "哪年", "何时"),
    },
    "name": {
        "en": (
            "who", "whom", "whose", "which company", "what company", "which team",
            "which organisation", "which organization", "which party", "which brand",
            "which band", "which club", "what is the name",
        ),
        "de": ("wer", "wem", "wen", "wessen", "welche firma", "welches unternehmen",
               "welcher verein"),
        "fr": ("qui", "quelle entreprise", "quelle société"),
        "es": ("quién", "quiénes", "cómo se llama", "qué empresa", "qué compañía"),
        "it": ("chi", "quale azienda", "quale società"),
        "fi": ("kuka", "ketkä", "kenen", "kenelle"),
        "ja": ("誰", "だれ", "どなた"),
        "zh": ("谁",),
    },
    "place": {
        "en": (
            "where", "which city", "what city", "which country", "what country", "which town",
            "what town", "which state", "which venue", "what venue",
        ),
        "de": ("wo", "wohin", "woher", "welcher stadt", "welche stadt", "welchem land",
               "welches land"),
        "fr": ("où", "quelle ville", "quel pays"),
        "es": ("dónde", "adónde", "qué ciudad", "qué país"),
        "it": ("dove", "quale città", "che città", "quale paese"),
        "fi": ("missä", "mistä", "mihin"),
        "ja": ("どこ",),
        "zh": ("哪里", "哪儿", "在哪"),
    },
}  # fmt: skip
"""Opening phrases of a question, by the kind of answer they ask for and by language."""

LANGUAGE_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(text.split())
    for lang, text in {
        "en": "the of and to in is was did does do a an what who how which when where for on "
        "with by from at were are has have",
        "de": "der die das den dem des und ist ein eine einen im zu mit von für auf wie wer "
        "wann wo welche welcher welches welchem nicht hat wurde sich bei aus",
        "fr": "le la les de des du un une et est qui que quel quelle combien quand où au aux "
        "pour dans sur en",
        "es": "el la los las de del un una y es que qué quién cuándo dónde cuántos cuánto en "
        "por para con al se",
        "it": "il lo la gli le di del della che è un una e per con chi quando dove quanti "
        "quanto sugli sul nel",
        "fi": "ja on kuinka mikä kuka milloin missä se ei että",
    }.items()
}
"""Function words that tell the languages of Latin-script questions apart."""

OPENING_WORDS = 3
"""A phrase must start within this many words of the query's start ("From how many ...")."""

_NUMBER_WORD_TEXT = """
    two three four five six seven eight nine ten eleven twelve fifteen twenty hundred thousand
    million billion dozen zwei drei vier fünf sechs sieben acht neun zehn elf zwölf
    hundert tausend million millionen milliarde milliarden deux trois quatre cinq six sept
    huit neuf dix cent mille millions milliards dos tres cuatro cinco seis siete ocho nueve
    diez cien mil millones tre quattro cinque sette nove dieci cento milioni miliardi"""
NUMBER_WORDS = frozenset(_NUMBER_WORD_TEXT.split())
"""Number words that count as a quantity (two to twelve and the big units); words that are
also common words of another language ("due", "sei", "otto") are left out."""

_MONTH_TEXT = """
    january february march april june july august september october november december
    jan feb apr jun jul aug sept oct nov dec januar februar märz mai juni juli
    oktober dezember janvier février avril juin juillet août septembre octobre novembre
    décembre enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre
    diciembre gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre"""
MONTHS = frozenset(_MONTH_TEXT.split())
"""Month names and abbreviations (lower-case) that mark a date; "may", "mar" and "mars" are
left out, being far more often a verb, a word or a planet."""

_CJK_RE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_RE = re.compile("[\u3040-\u30ff]")
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")
_YEAR_RE = re.compile(r"(?<![\d.,])(?:1[5-9]\d\d|20\d\d)(?![\d.,]\d)")
_NUMERIC_DATE_RE = re.compile(r"\b(?:\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d\d-\d\d)\b")
_CJK_DATE_RE = re.compile(r"\d+\s*[年月日]")
_CAPITAL = "[A-ZÀ-ÖØ-Þ][\\w'\u2019-]+"
_PARTICLE = r"(?:van|von|der|den|de|da|di|del|la|le|du|bin|al|y|ibn)"
_NAME_RUN_RE = re.compile(rf"{_CAPITAL}(?:\s+(?:{_PARTICLE}\s+)*{_CAPITAL})+")
_PLACE_RE = re.compile(
    rf"\b(?i:in|at|near|from|to|aus|nach|bei|im|à|au|en|desde|da|nel)\s+(?:the\s+)?({_CAPITAL})"
)
_OPENERS = frozenset().union(*LANGUAGE_WORDS.values())
"""Capitalised function words ("The", "Die", "El") that start a sentence, not a name."""


def query_language(query: str) -> str | None:
    """Return the language of *query*: ``ja`` (kana), ``zh`` (Han without kana), else the
    language with the most of the query's words among its :data:`LANGUAGE_WORDS` (the first
    of a tie, in table order); None when no word is a function word of any."""
    ranked = _languages(query)
    return ranked[0] if ranked else None


def _languages(query: str) -> list[str]:
    """The languages *query* may be in, best first: the script's, or the Latin-script
    languages tied for the most function words (none when it has none)."""
    if _KANA_RE.search(query):
        return ["ja"]
    if _CJK_RE.search(query):
        return ["zh"]
    tokens = words(query)
    counts = {lang: sum(t in known for t in tokens) for lang, known in LANGUAGE_WORDS.items()}
    top = max(counts.values())
    return [lang for lang, n in counts.items() if n == top] if top else []


@cache
def _phrases(lang: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The opening phrases of *lang* as word tuples with their kind, longest first."""
    found = [
        (tuple(words(phrase)), kind)
        for kind, by_language in ANSWER_KINDS.items()
        for phrase in by_language.get(lang, ())
    ]
    return tuple(sorted(found, key=lambda item: -len(item[0])))


class AnswerQuery(NamedTuple):
    """What a question asks for, read once per query (:func:`read_question`)."""

    kind: str
    """The kind of answer asked for, a key of :data:`ANSWER_KINDS`."""
    words: frozenset[str]
    """The query's lower-cased words: a token among them is not new evidence."""
    numbers: frozenset[str]
    """The numbers written in the query, as written ("2,300")."""


def answer_kind(query: str) -> str | None:
    """Return the kind of answer *query* asks for (a key of :data:`ANSWER_KINDS`), or None.

    Only the phrases of the query's language are tried (of each language tied for it); a
    query without a function word of any language ("Quanta immune sentinels") asks for none.
    """
    languages = _languages(query)
    if languages in (["ja"], ["zh"]):
        lang = languages[0]
        return next(
            (kind for kind, by in ANSWER_KINDS.items() if any(p in query for p in by[lang])),
            None,
        )
    tokens = words(query)
    for language in languages:
        for phrase, kind in _phrases(language):
            for at in range(min(OPENING_WORDS, len(tokens))):
                if tuple(tokens[at : at + len(phrase)]) == phrase:
                    return kind
    return None


def read_question(query: str) -> AnswerQuery | None:
    """Return what *query* asks for, or None when it asks for no kind of answer."""
    kind = answer_kind(query)
    if kind is None:
        return None
    numbers = frozenset(m.group() for m in _NUMBER_RE.finditer(query))
    return AnswerQuery(kind, frozenset(words(query)), numbers)


def holds_answer_kind(text: str, asked: AnswerQuery) -> bool:
    """Return True when *text* holds a token of the kind *asked* for that the query does
    not hold itself."""
    if asked.kind == "quantity":
        return _has_number(text, asked)
    if asked.kind == "date":
        return _has_date(text, asked)
    if asked.kind == "name":
        return any(_is_name(m.group(), asked.words) for m in _NAME_RUN_RE.finditer(text))
    if asked.kind == "place":
        return any(m.group(1).lower() not in asked.words for m in _PLACE_RE.finditer(text))
    return False


def _has_number(text: str, asked: AnswerQuery) -> bool:
    """A number, in digits or words, that the query does not hold."""
    if any(m.group() not in asked.numbers for m in _NUMBER_RE.finditer(text)):
        return True
    return any(w in NUMBER_WORDS and w not in asked.words for w in words(text))


def _has_date(text: str, asked: AnswerQuery) -> bool:
    """A year the query does not hold, a numeric or CJK date, or a month it does not name."""
    if any(m.group() not in asked.numbers for m in _YEAR_RE.finditer(text)):
        return True
    if _NUMERIC_DATE_RE.search(text) or _CJK_DATE_RE.search(text):
        return True
    return any(w in MONTHS and w not in asked.words for w in words(text))


def _is_name(run: str, query_words: frozenset[str]) -> bool:
    """A capitalised run names something when, less a sentence-opening function word, two
    or more words remain and one of them is not in the query."""
    parts = run.split()
    if parts[0].lower() in _OPENERS:
        parts = parts[1:]
    capitals = [p for p in parts if p[:1].isupper()]
    return len(capitals) >= 2 and any(p.lower() not in query_words for p in capitals)
