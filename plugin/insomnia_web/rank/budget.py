"""What excerpts cost against the token budget, labels included.

The model reads excerpts grouped by source (:mod:`insomnia_web.pipeline.search_layout`)::

    [1] Title - URL            (or "[1] URL" when the URL already says what the page is)
    By Author · 2026-03-01
    § Heading the title does not already say, on what the query asks
    passage
    …
    passage

A source pays for its label line once (:func:`source_label`: the title as
:func:`shown_title` shows it, and the whole URL), its byline when the page states its
author or dates (``By Author · 2026-03-01``), and the blank line before it. Every
passage pays for its text, its heading line when :func:`shown_heading` shows one, and one
separator line (a line break, or ``…`` between passages that are not adjacent on the page).
The label is priced with a three-digit ``[nnn]`` because ids are assigned only after
selection. Pricing each part separately rounds each up, so the total errs on the high side,
as a budget should. The text around the excerpts (provenance line, untrusted-content
delimiters, notes) is priced by the pipeline, which keeps the whole text within
``max_tokens``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable
from urllib.parse import unquote

from ..modeltext import label_title
from .analysis import analyze
from .tokens import estimate_tokens

__all__ = [
    "PASSAGE_SEPARATOR_TOKENS",
    "SEPARATOR_TOKENS",
    "capped",
    "excerpt_cost",
    "label_cost",
    "passage_cost",
    "selection_cost",
    "shown_heading",
    "shown_title",
    "source_label",
    "source_label_cost",
]

SEPARATOR_TOKENS = 2
"""The line breaks around a source's block."""
PASSAGE_SEPARATOR_TOKENS = 1
"""The line between two passages of one source (a line break or ``…``)."""
MAX_TITLE_WORDS = 8
"""Longest title shown in a label, in words; a longer one is cut and ends in ``…``."""
MAX_HEADING_WORDS = 5
"""Longest heading line shown, in words (cut like a title)."""
MAX_LINE_CHARS = 80
"""Longest title or heading shown, in characters."""
TITLE_IN_URL = 0.75
"""Share of a title's index terms the URL must contain for the label to show the URL only."""
PATH_WORDS = 3
"""Distinct words (numbers and :data:`URL_WORDS` aside) a URL's path must name for the URL
to say what the page is: its label then shows no title. On the dev set (``bench/recall.py``)
the title words this leaves out go to evidence: 0.7 points fewer label tokens at 1000,
+0.013 recall at 500 (both halves), no question lost at any budget."""
URL_WORDS = frozenset({"htm", "html", "php", "asp", "aspx", "jsp", "cgi", "index", "amp"})
"""Words of a URL's path that name its software, not the page."""

_PATH_RE = re.compile(r"^[^/?#]*//[^/?#]*([^?#]*)")
_TITLE_PART_RE = re.compile(r"\s+[|\-\u2013\u2014\u00b7:]{1,2}\s+")
_NON_ALNUM_RE = re.compile(r"[\W_]+")


def _site_part(part: str, host: str) -> bool:
    """True when a title part only names the site (``CBS News`` on ``www.cbsnews.com``)."""
    squashed = _NON_ALNUM_RE.sub("", part.lower())
    return len(squashed) >= 2 and squashed in host


@functools.lru_cache(maxsize=4096)
def shown_title(title: str, url: str) -> str:
    """The title as a source's label shows it: ``""`` when the URL already says it.

    Words of the title that read as an address are left out first
    (:func:`~insomnia_web.modeltext.label_title`). A URL whose path names
    :data:`PATH_WORDS` words or more (a slug, usually) says what the page is, and is the
    whole label. Otherwise, a first or last part that
    only names the site (``... | DW`` on ``dw.com``) is left out; what remains is not shown
    when the URL holds at least :data:`TITLE_IN_URL` of its index terms, and is cut to
    :data:`MAX_TITLE_WORDS` words otherwise. A title without index terms ("About us") is
    not shown either.
    """
    text = label_title(title)
    if not text or _says_what_it_is(url):
        return ""
    host = _NON_ALNUM_RE.sub("", url.split("//", 1)[-1].split("/", 1)[0].lower())
    parts = _TITLE_PART_RE.split(text)
    if len(parts) > 1 and _site_part(parts[-1], host):
        text = " - ".join(parts[:-1])
    elif len(parts) > 1 and _site_part(parts[0], host):
        text = " - ".join(parts[1:])
    terms = set(analyze(text))
    in_url = set(analyze(_NON_ALNUM_RE.sub(" ", url)))
    if not terms or len(terms & in_url) >= TITLE_IN_URL * len(terms):
        return ""
    return capped(text, MAX_TITLE_WORDS)


