"""What a page says it is: schema.org JSON-LD types, ``articleBody`` and ``og:type``."""

from __future__ import annotations

import enum
import re

from lxml.html import HtmlElement

__all__ = ["ArticleClaim", "article_claim"]

_LD_TYPE_RE = re.compile(r'"@type"\s*:\s*\[?\s*"([A-Za-z]+)"')
# Types that news sites and blogs use for a story; CMSs put the generic ones on any page.
_NEWS_TYPES = frozenset(
    (
        "NewsArticle",
        "BlogPosting",
        "ReportageNewsArticle",
        "OpinionNewsArticle",
        "AnalysisNewsArticle",
        "Report",
    )
)
_GENERIC_TYPES = frozenset(("Article", "TechArticle", "ScholarlyArticle", "SatiricalArticle"))


class ArticleClaim(enum.IntEnum):
    """How strongly a page declares itself a single article."""

    NONE = 0
    GENERIC = 1  # og:type article, a generic schema.org Article, or an articleBody
    NEWS = 2  # a news or blog story type in JSON-LD


def _ld_types(root: HtmlElement) -> set[str]:
    types: set[str] = set()
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() == "application/ld+json":
            types.update(_LD_TYPE_RE.findall(script.text or ""))
    return types


def article_claim(root: HtmlElement) -> ArticleClaim:
    """Return how strongly the page (before scripts are removed) claims to be an article."""
    types = _ld_types(root)
    if types & _NEWS_TYPES:
        return ArticleClaim.NEWS
    if types & _GENERIC_TYPES or root.find('.//*[@itemprop="articleBody"]') is not None:
        return ArticleClaim.GENERIC
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key == "og:type" and (meta.get("content") or "").strip().lower() == "article":
            return ArticleClaim.GENERIC
    return ArticleClaim.NONE
