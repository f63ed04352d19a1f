"""Main-content detection with readability-lxml, on an already parsed and cleaned tree.

readability's ``Document`` normally re-parses the source, runs an HTML cleaner and returns the
article as an HTML string. Here it works on a copy of our cleaned tree (scripts and hidden
elements are already gone) and hands back the article element itself, so nothing is parsed
twice and the article goes straight to our serializer.

Data tables are content: readability drops a short table as "too little text" and leaves
out a table beside its best candidate, so tables that look like data (rows of cells or
header cells, few links, no nested tables) are protected from its cleaning and from its
"unlikely candidate" pass (a class like "sticky-header" says nothing about a table), and
one that sat right after kept content is put back in place. Lists of sentences (steps,
tips) are protected from its cleaning too, and so are headings, whatever their classes say
(a "header" class on a heading's anchor link, a "scroll-mt-8" utility class) or however
much of them is a link, and the linked ``<header>`` of an ``<article>`` entry. Quotations
(an embedded post classed "twitter-tweet") and sections whose id only spells their heading
("respond-to-review-comments") are not taken for chrome by their names.

A story split into sections (an intro, a long ranked list, a method, a FAQ) makes
readability keep only the biggest section: the best candidate is lifted to the ancestor
that also holds the others when they add enough unlinked text.

Pages built from many similar blocks (service pages of page-builder sections, card grids,
FAQ panels) make readability pick one block and drop the others: when several candidates
that score like the chosen one still hold text outside the article, the article is only a
fragment and ``None`` is returned, so the caller falls back to the whole-page extraction.
So is an article found inside a dialog or a cookie or consent banner (a consent manager's
legal prose can outscore a listing's short blurbs).
"""

from __future__ import annotations

import copy
import functools
import itertools
import logging
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from lxml.etree import tounicode
from lxml.html import HtmlElement
from readability import Document
from readability import readability as readability_module
from readability.readability import REGEXES as READABILITY_RES

from .counts import (
    class_and_id,
    is_data_table,
    link_word_count,
    parent_link_words,
    parent_words,
    text_of,
    word_count,
)
from .patterns import HEADING_TAGS, NamePattern
from .serialize import INLINE_TAGS

__all__ = ["Article", "read_article", "readable_article"]

logging.getLogger("readability.readability").setLevel(logging.CRITICAL)


def _when_debugging(helper: Callable[..., str]) -> Callable[..., str]:
    """*helper*, one that words a debug message of readability's, run only while its debug
    log is on: readability formats those messages eagerly, describing each element it
    cleans and copying its whole text, even when no message is written."""
    log = logging.getLogger("readability.readability")

    @functools.wraps(helper)
    def quiet(*args: Any, **kwargs: Any) -> str:
        return helper(*args, **kwargs) if log.isEnabledFor(logging.DEBUG) else ""

    return quiet


readability_module.describe = _when_debugging(readability_module.describe)
readability_module.text_content = _when_debugging(readability_module.text_content)

_HEADINGS = HEADING_TAGS
_BLOCK_PREFIXES = ("blockquote", "dl", "div", "img", "ol", "p", "table", "ul")
# A wrapper around a data table ("table-responsive") is protected along with it when the
# table holds at least this share of its words.
_TABLE_WRAPPER_SHARE = 0.8
# Fragments: a candidate scoring at least this share of the top score is a peer of the best
# one (a sibling section, card or post built from the same template) ...
PEER_SHARE = 0.5
# ... only the highest-scoring candidates are compared (bounds the work on huge pages) ...
MAX_PEERS_CHECKED = 60
# ... and when this many peers still hold text outside readability's article, the article is
# one fragment of a page split into similar blocks and is not returned.
MIN_MISSED_PEERS = 2

# The best candidate is lifted to an ancestor (the part of the page that holds it and its
# sibling sections) that gets at least this share of its words from it ...
LIFT_MIN_SHARE = 0.6
# ... whose other words are mostly outside links (more sections, not a menu) ...
LIFT_MAX_LINK_SHARE = 0.3
# ... when the ancestor holds at least this many times its words (a byline, an author box or
# a footer add less than a third; missed sections add more).
LIFT_MIN_GAIN = 1.35
# ... and at least this many words (a short story's headline and byline are no section).
LIFT_MIN_EXTRA_WORDS = 150

# Statement lists (steps, tips, key points) are content: readability scores a list below zero
# and drops it. A list is one when its items hold at least this many words on average ...
STATEMENT_MIN_WORDS = 8
# ... and at most this share of its words sits in links (a list of links is navigation).
STATEMENT_MAX_LINK_SHARE = 0.3