def _says_what_it_is(url: str) -> bool:
    """True when *url*'s path (percent-decoded) names :data:`PATH_WORDS` distinct words,
    numbers and :data:`URL_WORDS` aside."""
    found = _PATH_RE.match(url)
    words = set(analyze(_NON_ALNUM_RE.sub(" ", unquote(found.group(1))))) if found else set()
    return len({w for w in words if not w.isdigit()} - URL_WORDS) >= PATH_WORDS


def capped(text: str, max_words: int) -> str:
    """*text* cut to *max_words* words (and :data:`MAX_LINE_CHARS` characters, for scripts
    written without spaces), less trailing stopwords, then ``…``; whole if shorter."""
    words = text.split()
    if len(words) <= max_words and len(text) <= MAX_LINE_CHARS:
        return text
    kept = words[:max_words]
    while len(" ".join(kept)) > MAX_LINE_CHARS and len(kept) > 1:
        kept.pop()
    while len(kept) > 1 and not analyze(kept[-1]):
        kept.pop()
    return " ".join(kept)[:MAX_LINE_CHARS].rstrip(",;:-") + "…"


def source_label(n: int | str, title: str, url: str) -> str:
    """A source's label line: ``[n] Title - URL``, or ``[n] URL`` when :func:`shown_title`
    shows no title. The URL is always whole: it is what WebFetch takes."""
    shown = shown_title(title, url)
    return f"[{n}] {shown} - {url}" if shown else f"[{n}] {url}"


def shown_heading(title: str, heading: str | None, asked: Collection[str]) -> str | None:
    """The heading shown under *title* for a query of the index terms *asked*: the innermost
    part of the heading path that says something the title does not, when it names a term
    the query asks about; else ``None``.

    A part says nothing new when all its index terms occur in the title ("Iceland facts >
    Geography" under the title "Iceland facts" shows "Geography"), or when it has no index
    terms at all ("More:"). Outer parts are left out: the innermost heading is the one that
    names the passage's topic, and a whole path costs a line's worth of tokens. A heading
    that names nothing the query asks about is not evidence, and is left out too: on the dev
    set (``bench/recall.py``) that spends a tenth fewer tokens on labels, and the same
    questions are answered.
    """
    if not heading:
        return None
    said = set(analyze(title, keep_stopwords=True))
    for part in reversed(heading.split(" > ")):
        terms = set(analyze(part))
        if terms and not terms <= said:
            return capped(part, MAX_HEADING_WORDS) if not terms.isdisjoint(asked) else None
    return None


def source_label_cost(title: str, url: str, byline: str | None = None) -> int:
    """The tokens of a source's label line, its byline and the blank line before them (paid
    once per source)."""
    cost = estimate_tokens(source_label("nnn", title, url)) + SEPARATOR_TOKENS
    if byline:
        cost += estimate_tokens(byline) + 1
    return cost


def passage_cost(title: str, heading: str | None, text: str, asked: Collection[str]) -> int:
    """The tokens of one passage under its source's label, for a query of the index terms
    *asked*: heading line, text, separator."""
    cost = estimate_tokens(text) + PASSAGE_SEPARATOR_TOKENS
    shown = shown_heading(title, heading, asked)
    if shown:
        cost += estimate_tokens(f"§ {shown}") + 1
    return cost


def selection_cost(
    excerpts: Iterable[tuple[str, str, str | None, str]],
    asked: Collection[str],
    bylines: dict[str, str] | None = None,
) -> int:
    """The cost of (title, url, heading, text) passages as laid out for a query of the index
    terms *asked*: one label per URL (with its byline from *bylines*, by URL, if any)."""
    seen: set[str] = set()
    total = 0
    for title, url, heading, text in excerpts:
        if url not in seen:
            seen.add(url)
            total += source_label_cost(title, url, (bylines or {}).get(url))
        total += passage_cost(title, heading, text, asked)
    return total


def label_cost(title: str, url: str, heading: str | None, byline: str | None = None) -> int:
    """The one-label-per-passage layout's overhead: a label line (byline, heading line) each.

    Kept to measure the earlier layout against the grouped one (``bench/recall.py``).
    """
    shown = " ".join(title.split()) or url
    cost = estimate_tokens(f"[nnn] {shown} - {url}") + SEPARATOR_TOKENS
    if byline:
        cost += estimate_tokens(byline) + 1
    if heading:
        cost += estimate_tokens(heading) + 1
    return cost


def excerpt_cost(
    title: str, url: str, heading: str | None, text: str, byline: str | None = None
) -> int:
    """One passage's cost in the one-label-per-passage layout: label overhead plus text."""
    return label_cost(title, url, heading, byline) + estimate_tokens(text)
