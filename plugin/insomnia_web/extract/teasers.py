"""Teasers: linked previews of other pages, named so by the page's own markup.

News and public-sector sites (and the CMSs they share) call the preview of another story a
teaser (``class="teaser"``, ``newsteaser``, ``article-teaser``): a heading, a date and a line
of text, wrapped in a link or holding one. Beside an article they lead away from it. The
same word also names a story's own lead paragraph (``teaser-text`` without a link), so only
a teaser that is a link, sits in one or holds one goes. A listing is made of teasers: when
they hold a large share of the page they are its content, and all stay.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.etree import XPath
from lxml.html import HtmlElement

from .counts import tag_name, word_count
from .patterns import NamePattern
from .prune import names_of

__all__ = ["TEASER", "TeaserRule", "drop_linked_teasers"]


@dataclass(frozen=True)
class TeaserRule:
    """What a linked teaser looks like in markup, and when one is the page itself."""

    names: NamePattern
    """Class or id words naming a teaser (``teaser``, ``newsteaser``, ``teaser__link``)."""
    max_share: float
    """Teasers holding together more than this share of the region's words are its content
    (a list of stories), and stay."""


TEASER = TeaserRule(names=NamePattern(r"teaser"), max_share=1 / 3)


def _is_teaser(el: HtmlElement, rule: TeaserRule) -> bool:
    features = names_of(el)
    return bool(features) and bool(rule.names.search(features))


def _linked(el: HtmlElement) -> bool:
    """True when *el* is a link, holds one or sits inside one."""
    if tag_name(el) == "a" or next(el.iter("a"), None) is not None:
        return True
    return any(tag_name(up) == "a" for up in el.iterancestors())


# Elements whose class or id may name a teaser, found by lxml in one pass; the rule's own
# pattern then decides. Case folded on the letters of "teaser" only, which is all it tests.
_MAY_BE_TEASER = XPath(
    ".//*[contains(translate(concat(@class, ' ', @id), 'TEASR', 'teasr'), 'teaser')]"
)


def drop_linked_teasers(root: HtmlElement, rule: TeaserRule = TEASER) -> None:
    """Drop the teasers under *root* that link to another page, unless they are its content."""
    doomed: list[HtmlElement] = []
    taken: set[HtmlElement] = set()
    for el in _MAY_BE_TEASER(root):  # document order: a teaser before what it holds
        if any(up in taken for up in el.iterancestors()):
            continue  # inside a teaser already taken: it goes with it
        if _is_teaser(el, rule) and _linked(el):
            doomed.append(el)
            taken.add(el)
    if not doomed or sum(word_count(el) for el in doomed) > rule.max_share * word_count(root):
        return
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()