# readability's patterns of class and id names, searched fast (:class:`.patterns.NamePattern`).
_UNLIKELY_RE = NamePattern(READABILITY_RES["unlikelyCandidatesRe"].pattern)
_MAYBE_RE = NamePattern(READABILITY_RES["okMaybeItsACandidateRe"].pattern)
_NEGATIVE_RE = NamePattern(READABILITY_RES["negativeRe"].pattern)
_POSITIVE_RE = NamePattern(READABILITY_RES["positiveRe"].pattern)
_SLUG_WORD_RE = re.compile(r"[^\W_]+")
# Cookie and consent managers (OneTrust, a consent platform's preference center) hold long
# legal prose that readability can score as the article; their text is never the content.
_CONSENT_RE = NamePattern(r"(?:^|[-_ ])(?:onetrust|cookies?|consent|gdpr)(?:$|[-_ ])")
# Banners that a consent manager opens as a dialog carry no telling name ("sp-cc-wrapper"),
# only the role; an article is never inside a dialog.
_DIALOG_ROLES = frozenset(("dialog", "alertdialog"))
_SEMANTIC_TAGS = frozenset(("main", "article", "math"))
# The unlikely pass never drops these or anything inside them: code, headings (a "header"
# class on a heading or its anchor link names the heading itself) and quotations (an embedded
# post is classed after its source: "twitter-tweet", "instagram-media").
_KEPT_SUBTREE_TAGS = frozenset(("pre", "code", "blockquote")) | _HEADINGS
# A section's id is often its heading's text ("respond-to-review-comments"): the heading is
# looked for among this many first children ...
_SLUG_HEADING_CHILDREN = 3
# ... and the id must have this many words (a section titled "Comments" with the id
# "comments" is the comment thread).
MIN_SLUG_WORDS = 2

Candidates = dict[HtmlElement, dict[str, Any]]


