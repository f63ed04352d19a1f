"""Visible-text rules as data: phrases keyed by rule and language, applied by one engine.

Each rule of :data:`PHRASES` maps a language (a primary subtag, ``"de"``) to the phrases that
mark boilerplate in that language; a phrase is a regular expression matched against the whole
of a short, whitespace-collapsed text (a heading, a label), case-insensitively, with marks and
punctuation around it ignored. A page whose language is unknown, or that has no phrases for a
rule, matches none of that rule's phrases: it gets the structural rules (tags, roles, class
and id names, link density) only.

Adding a language is adding its phrases under each rule's key; no code changes. The rule
that reads a phrase table says which texts it tests (a heading, a card's label, a post's
control), and its thresholds sit beside it as a frozen dataclass.
"""

from __future__ import annotations

import functools
import re

__all__ = [
    "PHRASES",
    "SEARCHED",
    "any_pattern",
    "has_phrases",
    "holds_any",
    "matches",
    "matches_any",
    "searched_phrases",
]

PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    # Headings that open a section after, or beside, the content: related stories, sharing,
    # comments, newsletters, shop cross-sells, a service page's closing prompts.
    "closing_heading": {
        "en": (
            r"related(?: \w+)?",
            r"you (?:may|might) also (?:like|enjoy)",
            r"recommended(?: for you)?",
            r"more (?:from|stories|articles|news|like this)",
            r"(?:most )?popular(?: \w+)?",
            r"trending(?: \w+)?",
            r"read (?:more|next)",
            r"up next",
            r"latest (?:news|posts|articles|stories)",
            r"recent (?:posts|news|articles|stories|events.*|activity)",
            r"featured (?:products|items|stories|posts|articles)",
            r"sponsored (?:content|stories|posts|articles|links)",
            r"upcoming events",
            r"share(?: this)?(?: \w+)?",
            r"follow us",
            r"sign up.*",
            r"subscribe.*",
            r"(?:our )?newsletter",
            r"(?:leave a|post a) (?:reply|comment)",
            r"comments?",
            r"\d+ comments?",
            r"join the (?:discussion|conversation)",
            r"create an account(?: or sign in.*)?",
            r"sign in",
            r"top posters.*",
            r"users? browsing this (?:thread|topic|forum)",
            r"about the author",
            r"tags",
            r"categories",
            r"archives",
            r"customers (?:also|who) .*",
            r"frequently bought together",
            r"similar(?: \w+)?",
            r"(?:pairs?|goes) (?:well |beautifully )?with.*",
            r"complete the (?:look|set)",
            r"(?:get|shop) the look",
            r"(?:top |customer |user |product |most helpful )?reviews(?: from .*| with images)?",
            r"customers say",
            r"write a review",
            r"ratings? (?:and|&) reviews",
            r"products related to this item",
            r"how do you want your item",
            r"(?:others|customers|people) like you also bought.*",
            r"(?:user|customer) testimonials",
            r"shipping (?:&|and) returns",
            r"delivery (?:&|and) pickup",
            r"financing(?: options)?",
            r"pay over time.*",
            r"bundle (?:&|and) save.*",
            r"get \$\d+ in value",
            r"latest insights",
            r"you may (?:also )?be interested in.*",
            r"how can we help(?: you)?",
            r"featured (?:insights|resources|client stories|case studies).*",
            r"(?:our )?(?:client |customer )?success(?:es| stories)",
            r"trusted by.*",
            r"stay (?:connected|tuned)",
            r"let'?s connect",
            r"(?:stories|posts) by category",
            r"thanks for your feedback",
            r"was this (?:page|article) helpful.*",
            r"affiliations(?: (?:and|&) memberships)?",
            r"how else (?:we can|can we) help.*",
            r"contact our [\w ]{0,40}(?:team|professionals|experts)",
            r"discuss your (?:use case|project).*",
            r"(?:other )?(?:posts|articles|stories) you may (?:also )?(?:like|enjoy)",
        ),
        "de": (
            r"(?:ähnliche|verwandte|weitere) (?:artikel|beiträge|themen|nachrichten|produkte)",
            r"das könnte (?:sie|dich) auch interessieren",
            r"auch interessant",
            r"mehr zum thema.*",
            r"(?:meistgelesen|am meisten gelesen|beliebte (?:artikel|beiträge))",
            r"(?:\d+ )?kommentare?",
            r"(?:schreibe|hinterlasse) (?:einen|einen neuen) kommentar",
            r"(?:artikel )?teilen",
            r"folgen sie uns.*",
            r"newsletter(?: abonnieren)?",
            r"über (?:den autor|die autorin)",
            r"schlagwörter",
        ),
        "fr": (
            r"(?:articles?|contenus?|sujets?) (?:similaires|associés|liés|recommandés)",
            r"(?:à|a) lire aussi",
            r"(?:les )?plus lus",
            r"vous (?:aimerez|aimeriez|pourriez aimer) aussi.*",
            r"(?:\d+ )?commentaires?",
            r"laisser un commentaire",
            r"partager(?: cet article)?",
            r"suivez-nous.*",
            r"(?:inscrivez-vous à notre )?newsletter",
            r"(?:à propos de l'auteur|l'auteur)",
        ),
        "es": (
            r"(?:artículos|noticias|entradas|contenidos) (?:relacionad[oa]s|similares)",
            r"(?:te|le) puede interesar",
            r"también (?:te|le) puede interesar",
            r"lo más (?:leído|visto)",
            r"(?:\d+ )?comentarios?",
            r"(?:deja|dejar) (?:un|una) (?:comentario|respuesta)",
            r"compartir(?: este artículo)?",
            r"síguenos.*",
            r"(?:suscríbete al )?boletín",
            r"sobre el autor",
        ),
        "ja": (
            r"関連(?:記事|ニュース|商品|コンテンツ)",
            r"(?:人気|おすすめ)(?:の)?記事",
            r"(?:この記事を)?シェア(?:する)?",
            r"コメント",
            r"こちらもおすすめ",
        ),
        "zh": (
            r"(?:相关|相關)(?:文章|阅读|閱讀|新闻|新聞|推荐|推薦)",
            r"(?:热门|熱門)(?:文章|新闻|新聞)",
            r"(?:推荐|推薦)阅读",
            r"(?:评论|評論|留言)",
            r"分享",
        ),
    },
    # A product or listing card's sticker: merchandising, novelty, merit and ad marks,
    # fulfilment and stock badges. One vocabulary for every card rule. "Sold out" is no badge:
    # it says the product cannot be had.
    "card_badge": {
        "en": (
            r"new!?|brand new|new (?:arrivals?|releases?|colou?rs?)|just in",
            r"best ?sellers?|top rated|award winner|staff pick|trending|hot",
            r"(?:[a-z]+ )?exclusive|limited edition|(?:on )?sale|clearance",
            r"sponsored|promoted|advertisement|ad",
            r"(?:in|low) stock|only \d+ left(?: in stock)?|back-?order(?:ed)?",
            r"free(?: [\w-]+){0,2} (?:delivery|shipping|returns)|ships? from [\w ]{2,30}",
            r"bundle (?:and|&) save",
        ),
        "de": (r"neu(?:heit)?|bestseller|anzeige|gesponsert|werbung",),
        "fr": (r"nouveau(?:té)?|sponsorisé|publicité",),
        "es": (r"nuevo|novedad|patrocinado|publicidad",),
    },
    # A card's counter: a number and what it counts (engagement, episodes, answers).
    "card_counter": {
        "en": (
            r"\d[\d,.]*\s?[km]?\+? (?:comments?|reactions?|likes?|views?|shares?|repl(?:y|ies)|"
            r"votes?|upvotes?|claps?|episodes?|answers?|ratings?)",
        ),
        "de": (r"\d[\d,.]*\s?[km]?\+? (?:kommentare?|antworten|aufrufe|bewertungen)",),
        "fr": (r"\d[\d,.]*\s?[km]?\+? (?:commentaires?|réponses?|vues|avis)",),
        "es": (r"\d[\d,.]*\s?[km]?\+? (?:comentarios?|respuestas?|vistas|votos)",),
    },
    # A block still waiting for its script.
    "placeholder": {
        "en": (r"loading",),
        "de": (r"(?:wird )?geladen",),
        "fr": (r"chargement",),
        "es": (r"cargando",),
        "ja": (r"読み込み中",),
        "zh": (r"(?:加载中|載入中)",),
    },
    # A listing's status line and controls, and a card's relative age or reading time, each
    # alone in its block.
    "listing_status": {
        "en": (
            r"sort(?: by)?|filters?(?: (?:&|and) sort)?|view|load more|show more",
            r"showing \d[\d,]*(?:\s*[-–]\s*\d[\d,]*)?(?: of \d[\d,]*)?(?: \w+)?",
            r"\d[\d,]*(?:\s*[-–]\s*\d[\d,]*)? (?:items?|products?|results?)(?: of \d[\d,]*)?",
            r"page \d+ of \d+",
            r"\d+\s?(?:mins?|minutes?|hours?|hrs?|days?|weeks?|months?|years?) (?:ago|read)",
        ),
    },
    # A link to a place on the same page that lets a keyboard user skip a part of it.
    "skip_link": {
        "en": (r"skip .+",),
        "de": (r".+ überspringen",),
        "fr": (r"(?:passer|aller) (?:au|à la|aux) .+",),
        "es": (r"(?:saltar|ir) (?:al|a la) .+",),
    },
    # A label repeated on every card that starts with a verb or says "more" or "details"
    # ("Quick view", "View profile"; "read only" is a field's mode).
    "card_action": {
        "en": (
            r"(?:view|read(?! only)|compare|listen|add|shop|buy|learn|see|more|details|quick|"
            r"get|order|book|apply|watch|explore|discover|find|show|download|select|choose)\b.*",
        ),
    },
    # A forum post's action link or label (reply, quote, report, share), the bar above a code
    # box, a thread's starter and start date and the invitation to register below it, the
    # label of an ad slot between posts, and the board's footer below a thread (what a
    # visitor may do, links to the previous and next thread, the clock).
    "post_control": {
        "en": (
            r"reply(?: with quote)?|quote|multi-?quote|report(?: post| inappropriate content)?",
            r"share(?: post)?|permalink|(?:code: )?select all",
            r"(?:thread starter|start date)(?: .{1,40})?",
            r"you must (?:log in|sign in|be logged in) or register to reply here",
            r"advertisement(?: - .{1,40})?",
            r"you may(?: not)? (?:post (?:new threads|replies|attachments|polls)|edit your posts)",
            r"(?:bb ?code|smilies|\[img\] code|\[video\] code|html code) (?:is|are) (?:on|off)",
            r"(?:« ?)?previous thread \| next thread(?: ?»)?",
            r"all times are (?:gmt|utc)[^.]{0,12}\.(?: the time now is [\d:]{3,8}(?: ?[ap]m)?)?",
        ),
    },
    # A poster's statistics beside each post ("Posts: 710", "29,553 posts").
    "poster_stat": {
        "en": (
            r"(?:posts|messages|join(?:ed| date)|registered|reputation|reaction score|points)"
            r"\s*:\s*[\w ,./-]{1,20}",
            r"[\d,.]+k? (?:posts|messages)",
        ),
    },
    # A quote's attribution line ("Sam said:", "On 8/26/2024 at 5:29 PM, Sam said:"): searched.
    "quote_attribution": {
        "en": (r"\b(?:said|wrote|posted)\s*:?\s*(?:\u2191|\^)?$",),
        "de": (r"\b(?:schrieb|sagte)\s*:?\s*(?:\u2191|\^)?$",),
        "fr": (r"\ba (?:écrit|dit)\s*:?\s*(?:\u2191|\^)?$",),
        "es": (r"\b(?:escribió|dijo)\s*:?\s*(?:\u2191|\^)?$",),
    },
    # A call to subscribe or follow among a story's last lines: searched.
    "closing_line": {
        "en": (r"\bfollow us\b", r"\bsubscribe (?:now|to|today)\b", r"\bnewsletter\b"),
        "de": (r"\bfolgen sie uns\b", r"\babonnieren sie\b", r"\bnewsletter\b"),
        "fr": (r"\bsuivez-nous\b", r"\babonnez-vous\b", r"\bnewsletter\b"),
        "es": (r"\bs[ií]guenos\b", r"\bsuscr[ií]bete\b", r"\bnewsletter\b"),
    },
    # A copyright notice ("©" and "(c)" need no language: see :mod:`.tidy`): searched.
    "legal_line": {
        "en": (r"^\W*copyright\b", r"\ball rights reserved\b"),
        "de": (r"\balle rechte vorbehalten\b",),
        "fr": (r"\btous droits réservés\b",),
        "es": (r"\btodos los derechos reservados\b",),
    },
    # Names of languages that a product's support matrix lists, one a row: searched in the
    # row's first cell.
    "language_name": {
        "en": (
            r"\b(?:english|french|german|spanish|italian|portuguese|russian|polish|dutch|czech|"
            r"danish|finnish|swedish|norwegian|hungarian|romanian|bulgarian|greek|turkish|"
            r"ukrainian|arabic|hebrew|hindi|thai|vietnamese|indonesian|malay|japanese|korean|"
            r"chinese|catalan|slovak|slovenian|croatian|serbian|lithuanian|latvian|estonian|"
            r"filipino|bengali)\b",
        ),
    },
}

