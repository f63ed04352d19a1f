"""Visible-text rules as data: phrases keyed by rule and language, applied by one engine.

Each rule of :data:`PHRASES` maps a language (a primary subtag, ``"de"``) to the phrases that
mark boilerplate in that language; a phrase is a regular expression matched against the whole
of a short, whitespace-collapsed text (a heading, a label), case-insensitively, with trailing
punctuation ignored. A page whose language is unknown matches no phrase: it gets the
structural rules (tags, roles, class and id names, link density) only.
"""

from __future__ import annotations

import functools
import re

__all__ = ["PHRASES", "matches"]

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
}

_TRAILING = r"[\s:.!?…。！？：]*"


@functools.cache
def _compiled(rule: str, language: str) -> re.Pattern[str] | None:
    phrases = PHRASES[rule].get(language)
    if not phrases:
        return None
    return re.compile(f"(?:{'|'.join(phrases)}){_TRAILING}", re.I)


def matches(rule: str, language: str | None, text: str) -> bool:
    """True when whitespace-collapsed *text* is one of *rule*'s phrases in *language*."""
    if language is None:
        return False
    pattern = _compiled(rule, language)
    return pattern is not None and pattern.fullmatch(text) is not None