class _TreeDocument(Document):  # type: ignore[misc]
    """A readability ``Document`` fed with a parsed tree instead of an HTML string."""

    def __init__(self, tree: HtmlElement) -> None:
        super().__init__(tree)
        self._tree = tree
        self.article: HtmlElement | None = None
        self._sanitizing = False
        self._lengths: dict[HtmlElement, int] | None = None
        self.fragment = False  # set by get_article: the article misses similar blocks
        self.consent = False  # set by get_article: the article is a consent banner's text
        self.block: HtmlElement | None = None  # set by get_article: its block, in the tree
        self._copied: list[HtmlElement] = []

    def _parse(self, input: Any) -> HtmlElement:
        self.encoding = "utf-8"
        copied = copy.deepcopy(self._tree)
        # Listed before readability changes the copy: an element's place in the list is
        # its place in the tree.
        self._copied = list(copied.iter())
        self.block = None
        return copied

    def remove_unlikely_candidates(self) -> None:
        # readability's rule (a class or id naming chrome, unless it also names content, an
        # element inside <pre>/<code> or one holding <main>, <article> or <math> is kept),
        # with each set found once instead of two XPath queries per element; data tables and
        # their wrappers are kept too ("wikitable sticky-header" names a header).
        root = self.html
        protected = _data_tables_and_wrappers(root)
        holds_semantic: set[HtmlElement] = set()
        for semantic in root.iter(*_SEMANTIC_TAGS):
            for el in itertools.chain((semantic,), semantic.iterancestors()):
                if el in holds_semantic:
                    break
                holds_semantic.add(el)
        kept: set[HtmlElement] = set()
        for top in root.iter(*_KEPT_SUBTREE_TAGS):
            if top not in kept:  # a nested one was taken with its outermost
                kept.update(top.iter())
        # Every element in document order; only a name can doom one, and the inside of one
        # that goes is not looked at (what it holds went with it).
        stack = list(reversed(root))
        while stack:
            el = stack.pop()
            classes = el.get("class")
            element_id = el.get("id")
            if (
                (classes is not None or element_id is not None)
                and _named_unlikely(el, classes, element_id)
                and el.tag not in ("html", "body")
                and el not in kept
                and el not in holds_semantic
                and el not in protected
            ):
                el.drop_tree()
            else:
                stack.extend(reversed(el))

    def score_paragraphs(self) -> Candidates:
        # readability's scoring, to the same numbers: each paragraph of at least
        # ``min_text_length`` characters gives its parent 1 point, 1 per comma-separated part
        # and 1 per 100 characters (3 at most), and half that to its grandparent; then each
        # candidate's score shrinks by its link density. The tree holds still meanwhile, so
        # each element's text length is measured once, and no cleaned copy of a paragraph's
        # text is made (cleaning only rewrites whitespace: it keeps every comma).
        self._lengths = lengths = {}
        try:
            candidates: Candidates = {}
            ordered: list[HtmlElement] = []
            for elem in self.tags(self.html, "p", "pre", "td", "blockquote"):
                parent = elem.getparent()
                if parent is None:
                    continue
                grand_parent = parent.getparent()
                text = text_of(elem)
                if len(text) < self.min_text_length:
                    continue  # cleaning only shortens a text: too short already
                length = clean_length(text)
                if length < self.min_text_length:
                    continue
                lengths[elem] = length
                if parent not in candidates:
                    candidates[parent] = self.score_node(parent)
                    ordered.append(parent)
                if grand_parent is not None and grand_parent not in candidates:
                    candidates[grand_parent] = self.score_node(grand_parent)
                    ordered.append(grand_parent)
                content_score: float = 1
                content_score += text.count(",") + 1
                content_score += min((length / 100), 3)
                candidates[parent]["content_score"] += content_score
                if grand_parent is not None:
                    candidates[grand_parent]["content_score"] += content_score / 2.0
            for elem in ordered:
                candidates[elem]["content_score"] *= 1 - self.get_link_density(elem)
            return candidates
        finally:
            self._lengths = None

    def sanitize(self, node: HtmlElement, candidates: Any, keep_all_images: bool = False) -> str:
        self._sanitizing = True
        try:
            return str(super().sanitize(node, candidates, keep_all_images))
        finally:
            self._sanitizing = False

    def get_preserved_elements(self, node: HtmlElement) -> dict[HtmlElement, bool]:
        allowed: dict[HtmlElement, bool] = dict(super().get_preserved_elements(node))
        for lst in node.iter("ul", "ol"):
            if _is_statement_list(lst):
                allowed[lst] = True
        allowed.update(dict.fromkeys(_data_tables_and_wrappers(node), True))
        return allowed

    def get_article(
        self, candidates: Any, best_candidate: Any, html_partial: bool = False
    ) -> HtmlElement:
        best_candidate = _lift(candidates, best_candidate, self.html)
        best = best_candidate["elem"]
        self.block = _in_tree(best, self._copied, self._tree)
        parent = best.getparent()
        siblings = list(parent) if parent is not None else []
        peers = _peers(candidates, best)
        self.consent = _in_consent_banner(best)
        found: HtmlElement = super().get_article(candidates, best_candidate, html_partial)
        # readability builds the article in a document of lxml.html's own parser, whose
        # element lookup calls back into Python for every element touched afterwards; the
        # article moves back into this tree's document (the lookup chosen in C).
        output = self.html.makeelement("div", {})
        output.extend(list(found))
        self.fragment = _missed_peers(peers, output) >= MIN_MISSED_PEERS
        if parent is not None:
            _restore_tables(siblings, parent)
        return output

    def get_link_density(self, elem: HtmlElement) -> float:
        # Keep linked headings (titles of cards and posts); readability drops them. The
        # <header> of an <article> is its title too.
        if self._sanitizing and (elem.tag in _HEADINGS or _is_entry_header(elem)):
            return 0.0
        # readability's measure: the text length of the links over the element's.
        lengths = self._lengths
        linked = sum(_text_length(link, lengths) for link in elem.iterdescendants("a"))
        if not linked:
            return 0.0  # whatever the element's own length: it need not be measured
        return float(linked) / max(_text_length(elem, lengths), 1)

    def class_weight(self, elem: HtmlElement) -> float:
        # A heading's class names its style ("scroll-mt-8", "header-anchor"), not chrome:
        # readability's cleaning drops a heading with a negative weight, so it gets none. An id
        # that spells the element's heading is no name either: it is weighed without it.
        element_id = elem.get("id")
        if element_id and _is_heading_slug(elem, element_id):
            element_id = None
        weight = _names_weight(elem.get("class"), element_id)
        if self._sanitizing and elem.tag in _HEADINGS:
            return max(weight, 0.0)
        return weight

    def get_clean_html(self) -> str:
        self.article = self.html
        return str(tounicode(self.html, method="html"))

    def transform_misused_divs_into_paragraphs(self) -> None:
        # Same rule as readability (a div without block descendants is a paragraph), computed
        # in one pass instead of serializing every div's children: each block marks its
        # ancestors, up to the first one marked already.
        elements = list(self.html.iter())
        holds_block: set[HtmlElement] = set()
        for el in elements:
            tag = el.tag
            if isinstance(tag, str) and tag.startswith(_BLOCK_PREFIXES):
                parent = el.getparent()
                while parent is not None and parent not in holds_block:
                    holds_block.add(parent)
                    parent = parent.getparent()
        divs = [el for el in elements if el.tag == "div"]
        for el in divs:
            if el not in holds_block:
                el.tag = "p"
        for el in divs:
            if el.tag != "div":
                continue
            _wrap_inline_runs(el, holds_block)


