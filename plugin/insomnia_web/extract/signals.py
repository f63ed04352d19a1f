"""What a page says it is: schema.org JSON-LD types and Open Graph ``og:type``."""

from __future__ import annotations

import re

from lxml.html import HtmlElement

__all__ = ["declares_article"]

_LD_TYPE_RE = re.compile(r'"@type"\s*:\s*\[?\s*"([A-Za-z]+)"')
_ARTICLE_TYPES = frozenset(
    (
        "Article",
        "NewsArticle",
        "BlogPosting",
        "ReportageNewsArticle",
        "OpinionNewsArticle",
        "AnalysisNewsArticle",
        "TechArticle",
        "ScholarlyArticle",
        "SatiricalArticle",
        "Report",
    )
)


def declares_article(root: HtmlElement) -> bool:
    """True when the page declares an article: ``og:type``, JSON-LD ``@type``, ``articleBody``."""
    if root.find('.//*[@itemprop="articleBody"]') is not None:
        return True
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key == "og:type" and (meta.get("content") or "").strip().lower() == "article":
            return True
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        if any(t in _ARTICLE_TYPES for t in _LD_TYPE_RE.findall(script.text or "")):
            return True
    return False
