"""What a page says it is: schema.org JSON-LD types, ``articleBody`` and ``og:type``."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Sequence

from lxml.html import HtmlElement

__all__ = ["ArticleClaim", "article_claim", "ld_json_texts", "og_type", "typed_items"]

_LD_TYPE_RE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[A-Za-z]+")')
"""A JSON-LD ``@type``: one name, or a list of them."""
_LD_NAME_RE = re.compile(r'"([A-Za-z]+)"')
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


def ld_json_texts(root: HtmlElement) -> Iterator[str]:
    """The text of each JSON-LD ``<script>`` of the page (before scripts are removed)."""
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() == "application/ld+json":
            yield script.text or ""


def typed_items(root: HtmlElement) -> list[HtmlElement]:
    """The elements under *root* with a microdata ``itemtype``, in document order.

    Read once for every rule that looks for a microdata type (a product, a forum post):
    removing elements later never adds one.
    """
    return list(root.iterfind(".//*[@itemtype]"))


def og_type(root: HtmlElement) -> str:
    """The page's Open Graph type (``og:type``), lowercased, or ``""``."""
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key == "og:type":
            return (meta.get("content") or "").strip().lower()
    return ""


def _ld_types(texts: Iterable[str]) -> set[str]:
    types: set[str] = set()
    for text in texts:
        for value in _LD_TYPE_RE.findall(text):
            types.update(_LD_NAME_RE.findall(value))
    return types


def article_claim(root: HtmlElement, ld_texts: Sequence[str] | None = None) -> ArticleClaim:
    """Return how strongly the page (before scripts are removed) claims to be an article.

    *ld_texts* are the page's :func:`ld_json_texts` when the caller has read them.
    """
    types = _ld_types(ld_json_texts(root) if ld_texts is None else ld_texts)
    if types & _NEWS_TYPES:
        return ArticleClaim.NEWS
    if types & _GENERIC_TYPES or root.find('.//*[@itemprop="articleBody"]') is not None:
        return ArticleClaim.GENERIC
    return ArticleClaim.GENERIC if og_type(root) == "article" else ArticleClaim.NONE