def _in_tree(el: HtmlElement, copied: list[HtmlElement], tree: HtmlElement) -> HtmlElement | None:
    """The element of *tree* that *el* was copied from, given the elements of the copy as
    first made (*copied*, in document order), or ``None`` for an element made later."""
    try:
        index = copied.index(el)
    except ValueError:
        return None
    return next(itertools.islice(tree.iter(), index, None), None)


def _text_length(el: HtmlElement, lengths: dict[HtmlElement, int] | None) -> int:
    """readability's ``text_length`` of *el*, remembered in *lengths* when it is given."""
    if lengths is None:
        return clean_length(text_of(el))
    found = lengths.get(el)
    if found is None:
        found = lengths[el] = clean_length(text_of(el))
    return found


# readability's ``clean`` collapses whitespace in three regex passes over the whole text; only
# its length is needed here, and only runs of two or more whitespace characters change it.
_SPACE_RUN_RE = re.compile(r"\s{2,}")
_LONG_SPACE_RE = re.compile(r"\s{255,}")
_NEWLINE_RUN_RE = re.compile(r"\s*\n\s*")
_TAB_RUN_RE = re.compile(r"\t|[ \t]{2,}")


def clean_length(text: str) -> int:
    """``len(readability.clean(text))``, without building the cleaned text.

    ``clean`` strips the text and rewrites each whitespace run on its own (a run of 255 or
    more becomes 255 spaces, a run holding a newline becomes one, a tab or a run of spaces
    and tabs becomes one space): the length changes by what each inner run loses.
    """
    core = text.strip()
    length = len(core)
    for match in _SPACE_RUN_RE.finditer(core):
        run = match.group()
        length -= len(run) - _cleaned_run_length(run)
    return length


def _readability_text_length(el: HtmlElement) -> int:
    """readability's ``text_length`` (the length of *el*'s cleaned text), measured by
    :func:`clean_length`: readability's own rewrites the whole text in three passes."""
    return clean_length(text_of(el))


@functools.lru_cache(maxsize=1024)
def _cleaned_run_length(run: str) -> int:
    """The length of one whitespace run once readability's ``clean`` has rewritten it."""
    run = _NEWLINE_RUN_RE.sub("\n", _LONG_SPACE_RE.sub(" " * 255, run))
    return len(_TAB_RUN_RE.sub(" ", run))


readability_module.text_length = _readability_text_length


def _lift(candidates: Candidates, best_candidate: Any, root: HtmlElement) -> Any:
    """Lift the best candidate to the ancestor section that also holds its sibling sections.

    readability keeps the best candidate and only those siblings that score like it, so a
    story split into sections (an intro, a long ranked list, a method and a FAQ) loses all but
    its biggest one. The candidate moves to its highest ancestor below ``<body>`` that still
    gets most of its words from it and adds unlinked text, when that adds enough words. A
    page of similar blocks (peers that score like the best one) is left as it is.
    """
    best = best_candidate["elem"]
    if _peers(candidates, best):
        return best_candidate
    # Counted on the candidate and its nearest ancestors only, each from the one below it.
    words = word_count(best)
    best_links = link_word_count(best)
    chosen, chosen_words = best, words
    below, below_words, below_links = best, words, best_links
    for up in best.iterancestors():
        if up.tag in ("body", "html"):
            break
        up_words = parent_words(up, below, below_words)
        if words < LIFT_MIN_SHARE * up_words:
            break
        up_links = parent_link_words(up, below, below_links, up_words)
        extra_links = up_links - best_links
        if extra_links > LIFT_MAX_LINK_SHARE * (up_words - words):
            break
        if up_words > chosen_words:  # a wrapper adding no text is no lift
            chosen, chosen_words = up, up_words
        below, below_words, below_links = up, up_words, up_links
    gained = chosen_words - words
    if gained < LIFT_MIN_EXTRA_WORDS or gained + words < LIFT_MIN_GAIN * words:
        return best_candidate
    lifted = candidates.get(chosen) or {"elem": chosen, "content_score": 0.0}
    lifted["content_score"] = max(lifted["content_score"], best_candidate["content_score"])
    candidates[chosen] = lifted
    return lifted


