"""Text checks: lone surrogates in tool input, terminal controls in text to print.

Lone surrogates are strings a JSON decoder may produce that are not Unicode text:
``"\\ud800"`` is valid JSON, and Python decodes it to a one-character string that no UTF-8
encoder accepts. Tool input holding one is refused as ``invalid_input`` naming the field;
what is recorded of it has U+FFFD in its place. An integer beyond the 64-bit range (JSON
allows any number of digits) is refused the same way: no limit of a tool needs one, and
Python cannot even print one of more than 4300 digits. So is input nested more than
:data:`MAX_DEPTH` lists or mappings deep, which no tool takes and a recursive walk could not
read.

Web text printed on a terminal goes through :func:`terminal_safe` first: an escape sequence
in a page, a title or an error must not drive the terminal. A line of a permission question
goes through :func:`terminal_line`, which shows line breaks as escapes too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_INT",
    "first_bad_input",
    "first_surrogate_field",
    "recordable",
    "replace_surrogates",
    "terminal_line",
    "terminal_safe",
    "terminal_safe_json",
    "terminal_safe_value",
    "without_controls",
]


MAX_DEPTH = 64
"""The deepest tool input may be nested (lists and mappings in one another): no tool needs
more, and walking further would run into Python's recursion limit."""

_CONTAINERS = (Mapping, list, tuple)


def _first_bad(
    value: Any, bad: Callable[[Any], bool], path: str = "$", depth: int = 0
) -> tuple[str, Any] | None:
    """The JSON path and the value of the first leaf (or mapping key) of *value* that *bad*
    flags, or of the first list or mapping nested deeper than :data:`MAX_DEPTH`."""
    if isinstance(value, _CONTAINERS) and depth >= MAX_DEPTH:
        return path, value
    if isinstance(value, Mapping):
        for key, item in value.items():
            where = f"{path}.{key}"
            found = ((where, key) if bad(key) else None) or _first_bad(item, bad, where, depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _first_bad(item, bad, f"{path}[{index}]", depth + 1)
            if found is not None:
                return found
    elif bad(value):
        return path, value
    return None


def _lone_surrogate(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def first_surrogate_field(value: Any) -> str | None:
    """The JSON path (``$.query``) of the first string in *value* holding a lone surrogate
    (strings nested deeper than :data:`MAX_DEPTH` are not looked at)."""
    found = _first_bad(value, _lone_surrogate)
    return None if found is None or isinstance(found[1], _CONTAINERS) else found[0]


MAX_INT = 2**63 - 1
"""The largest integer tool input may hold (the 64-bit range of JSON implementations)."""


def _huge_int(value: Any) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and not (-MAX_INT - 1 <= value <= MAX_INT)
    )


def first_bad_input(value: Any) -> tuple[str, str] | None:
    """The JSON path of the first field of tool input *value* that no tool can take, and why
    (``"surrogate"``: a string with a lone surrogate; ``"integer"``: beyond the 64-bit
    range; ``"nested"``: lists or mappings more than :data:`MAX_DEPTH` deep), in one walk;
    ``None`` when there is none."""
    found = _first_bad(value, lambda v: _lone_surrogate(v) or _huge_int(v))
    if found is None:
        return None
    if isinstance(found[1], _CONTAINERS):
        return found[0], "nested"
    return found[0], "integer" if _huge_int(found[1]) else "surrogate"


def recordable(value: Any, depth: int = 0) -> Any:
    """*value* (strings, mappings, lists) as a history can store it: every lone surrogate
    replaced by U+FFFD, every integer beyond the 64-bit range by the nearest bound past it,
    lists and mappings nested deeper than :data:`MAX_DEPTH` by a note saying so."""
    if _huge_int(value):
        return MAX_INT + 1 if value > 0 else -MAX_INT - 2
    if isinstance(value, _CONTAINERS) and depth >= MAX_DEPTH:
        return f"(nested more than {MAX_DEPTH} deep)"
    if isinstance(value, Mapping):
        return {replace_surrogates(k): recordable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [recordable(v, depth + 1) for v in value]
    return replace_surrogates(value)


def replace_surrogates(value: Any) -> Any:
    """*value* (strings, mappings, lists) with every lone surrogate replaced by U+FFFD."""
    if isinstance(value, str):
        if value.isascii():  # most header names and values: no surrogate can be there
            return value
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, Mapping):
        return {replace_surrogates(k): replace_surrogates(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [replace_surrogates(v) for v in value]
    return value


_C0_C1 = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
"""The C0 controls but tab, line feed and carriage return, DEL and the C1 controls."""
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""The bidi marks, embeddings, overrides and isolates."""
_TERMINAL_CONTROLS = re.compile(f"[{_C0_C1}{_BIDI}]|\r(?!\n)")
_READ_CONTROLS = re.compile(f"\r\n?|[{_C0_C1}]")


def without_controls(text: str) -> str:
    """*text* without the controls a terminal acts on (:func:`terminal_safe`'s, the bidi
    marks aside: right-to-left text uses them), a carriage return read as a line break: for
    web text that is read, not printed as written (the model's, which a host may show)."""
    if _READ_CONTROLS.search(text) is None:
        return text
    return _READ_CONTROLS.sub(lambda m: "\n" if m.group()[0] == "\r" else "", text)


def terminal_safe(text: str) -> str:
    """*text* with every character a terminal would act on shown as its escape (``\\x1b``).

    Replaced: C0 controls but tab, line feed and the CR of a CRLF line end (ESC starts the
    sequences that move the cursor, set the title or write the clipboard; a lone CR lets a
    line overwrite itself), DEL, C1 controls (CSI among them) and the bidi marks,
    embeddings, overrides and isolates (which reorder what is shown). Web text printed by
    the command line so shows as written.
    """
    return _TERMINAL_CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


_LINE_CONTROLS = re.compile(f"[\n\r\u2028\u2029]|{_TERMINAL_CONTROLS.pattern}")


def terminal_line(text: str) -> str:
    """*text* for one line a person reads (a call's summary in a permission question): what
    :func:`terminal_safe` replaces, and every line break too, shown as its escape (``\\n``).

    A summary made of a model's input could otherwise write lines of the question under it
    (``hosts: ...``, ``why asked: ...``).
    """
    return _LINE_CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


def terminal_safe_value(value: Any) -> Any:
    """*value* (strings, mappings, lists: a tool's structured output) with
    :func:`terminal_safe` applied to every string in it (mapping keys are left as they are)."""
    if isinstance(value, str):
        return terminal_safe(value)
    if isinstance(value, Mapping):
        return {key: terminal_safe_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [terminal_safe_value(item) for item in value]
    return value


def terminal_safe_json(text: str) -> str:
    """JSON *text* with the characters :func:`terminal_safe` replaces written as ``\\uXXXX``
    escapes: the same JSON value, inert on a terminal (they only occur inside strings)."""
    return _TERMINAL_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