# Rules whose phrases are searched for inside the text (anchored by the phrase itself, if at
# all) instead of matched against the whole of it.
SEARCHED = frozenset(("quote_attribution", "legal_line", "language_name", "closing_line"))
# Marks and punctuation around a phrase do not change it ("Sponsored ·", "» Related", "関連記事：").
_EDGE = r"\W*"


@functools.cache
def _compiled(rule: str, language: str) -> re.Pattern[str] | None:
    phrases = PHRASES[rule].get(language)
    if not phrases:
        return None
    return re.compile(f"{_EDGE}(?:{'|'.join(phrases)}){_EDGE}", re.I)


@functools.cache
def _searched(rule: str, language: str) -> tuple[re.Pattern[str], ...]:
    """One pattern per phrase of a :data:`SEARCHED` rule: Python's matcher searches a text
    for one phrase at a time several times faster than for their alternation, whose every
    branch it tries at every position."""
    return tuple(re.compile(phrase, re.I) for phrase in PHRASES[rule].get(language, ()))


def searched_phrases(rule: str, language: str | None) -> tuple[re.Pattern[str], ...]:
    """The patterns of a :data:`SEARCHED` *rule*'s phrases in *language* (none for an unknown
    language): :func:`matches` is true when one of them is found in the text.

    For a caller testing many texts: the patterns are looked up once.
    Raises ``ValueError`` for a rule that is not searched (or not a rule).
    """
    if rule not in SEARCHED:
        raise ValueError(f"only a searched rule's phrases are searched one by one: {rule}")
    return () if language is None else _searched(rule, language)