def _is_entry_header(el: HtmlElement) -> bool:
    """True for the ``<header>`` of an ``<article>`` (a story's or a card's title)."""
    parent = el.getparent()
    return el.tag == "header" and parent is not None and parent.tag == "article"


def _named_unlikely(el: HtmlElement, classes: str | None, element_id: str | None) -> bool:
    """readability's test: *el*'s class or id (*classes*, *element_id*) names chrome and
    nothing that names content.

    An id that only spells the element's heading ("respond-to-review-comments") is not a name.
    """
    if not _unlikely_names(classes, element_id):
        return False
    if element_id and _is_heading_slug(el, element_id):
        return _unlikely_names(classes, None)
    return True


def _unlikely_names(classes: str | None, element_id: str | None) -> bool:
    """Whether a class and an id hold a word readability calls unlikely and none that names
    content, each value's searches remembered apart (readability's words hold no space, so
    none spans the two)."""
    unlikely, maybe = _name_marks(classes or "")
    if element_id:
        id_unlikely, id_maybe = _name_marks(element_id)
        unlikely, maybe = unlikely or id_unlikely, maybe or id_maybe
    return unlikely and not maybe


@functools.lru_cache(maxsize=4096)
def _name_marks(name: str) -> tuple[bool, bool]:
    """Whether *name* holds a word readability calls unlikely, and one that names content."""
    return bool(_UNLIKELY_RE.search(name)), bool(_MAYBE_RE.search(name))


@functools.lru_cache(maxsize=4096)
def _names_weight(classes: str | None, element_id: str | None) -> float:
    """readability's ``class_weight`` of a class and an id (no keywords of its own given):
    -25 for each that names chrome, +25 for each that names content."""
    weight = 0.0
    for feature in (classes, element_id):
        if feature:
            if _NEGATIVE_RE.search(feature):
                weight -= 25
            if _POSITIVE_RE.search(feature):
                weight += 25
    return weight


def _is_heading_slug(el: HtmlElement, element_id: str) -> bool:
    """True when *element_id* spells the words of a heading among *el*'s first children."""
    id_words = _SLUG_WORD_RE.findall(element_id.lower())
    if len(id_words) < MIN_SLUG_WORDS:
        return False
    for child in el[:_SLUG_HEADING_CHILDREN]:
        if child.tag in _HEADINGS:
            return id_words == _SLUG_WORD_RE.findall(child.text_content().lower())
    return False


def _data_tables_and_wrappers(root: HtmlElement) -> set[HtmlElement]:
    """Data tables under *root* and the wrappers whose words are nearly all in one of them."""
    kept: set[HtmlElement] = set()
    for table in root.iter("table"):
        if not is_data_table(table):
            continue
        kept.add(table)
        words = word_count(table)

        def too_many(total: int, words: int = words) -> bool:
            return words < _TABLE_WRAPPER_SHARE * total

        inner, inner_words = table, words
        wrapper = table.getparent()
        while wrapper is not None and wrapper is not root:
            # Each wrapper's count starts from the one inside it and stops once it is too big.
            wrapper_words = parent_words(wrapper, inner, inner_words, too_many)
            if too_many(wrapper_words):
                break
            kept.add(wrapper)
            inner, inner_words = wrapper, wrapper_words
            wrapper = wrapper.getparent()
    return kept


def _is_statement_list(lst: HtmlElement) -> bool:
    """True for a list whose items are sentences (steps, tips, key points), not links."""
    items = sum(1 for child in lst if child.tag == "li")
    if not items:
        return False
    words = word_count(lst)
    if words < STATEMENT_MIN_WORDS * items:
        return False
    return link_word_count(lst) <= STATEMENT_MAX_LINK_SHARE * words


