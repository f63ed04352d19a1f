"""Remove what is never page text: scripts, styles, templates, hidden chrome and tooltips.

Hidden elements go, except panels a click or a script reveals (tabs, accordion folds, "read
more", switched panes) and a hidden block holding most of the page (a script-revealed server
rendering). The button that opens a fold is its title (an FAQ question), and becomes text.
A tooltip's bubble (a glossary definition shown on hover) goes: inside a sentence, it would
split the sentence around text the reader only sees when pointing at the term.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from lxml.html import HtmlElement

from .counts import tag_name, word_count
from .patterns import NamePattern
from .prune import names_boilerplate, names_of

__all__ = ["is_hidden", "strip_invisible"]

_INVISIBLE_TAGS = frozenset(
    [
        "script",
        "style",
        "template",
        "svg",
        "head",
        "iframe",
        "object",
        "embed",
        "canvas",
        "audio",
        "video",
        "map",
        "datalist",
        "dialog",
    ]
)
# A hidden element or <noscript> is kept when it holds most of the page and at least this many
# words (an app's server-rendered view), so small hidden blocks never come back.
_RESCUE_MIN_WORDS = 200
_HIDDEN_STYLE_RE = NamePattern(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)"
)

# Utility classes that CSS frameworks define as ``display: none``; a responsive class beside
# one ("hidden md:block", "d-none d-lg-flex") shows the element on a desktop screen again.
_HIDDEN_CLASSES = frozenset(
    (
        "hide",
        "hidden",
        "d-none",
        "is-hidden",
        "u-hidden",
        "display-none",
        "js-hidden",
        "js-hide",
        "u-d-none",
        # The same utility under a framework's prefix: Amazon's AUI, Etsy's Web Toolkit,
        # Magnific Popup and the OneTrust, CookieYes and Complianz consent banners.
        "a-hidden",
        "wt-display-none",
        "mfp-hide",
        "ot-hide",
        "cky-hide",
        "cmplz-hidden",
    )
)
_SHOWN_AGAIN_RE = re.compile(r"[:@]|^d-(?:sm|md|lg|xl|xxl)-|^visible-")

# Class and id words of tab panels, accordion folds and "read more" panels (role=tabpanel
# too): hidden until a click reveals them, and product, service and documentation pages keep
# much of their text in them.
_PANEL_RE = NamePattern(
    r"(?:^|[-_ ])(?:tab-?pane|tab-?panel|tabs?[-_]+panel|tabs?-?content|"
    r"accordion[-_]*(?:body|content|panel)|collapse|collapsible|collapsed|panel-?collapse|"
    r"read-?more|more-?text|expandable|expander[-_]*content|details-?content)(?:$|[-_ ])"
)
# A hidden block right after one of these is a fold that its title opens (an FAQ answer).
_FOLD_TITLE_TAGS = frozenset(("h2", "h3", "h4", "h5", "h6"))
# Class words that switch a pane on or off; siblings differing only by them are one group.
_STATE_CLASSES = _HIDDEN_CLASSES | frozenset(
    (
        "active",
        "is-active",
        "current",
        "is-current",
        "selected",
        "is-selected",
        "show",
        "shown",
        "in",
        "open",
        "is-open",
        "visible",
        "is-visible",
        "fade",
    )
)
# A hidden element with one of these roles is chrome (a menu, a dialog) even when a button
# reveals it.
_CHROME_ROLES = frozenset(("menu", "menubar", "dialog", "alertdialog", "navigation", "listbox"))
# Attributes by which a tab or toggle button names the panel it shows (``#id`` for the last two).
_TARGET_ATTRS = ("aria-controls", "data-target", "data-bs-target")
_TARGET_NAMES = frozenset(_TARGET_ATTRS)
# The attributes that :func:`_hidden_by_markup` reads.
_HIDING_NAMES = frozenset(("hidden", "aria-hidden", "popover", "style"))
# Class words of a tooltip's bubble ("tooltiptext", "tooltip-content", CSS modules'
# "Term_tooltipBubble__x1"); its trigger ("tooltip-trigger", "has-tooltip") stays.
_TOOLTIP_TEXT_RE = NamePattern(
    r"tooltip[-_]*(?:text|content|bubble|body|inner|popup|box|msg|message)"
)
# A quick test ("tooltip", "Tooltip") before the pattern: most pages name no tooltip.
_TOOLTIP_HINT = "ooltip"
# A button that opens or closes a fold (it has ``aria-expanded``) and says at least this many
# words is the fold's title: accordion and FAQ widgets put each question in such a button,
# which pruning drops with the page's other buttons. Shorter ones are controls ("Show more").
FOLD_TITLE_MIN_WORDS = 3


def is_hidden(el: HtmlElement) -> bool:
    """True when *el* is hidden by ``hidden``, ``aria-hidden=true`` (except on a link), an
    inline style or a utility class (``hidden``, ``d-none``) that only ever hides."""
    return _hidden_by_markup(el) or _hidden_by_class(el)


def _hidden_by_markup(el: HtmlElement) -> bool:
    """True when *el* is hidden by ``hidden``, ``aria-hidden=true``, ``popover`` or an inline
    style."""
    attrib = el.attrib
    if "hidden" in attrib:
        return True
    if attrib.get("aria-hidden", "").strip().lower() == "true" and el.tag != "a":
        return True  # a link hidden from screen readers is a visible duplicate (card links)
    popover = attrib.get("popover")
    if popover is not None and popover.strip().lower() != "manual":
        return True  # an auto popover (a menu, a tooltip, a prompt) shows only when opened
    style = attrib.get("style")
    return bool(style and _HIDDEN_STYLE_RE.search(style))


def _hidden_by_class(el: HtmlElement) -> bool:
    """True when *el* has a utility class that hides it and none that shows it again."""
    classes = el.get("class")
    return bool(classes) and _classes_hide(classes)


@functools.lru_cache(maxsize=4096)
def _classes_hide(classes: str) -> bool:
    """True when a ``class`` value hides its element (a page repeats a few class values)."""
    tokens = classes.lower().split()
    if _HIDDEN_CLASSES.isdisjoint(tokens):
        return False
    return not any(_SHOWN_AGAIN_RE.search(token) for token in tokens)


class _Found:
    """What one walk over every element finds for :func:`strip_invisible`."""

    def __init__(self) -> None:
        self.doomed: list[HtmlElement] = []  # comments and invisible tags
        self.hidden: list[HtmlElement] = []
        self.noscripts: list[HtmlElement] = []
        self.toggles: list[HtmlElement] = []
        self.tooltips: list[HtmlElement] = []
        self.targets: set[str] = set()  # ids that visible elements name as their panel


def _walk(root: HtmlElement) -> _Found:
    """Sort every element under *root* (itself included) for :func:`strip_invisible`, in one
    pass: each element's attribute names are read once, and an attribute is looked at only
    on the elements that carry it."""
    found = _Found()
    for el in root.iter():
        tag = tag_name(el)
        if not tag:
            found.doomed.append(el)
            continue
        names = el.keys()
        classes = el.get("class") if "class" in names else None
        if classes and _TOOLTIP_HINT in classes and _TOOLTIP_TEXT_RE.search(classes):
            found.tooltips.append(el)
        if tag in _INVISIBLE_TAGS:
            found.doomed.append(el)
            continue
        if not _TARGET_NAMES.isdisjoint(names):
            _collect_targets(el, found.targets)
        if tag == "noscript":
            found.noscripts.append(el)
        elif tag not in {"html", "body"} and (
            (not _HIDING_NAMES.isdisjoint(names) and _hidden_by_markup(el))
            or (classes and _classes_hide(classes))
        ):
            found.hidden.append(el)
        elif tag == "button" and "aria-expanded" in names:
            found.toggles.append(el)
    return found


def strip_invisible(root: HtmlElement) -> None:
    """Drop invisible elements from *root* in place, keeping the text that follows them.

    A hidden tab panel, accordion fold or "read more" panel (by its role, its class or id, a
    button on the page naming it or a heading right before it) is page text a click reveals,
    and stays; so does a hidden pane beside a visible one of its kind. A ``<noscript>``
    that holds most of the page's text (the server-rendered view of a JavaScript app, as
    Discourse forums send) is kept as an ordinary block.
    """
    found = _walk(root)
    hidden, noscripts = found.hidden, found.noscripts
    _drop([*found.doomed, *found.tooltips])
    _keep_fold_titles(found.toggles)
    if not hidden and not noscripts:
        return
    total = _PageWords(root)
    if any(word_count(el) >= _RESCUE_MIN_WORDS for el in noscripts):
        total()  # a <noscript> is weighed against the page as it is before hidden blocks go
    panes = _switched_panes(hidden)
    forms = _holding_form_fields(root)
    _drop(
        el
        for el in hidden
        if not _is_revealed(el, found.targets, panes, forms) and not _is_streamed_page(el, total)
    )
    for el in noscripts:
        if _holds_the_page(el, total):
            el.tag = "div"
        else:
            _drop((el,))


def _keep_fold_titles(toggles: list[HtmlElement]) -> None:
    """Turn fold-opening buttons that hold a title into plain text (a ``<span>``).

    A button that opens a menu or a popup (``aria-haspopup``, a chrome name) stays a button.
    """
    for button in toggles:
        popup = (button.get("aria-haspopup") or "false").strip().lower()
        if popup != "false" or _is_chrome(button):
            continue
        if len(" ".join(button.itertext()).split()) >= FOLD_TITLE_MIN_WORDS:
            button.tag = "span"


def _collect_targets(el: HtmlElement, targets: set[str]) -> None:
    """Add the ids that *el* names as the panel it shows (``aria-controls``, ``data-target``)."""
    attrib = el.attrib
    for name in _TARGET_ATTRS:
        value = attrib.get(name)
        if not value:
            continue
        if name == "aria-controls":
            targets.update(value.split())
        elif value.startswith("#") and len(value) > 1:
            targets.add(value[1:])


def _is_revealed(
    el: HtmlElement, targets: set[str], panes: set[HtmlElement], forms: set[HtmlElement]
) -> bool:
    """True when hidden *el* is page text that a click or a script shows, not chrome."""
    if _role(el) == "tabpanel":
        return True  # a tab panel's role says what it is, whatever its class
    if el in forms:
        return False  # a hidden block with form fields is a form (a shipping estimate)
    return not _is_chrome(el) and (el in panes or _is_revealed_panel(el, targets))


def _is_chrome(el: HtmlElement) -> bool:
    """True when *el* is a menu, a dialog or a block named like chrome ("mobile-menu").

    Buttons show these too, but they are not page text.
    """
    return _role(el) in _CHROME_ROLES or tag_name(el) == "nav" or names_boilerplate(el)


def _is_revealed_panel(el: HtmlElement, targets: set[str]) -> bool:
    """True when hidden *el* is a fold or "read more" panel: by its name, by a button naming
    it, or by a heading right before it."""
    ident = el.get("id")
    if ident and ident in targets:
        return True
    previous = el.getprevious()
    if previous is not None and tag_name(previous) in _FOLD_TITLE_TAGS:
        return True
    return bool(_PANEL_RE.search(names_of(el)))


def _switched_panes(hidden: list[HtmlElement]) -> set[HtmlElement]:
    """Hidden elements beside a visible sibling of the same tag and class.

    A script switches such a group (product variants, slides of a text carousel, steps): one
    pane shows at a time, and the others are the same kind of content.
    """
    shown: dict[HtmlElement, set[tuple[str, frozenset[str]]]] = {}
    panes: set[HtmlElement] = set()
    for el in hidden:
        parent = el.getparent()
        kind = _pane_kind(el)
        if parent is None or not kind[1]:
            continue
        if parent not in shown:
            shown[parent] = {_pane_kind(child) for child in parent if not is_hidden(child)}
        if kind in shown[parent]:
            panes.add(el)
    return panes


def _holding_form_fields(root: HtmlElement) -> set[HtmlElement]:
    """Elements under *root* that hold a form field (each ancestor is visited once)."""
    holders: set[HtmlElement] = set()
    for field in root.iter("select", "input", "textarea"):
        for el in field.iterancestors():
            if el in holders:
                break
            holders.add(el)
    return holders


def _pane_kind(el: HtmlElement) -> tuple[str, frozenset[str]]:
    """The tag and the class words of *el*, without the words that only show or hide it."""
    words = frozenset((el.get("class") or "").lower().split())
    return tag_name(el), words - _STATE_CLASSES


def _is_streamed_page(el: HtmlElement, total: _PageWords) -> bool:
    """True when hidden *el* holds most of the page's text: a server rendering to be shown.

    Streaming server-side rendering (React) ships the real page in an element hidden by its
    markup until a script reveals it; a block hidden by a utility class is a page's hidden
    copy (a mobile layout, a print view) and stays out.
    """
    return _hidden_by_markup(el) and _holds_the_page(el, total)


def _role(el: HtmlElement) -> str:
    return (el.get("role") or "").strip().lower()


def _holds_the_page(el: HtmlElement, total: _PageWords) -> bool:
    words = word_count(el)
    return words >= _RESCUE_MIN_WORDS and words > 0.5 * total()


class _PageWords:
    """The words of the whole page, counted when first asked for: most hidden blocks are
    too small to hold the page, and need no page count."""

    def __init__(self, root: HtmlElement) -> None:
        self._root = root
        self._words: int | None = None

    def __call__(self) -> int:
        if self._words is None:
            self._words = word_count(self._root)
        return self._words


def _drop(elements: Iterable[HtmlElement]) -> None:
    """Drop *elements* (in document order), keeping the text after each; one whose parent
    went before it is gone already, with its parent."""
    dropped: set[HtmlElement] = set()
    for el in list(elements):
        parent = el.getparent()
        if parent is not None and parent not in dropped:
            el.drop_tree()
            dropped.add(el)
