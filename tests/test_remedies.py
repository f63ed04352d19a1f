"""Every failure a person must fix says how: a hint that has the model turn to the user
comes with a remedy for that user, so new error sites cannot leave the person guessing."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import insomnia_web

PACKAGE = Path(insomnia_web.__file__).resolve().parent
TURNS_TO_USER = re.compile(r"\b(tell (the user|them)|ask the user to)\b", re.IGNORECASE)
"""Words of a hint that has the model pass something on to the person."""
RAISERS = {"ToolError", "ToolTimeout"}


@functools.cache
def _modules() -> tuple[tuple[Path, ast.Module], ...]:
    """Every module of the package, parsed once (the tests compare nodes by identity)."""
    paths = sorted(PACKAGE.rglob("*.py"))
    return tuple((path, ast.parse(path.read_text(), str(path))) for path in paths)


def _definitions(module: ast.Module) -> dict[str, ast.AST]:
    """The module-level names a hint may be built from: constants, tables, functions."""
    found: dict[str, ast.AST] = {}
    for node in module.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update((t.id, node) for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.FunctionDef):
            found[node.name] = node
    return found


def _reach(node: ast.AST, definitions: dict[str, ast.AST]) -> list[ast.AST]:
    """*node*'s subtree and the subtrees of the module-level names it uses."""
    seen: list[ast.AST] = []
    todo = [node]
    while todo:
        for inner in ast.walk(todo.pop()):
            seen.append(inner)
            if isinstance(inner, ast.Name) and inner.id in definitions:
                todo.append(definitions.pop(inner.id))
    return seen


def _calls(module: ast.Module) -> Iterator[ast.Call]:
    for node in ast.walk(module):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in RAISERS:
                yield node


def _says_user(node: ast.AST) -> bool:
    """Whether *node* is a string constant with words that turn to the user."""
    return isinstance(node, ast.Constant) and bool(TURNS_TO_USER.search(str(node.value)))


def _relays(reached: list[ast.AST]) -> bool:
    """Whether a hint built from *reached* turns to the user: in its words or by relay()."""
    return any(
        _says_user(node)
        or (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "relay")
        for node in reached
    )


def _sites() -> Iterator[tuple[str, bool, list[ast.AST]]]:
    """Each error raised with a hint that turns to the user: where, whether it has a remedy,
    and what its hint is built from."""
    for path, module in _modules():
        definitions = _definitions(module)
        for call in _calls(module):
            keywords = {kw.arg: kw.value for kw in call.keywords}
            if "hint" not in keywords:
                continue
            reached = _reach(keywords["hint"], dict(definitions))
            if _relays(reached):
                remedy = keywords.get("remedy")
                given = remedy is not None and not (
                    isinstance(remedy, ast.Constant) and remedy.value is None
                )
                yield f"{path.relative_to(PACKAGE)}:{call.lineno}", given, reached


def test_every_hint_that_turns_to_the_user_comes_with_a_remedy() -> None:
    """An error whose hint says "Tell the user ..." (or is relayed) also passes remedy=."""
    sites = list(_sites())
    assert len(sites) >= 15  # the scan finds the sites: it cannot pass by finding none
    missing = [where for where, given, _ in sites if not given]
    assert missing == [], f"these errors turn to the user without a remedy: {missing}"


def test_no_words_for_the_user_outside_an_error_with_a_remedy() -> None:
    """Words that turn to the user appear only in a hint of an error that has a remedy (or in
    the defaults table, whose codes have default remedies): none hide in a function or a table."""
    covered = {id(node) for _, given, reached in _sites() if given for node in reached}
    stray = []
    for path, module in _modules():
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(module):
            if _says_user(node) and id(node) not in covered:
                stray.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)}")
    assert stray == [], f"words for the user outside an error with a remedy: {stray}"
