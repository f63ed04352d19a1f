"""Docs that tests keep honest: every hook documented, tested, and its examples run."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import insomnia_web
from insomnia_web import hookspecs

ROOT = Path(__file__).resolve().parents[1]
HOOKS_MD = (ROOT / "hooks.md").read_text()


def _hook_names() -> list[str]:
    return [
        name
        for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(fn, "insomnia_spec")
    ]


def test_there_are_hooks() -> None:
    """The hookspec module defines the three hooks of the design."""
    assert sorted(_hook_names()) == [
        "check_permission",
        "register_search_providers",
        "register_tools",
    ]


@pytest.mark.parametrize("name", _hook_names())
def test_every_hook_is_documented_with_its_exact_signature(name: str) -> None:
    """hooks.md has a heading that is exactly ``name(arg1, arg2)`` for each hook."""
    params = inspect.signature(getattr(hookspecs, name)).parameters
    heading = f"## {name}({', '.join(params)})"
    assert heading in HOOKS_MD.splitlines()


@pytest.mark.parametrize("name", _hook_names())
def test_every_hook_section_covers_arguments_return_and_timing(name: str) -> None:
    """Each hook section names every argument, the return value, when and how it combines."""
    section = HOOKS_MD.split(f"## {name}(", 1)[1].split("\n## ", 1)[0]
    for param in inspect.signature(getattr(hookspecs, name)).parameters:
        assert f"- `{param}`:" in section
    for word in ("Returns:", "When:", "Combining:", "```python"):
        assert word in section


@pytest.mark.parametrize("name", _hook_names())
def test_every_hook_has_a_test(name: str) -> None:
    """Some test other than this one implements or calls each hook."""
    this = Path(__file__).resolve()
    texts = [
        p.read_text()
        for p in (ROOT / "tests").rglob("*.py")
        if p.resolve() != this and p.name != "__init__.py"
    ]
    assert any(re.search(rf"\b{name}\b", t) for t in texts)


def _examples() -> list[str]:
    """The hook examples (the provider guide's blocks are run by tests/search)."""
    hooks_part = HOOKS_MD.split("## Writing a search provider", 1)[0]
    return re.findall(r"```python\n(.*?)```", hooks_part, flags=re.S)


@pytest.mark.parametrize("index", range(len(_examples())))
def test_hooks_md_examples_run(index: int) -> None:
    """Each Python example in hooks.md runs as written."""
    exec(compile(_examples()[index], f"hooks.md example {index}", "exec"), {"__name__": "ex"})


def test_public_api_is_sorted_and_importable() -> None:
    """``__all__`` is sorted and every name in it exists."""
    assert insomnia_web.__all__ == sorted(insomnia_web.__all__)
    for name in insomnia_web.__all__:
        assert hasattr(insomnia_web, name), name