def holds_any(phrases: tuple[re.Pattern[str], ...], text: str) -> bool:
    """True when one of *phrases* (:func:`searched_phrases`) is found in *text*."""
    for phrase in phrases:  # noqa: SIM110 - a loop: a generator costs more per short text
        if phrase.search(text) is not None:
            return True
    return False


def has_phrases(rule: str, language: str | None) -> bool:
    """True when *rule* has phrases in *language*: else :func:`matches` is always false."""
    return language is not None and bool(PHRASES[rule].get(language))


@functools.cache
def _compiled_any(rules: tuple[str, ...], language: str) -> re.Pattern[str] | None:
    phrases = [phrase for rule in rules for phrase in PHRASES[rule].get(language, ())]
    if not phrases:
        return None
    return re.compile(f"{_EDGE}(?:{'|'.join(phrases)}){_EDGE}", re.I)


def any_pattern(rules: tuple[str, ...], language: str | None) -> re.Pattern[str] | None:
    """The one pattern of all *rules*' phrases in *language* (none of :data:`SEARCHED`), whose
    ``fullmatch`` of a text is :func:`matches_any`; ``None`` when there are no phrases.

    For a caller testing many texts: the pattern is looked up once.
    Raises ``KeyError`` for a rule that :data:`PHRASES` does not hold, ``ValueError`` for a
    searched one.
    """
    if not SEARCHED.isdisjoint(rules):
        raise ValueError(f"searched rules are matched one by one: {rules}")
    return None if language is None else _compiled_any(rules, language)


def matches_any(rules: tuple[str, ...], language: str | None, text: str) -> bool:
    """True when :func:`matches` is true for one of *rules* (none of :data:`SEARCHED`): one
    pattern of all their phrases reads the text once.

    Raises ``KeyError`` for a rule that :data:`PHRASES` does not hold, ``ValueError`` for a
    searched one.
    """
    pattern = any_pattern(rules, language)
    return pattern is not None and pattern.fullmatch(text) is not None


def matches(rule: str, language: str | None, text: str) -> bool:
    """True when whitespace-collapsed *text* is one of *rule*'s phrases in *language* (holds
    one, for a rule of :data:`SEARCHED`).

    Raises ``KeyError`` for a rule that :data:`PHRASES` does not hold.
    """
    if language is None:
        return False
    if rule in SEARCHED:
        return holds_any(_searched(rule, language), text)
    pattern = _compiled(rule, language)
    return pattern is not None and pattern.fullmatch(text) is not None
