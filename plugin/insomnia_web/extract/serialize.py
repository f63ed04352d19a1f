"""lxml tree -> Markdown-like text, without recursion.

The walk keeps an explicit stack, so 100k-deep documents cannot raise ``RecursionError``, and
every piece of text is touched a constant number of times, so a 50 MB line stays linear.

Output rules: headings become ``#`` .. ``######``, list items ``- `` or ``1. ``, data tables
(:func:`~.counts.is_data_table`, the same test readable mode protects tables with) Markdown
tables (header row kept), ``pre`` fenced code blocks, ``<br>`` a line break. Every
block element ends the current line, so words of adjacent blocks are never glued together,
nor are the phrases of two adjacent ``<span>`` elements or the labels of two adjacent
links; whitespace inside inline text is collapsed.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from .counts import is_data_table, tag_name, word_count
from .patterns import HEADING_TAGS
from .words import count_words

__all__ = [
    "BLOCK_TAGS",
    "SKIP_TAGS",
    "added_words_at_most",
    "long_line_words_before",
    "serialize",
]

BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "listing",
        "main",
        "menu",
        "nav",
        "ol",
        "optgroup",
        "option",
        "p",
        "plaintext",
        "pre",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "xmp",
    ]
)
INLINE_TAGS = frozenset(
    [
        "a",
        "abbr",
        "acronym",
        "b",
        "bdi",
        "bdo",
        "big",
        "blink",
        "button",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "img",
        "input",
        "ins",
        "kbd",
        "label",
        "mark",
        "meter",
        "nobr",
        "output",
        "progress",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "sup",
        "time",
        "tt",
        "u",
        "var",
        "wbr",
    ]
)
SKIP_TAGS = frozenset(
    [
        "script",
        "style",
        "noscript",
        "template",
        "head",
        "title",
        "meta",
        "link",
        "svg",
        "iframe",
        "object",
        "embed",
        "canvas",
        "audio",
        "video",
        "select",
        "datalist",
        "map",
        "area",
        "input",
        "textarea",
        "base",
        "param",
        "source",
        "track",
    ]
)
_HEADINGS = {tag: int(tag[1]) for tag in HEADING_TAGS}  # "h2" -> "## "
_LIST_TAGS = frozenset(("ul", "ol", "dir", "menu"))
_PARA_TAGS = frozenset(
    [
        "p",
        "blockquote",
        "pre",
        "table",
        "ul",
        "ol",
        "dl",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
    ]
)

# Markers in the token stream (text pieces are plain ``str``).
_LINE = 1  # end the current line
_PARA = 2  # end the current paragraph (blank line)
_BR = 3  # hard line break (<br>)


class _Prefix:
    """Prefix for the next non-empty line (list bullet, heading hashes)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Raw:
    """Pre-formatted text emitted as its own block, unchanged."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_Token = str | int | _Prefix | _Raw


def _cell_text(cell: HtmlElement) -> str:
    text = " ".join(serialize(cell, _inside_cell=True).split())
    return text.replace("|", "\\|")


def _table_markdown(table: HtmlElement) -> str:
    rows: list[list[str]] = []
    for row in table.iter("tr"):
        cells = [c for c in row if tag_name(c) in ("td", "th")]
        if not cells:
            continue
        texts: list[str] = []
        for cell in cells:
            texts.append(_cell_text(cell))
            span = cell.get("colspan", "1")
            extra = int(span) - 1 if span.isdigit() and 1 < int(span) <= 50 else 0
            texts.extend([""] * extra)
        if any(texts):
            rows.append(texts)
    if not rows:
        return ""
    caption = table.find("caption")
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    # Markdown needs a header row: the first row is the header, as in most tables.
    lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
    lines.extend("| " + " | ".join(r) + " |" for r in rows[1:])
    if caption is not None:
        cap = " ".join(caption.text_content().split())
        if cap:
            lines.insert(0, cap + "\n")
    return "\n".join(lines)


def _pre_text(pre: HtmlElement) -> str:
    text = pre.text_content().strip("\n")
    if not text.strip():
        return ""
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}\n{text}\n{fence}"


def _phrases_apart(el: HtmlElement) -> bool:
    """True when *el* and the sibling right after it are phrases, not pieces of one word.

    Two adjacent links go to two places: they are separate labels (tag pills, category
    chips) that CSS spaces apart. Sibling spans are styled apart too (a brand above a product
    name); when either holds several words their words are kept apart, while single-word
    pieces ("in" + "line") stay joined.
    """
    following = el.getnext()
    if following is None or following.tag != el.tag:
        return False
    if el.tag == "a":
        return True
    return any(len(s.text_content().split()) > 1 for s in (el, following))


def _tokens(root: HtmlElement, inside_cell: bool) -> list[_Token]:  # noqa: C901
    out: list[_Token] = []
    lists: list[list[int]] = []  # stack of [ordered?, counter]
    # Stack entries: (element, tag, entered). Tails are emitted when an element is left.
    stack: list[tuple[HtmlElement, str, bool]] = [(root, tag_name(root), False)]
    while stack:
        el, tag, entered = stack.pop()
        if entered:
            if tag in BLOCK_TAGS:
                if tag in _LIST_TAGS and lists:
                    lists.pop()
                out.append(_LINE if lists or tag not in _PARA_TAGS else _PARA)
            if el is not root and el.tail:
                out.append(el.tail)
            elif tag in ("span", "a") and el is not root and _phrases_apart(el):
                out.append(" ")
            continue
        if not tag or tag in SKIP_TAGS:  # comment or processing instruction, or skipped
            if el is not root and el.tail:
                out.append(el.tail)
            continue
        if tag == "br":
            out.append(_BR)
            if el.tail:
                out.append(el.tail)
            continue
        if tag in {"pre", "xmp", "plaintext"}:
            out.append(_PARA)
            out.append(_Raw(_pre_text(el)))
            out.append(_PARA)
            if el is not root and el.tail:
                out.append(el.tail)
            continue
        if tag == "table" and not inside_cell and is_data_table(el):
            out.append(_PARA)
            out.append(_Raw(_table_markdown(el)))
            out.append(_PARA)
            if el is not root and el.tail:
                out.append(el.tail)
            continue
        if tag in BLOCK_TAGS or tag not in INLINE_TAGS:
            if tag in ("td", "th"):
                out.append(" ")  # cells of a layout table: keep them apart
            out.append(_LINE if lists or tag not in _PARA_TAGS else _PARA)
            if tag in _LIST_TAGS:
                start = el.get("start", "1")
                lists.append([tag == "ol", int(start) - 1 if start.isdigit() else 0])
            elif tag == "li":
                if lists:
                    ordered, _ = lists[-1]
                    lists[-1][1] += 1
                    bullet = f"{lists[-1][1]}. " if ordered else "- "
                    out.append(_Prefix("  " * (len(lists) - 1) + bullet))
                else:
                    out.append(_Prefix("- "))
            elif tag in _HEADINGS:
                out.append(_Prefix("#" * _HEADINGS[tag] + " "))
        if el.text:
            out.append(el.text)
        stack.append((el, tag, True))
        children = list(el)
        for child in reversed(children):
            stack.append((child, tag_name(child), False))
    return out


def _collapse(pieces: list[str]) -> str:
    return " ".join("".join(pieces).split())


def serialize(root: HtmlElement, *, _inside_cell: bool = False) -> str:
    """Return the Markdown-like text of *root* and everything below it."""
    lines: list[str] = []
    pieces: list[str] = []
    prefix = ""
    pending_break = 0

    def flush() -> None:
        nonlocal prefix, pending_break
        text = _collapse(pieces)
        pieces.clear()
        if not text:
            return
        if lines:
            lines.append("\n\n" if pending_break >= _PARA else "\n")
        lines.append(prefix + text)
        prefix = ""
        pending_break = 0

    for token in _tokens(root, _inside_cell):
        if isinstance(token, str):
            pieces.append(token)
        elif isinstance(token, int):
            flush()
            pending_break = max(pending_break, _LINE) if token == _BR else max(pending_break, token)
        elif isinstance(token, _Prefix):
            flush()
            prefix = token.text
        else:
            flush()
            if token.text:
                if lines:
                    lines.append("\n\n")
                lines.append(token.text)
                pending_break = _PARA
    flush()
    return "".join(lines)


_FENCED_TAGS = ("pre", "xmp", "plaintext")


def added_words_at_most(root: HtmlElement) -> int:
    """At most how many words :func:`serialize` adds to the text under *root* (or under any
    part of it): a bullet per list item, hashes per heading, two fences per code block and
    the pipes and rule of each table, as if every table were a data table.

    Serializing never adds other words: whitespace is collapsed and text nodes are only
    joined or kept apart, so the words of the text (its nodes counted apart, as
    :class:`~.counts.BlockCounts` counts them) plus this bound the words of the result.
    Keep it in step with the markers :func:`_tokens` and :func:`_table_markdown` write.
    """
    added = 0
    for el in root.iter("li", "table", *_HEADINGS, *_FENCED_TAGS):  # one walk for all
        tag = el.tag
        if tag == "table":
            widths = [_row_width(row) for row in el.iter("tr")]
            if widths:
                added += (len(widths) + 2) * (max(widths) + 1)
        else:
            added += 2 if tag in _FENCED_TAGS else 1
    return added


def _row_width(row: HtmlElement) -> int:
    """The cells :func:`_table_markdown` writes for *row*, colspans included."""
    width = 0
    for cell in row:
        if tag_name(cell) in ("td", "th"):
            span = cell.get("colspan", "1")
            width += int(span) if span.isdigit() and 1 < int(span) <= 50 else 1
    return width


# What :func:`serialize` writes as one block however its inside is pruned: a table (its rows
# become one line each when it is, or becomes, a data table) and preformatted text.
_WHOLE_BLOCK_TAGS = frozenset(("table", *_FENCED_TAGS))


def long_line_words_before(
    root: HtmlElement,
    stop: HtmlElement,
    min_words: int,
    words: dict[HtmlElement, int] | None = None,
) -> int:
    """At most how many words the lines of *min_words* words or more that :func:`serialize`
    writes for *root* before *stop* (an element under it) hold, whatever elements are
    removed from *root* first.

    Every block element ends a line, so a line's text comes from one block, its innermost
    block ancestor, and a block stays while any of its text does. Removing elements can
    only join pieces of one block's text; a long line of it holds at least
    ``min_words - 1`` of its words and one marker (a bullet, heading hashes) at most. A
    table or a code block is one block whose words and markers all count.

    With *words* (each element's words, as :class:`~.counts.BlockCounts` counts them), a
    block too short for a long line is not walked, and an inline element's words all go to
    its block (as if it held no block: the bound only grows).
    """
    blocks, whole = _block_words_before(root, stop, min_words - 1, words)
    total = 0
    for block, n in blocks.items():
        if block in whole:
            total += n if n >= min_words else 0
        elif n >= min_words - 1:
            total += n + n // (min_words - 1)
    return total


def _block_words_before(
    root: HtmlElement, stop: HtmlElement, min_text: int, words: dict[HtmlElement, int] | None
) -> tuple[dict[HtmlElement, int], set[HtmlElement]]:
    """The words of text before *stop* per block that holds them as its own (text nodes
    counted apart, as :class:`~.counts.BlockCounts` counts them; each table's and code
    block's markers included, :func:`added_words_at_most`), and those tables and code blocks.

    A subtree that ends before *stop* is counted without a walk when it is a table or a code
    block, and, with *words*, when it is a block of fewer than *min_text* words (none of its
    blocks writes a long line) or an inline element (its words go to its block)."""
    ancestors = set(stop.iterancestors())
    whole: set[HtmlElement] = set()
    found: dict[HtmlElement, int] = {}
    stack: list[tuple[HtmlElement, HtmlElement | None]] = [(root, None)]
    while stack:
        el, outer = stack.pop()
        if el is stop:
            break
        if outer is not None and el.tail and el not in ancestors:  # a tail after stop waits
            found[outer] = found.get(outer, 0) + count_words(el.tail)
        tag = tag_name(el)
        block = _own_block(el, tag, outer, whole, el is root) if tag else None
        if block is None:
            continue
        if el in ancestors:
            n = added_words_at_most(el) if block is el and el in whole else 0
        else:
            counted = _subtree_words(el, block, whole, min_text, words)
            if counted is not None:
                if counted:
                    found[block] = found.get(block, 0) + counted
                continue
            n = 0
        if el.text:
            n += count_words(el.text)
        if n:
            found[block] = found.get(block, 0) + n
        stack.extend((child, block) for child in reversed(el))
    return found, whole


def _subtree_words(
    el: HtmlElement,
    block: HtmlElement,
    whole: set[HtmlElement],
    min_text: int,
    words: dict[HtmlElement, int] | None,
) -> int | None:
    """The words the subtree of *el* (which ends before the walk's stop) gives its *block*,
    or ``None`` when it must be walked (:func:`_block_words_before`)."""
    if block is el and el in whole:
        counted = words.get(el, 0) if words is not None else word_count(el)
        return counted + added_words_at_most(el)  # pipes, rule, fences, bullets: all, once
    if words is None:
        return None
    if block is el:
        return 0 if words.get(el, 0) < min_text else None
    return words.get(el, 0)


def _own_block(
    el: HtmlElement, tag: str, outer: HtmlElement | None, whole: set[HtmlElement], top: bool
) -> HtmlElement | None:
    """The block whose line holds *el*'s own text (``None``: the text is never written),
    given the block *outer* of its parent; a new table or code block joins *whole*."""
    if tag in SKIP_TAGS or (outer is None and not top):
        return None
    if outer is not None and outer in whole:
        return outer
    if tag in _WHOLE_BLOCK_TAGS:
        whole.add(el)
        return el
    if top or tag in BLOCK_TAGS or tag not in INLINE_TAGS:
        return el
    return outer