def _peers(candidates: Candidates, best: HtmlElement) -> list[HtmlElement]:
    """Top-scoring candidates outside *best* (and not its ancestors) that score like it."""
    ranked = sorted(candidates.values(), key=lambda c: -c["content_score"])[:MAX_PEERS_CHECKED]
    if not ranked or ranked[0]["content_score"] <= 0:
        return []  # nothing scores like text: no block to compare with
    floor = PEER_SHARE * ranked[0]["content_score"]
    ancestors = set(best.iterancestors())
    return [
        c["elem"]
        for c in ranked
        if c["content_score"] >= floor
        and c["elem"] is not best
        and c["elem"] not in ancestors
        and not _inside(c["elem"], best)
    ]


def _in_consent_banner(el: HtmlElement) -> bool:
    """True when *el* or one of its ancestors is a dialog or named as a consent banner."""
    for node in (el, *el.iterancestors()):
        if node.tag in ("html", "body"):
            continue
        if node.tag == "dialog" or (node.get("role") or "").strip().lower() in _DIALOG_ROLES:
            return True
        if _CONSENT_RE.search(class_and_id(node)):
            return True
    return False


def _missed_peers(peers: list[HtmlElement], article: HtmlElement) -> int:
    """How many *peers* still hold text outside *article* (nested ones count once)."""
    left = {p for p in peers if not _inside(p, article) and _has_text(p)}
    return sum(1 for p in left if not any(up in left for up in p.iterancestors()))


def _inside(el: HtmlElement, container: HtmlElement) -> bool:
    return any(up is container for up in el.iterancestors())


def _has_text(el: HtmlElement) -> bool:
    return any(text.strip() for text in el.itertext())


def _restore_tables(siblings: list[HtmlElement], parent: HtmlElement) -> None:
    """Put data tables that readability left out back after the kept sibling before them."""
    previous_kept: HtmlElement | None = None
    for sibling in siblings:
        if sibling.getparent() is not parent:
            previous_kept = sibling  # moved into the article
        elif previous_kept is not None and _holds_data_table(sibling):
            previous_kept.addnext(sibling)
            previous_kept = sibling


def _holds_data_table(el: HtmlElement) -> bool:
    """True for a data table, or a wrapper whose words are nearly all in one data table."""
    if el.tag == "table":
        return is_data_table(el)
    tables = el.findall(".//table")
    if len(tables) != 1 or not is_data_table(tables[0]):
        return False
    return word_count(tables[0]) >= _TABLE_WRAPPER_SHARE * word_count(el)


def _new_p(beside: HtmlElement) -> HtmlElement:
    """An empty ``<p>`` in *beside*'s document (parsing ``"<p/>"`` would make another one)."""
    return beside.makeelement("p", {})


def _wrap_inline_runs(div: HtmlElement, holds_block: set[HtmlElement]) -> None:
    """Wrap a div's loose text and runs of inline children in ``<p>``s, drop its ``<br>``s."""
    children = list(div)
    paragraph = None
    if div.text and div.text.strip():
        p = _new_p(div)
        p.text = div.text
        div.text = None
        div.insert(0, p)
        paragraph = p
    for child in children:
        if child.tag == "br":
            paragraph = None
            continue
        if child.tag not in INLINE_TAGS or child in holds_block:
            paragraph = None
            continue
        if paragraph is None:
            paragraph = _new_p(div)
            child.addprevious(paragraph)
        paragraph.append(child)
    for pos, child in reversed(list(enumerate(div))):
        if child.tail and child.tail.strip():
            p = _new_p(div)
            p.text = child.tail
            child.tail = None
            div.insert(pos + 1, p)
        if child.tag == "br":
            child.drop_tree()


class Article(NamedTuple):
    """readability's article and where it stands in the tree it was read from."""

    element: HtmlElement
    """The article, made of copies: the tree is left unchanged."""
    block: HtmlElement | None
    """The element of the tree readability chose as the article's block (its best
    candidate, lifted), or ``None`` when it chose none and kept the whole body. The
    article holds text of this block and of its siblings only."""


def read_article(tree: HtmlElement) -> Article | None:
    """Return readability's article for *tree* (left unchanged) and its block, or ``None``.

    ``None`` also when the article is one fragment of a page of similar blocks, or the text
    of a dialog or a cookie or consent banner.
    """
    doc = _TreeDocument(tree)
    try:
        doc.summary(html_partial=True)
    except Exception:  # readability raises Unparseable and assorted internal errors
        return None
    if doc.fragment or doc.consent or doc.article is None:
        return None
    return Article(doc.article, doc.block)


def readable_article(tree: HtmlElement) -> HtmlElement | None:
    """Return readability's article element for *tree* (left unchanged), or ``None``
    (:func:`read_article`)."""
    found = read_article(tree)
    return found.element if found is not None else None
