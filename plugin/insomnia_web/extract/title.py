"""The page title: og:title, then ``<title>``, then the first ``<h1>``, minus " | Site" suffixes."""

from __future__ import annotations

import re

from lxml.html import HtmlElement

__all__ = ["page_title"]

_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ", " » ", " / ")
_MAX_TITLE = 300


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())[:_MAX_TITLE]


def _meta(root: HtmlElement, *names: str) -> str:
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key in names:
            value = _clean(meta.get("content"))
            if value:
                return value
    return ""


def _strip_site(title: str, site: str) -> str:
    """Drop a trailing (or leading) site name separated by " | ", " - " and the like."""
    site_key = re.sub(r"\W+", "", site.lower())
    for sep in _SEPARATORS:
        if sep not in title:
            continue
        parts = title.split(sep)
        first, last = parts[0].strip(), parts[-1].strip()
        if site_key and re.sub(r"\W+", "", last.lower()) == site_key:
            return sep.join(parts[:-1]).strip()
        if site_key and re.sub(r"\W+", "", first.lower()) == site_key:
            return sep.join(parts[1:]).strip()
        # Without a known site name, drop a short last part ("Title | Site").
        head = sep.join(parts[:-1]).strip()
        if len(last.split()) <= 4 and len(head.split()) >= 2 and len(head) > len(last):
            return head
    return title


def page_title(root: HtmlElement) -> str | None:
    """Return the cleaned title of the page, or ``None`` when it has none."""
    site = _meta(root, "og:site_name", "application-name")
    og = _meta(root, "og:title", "twitter:title")
    if og:
        return _strip_site(og, site) if site else og
    title_el = root.find(".//title")
    title = _clean(title_el.text_content()) if title_el is not None else ""
    if title:
        return _strip_site(title, site)
    for h1 in root.iter("h1"):
        text = _clean(h1.text_content())
        if text:
            return text
    return None
