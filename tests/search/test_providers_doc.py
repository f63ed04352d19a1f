"""The "Writing a search provider" guide: its example provider and its tests really run."""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

from insomnia_web import ManifestError, Runtime, parse_manifest

DOC = Path(__file__).resolve().parents[2] / "hooks.md"
SECTION = "## Writing a search provider"
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def python_blocks() -> list[str]:
    """The guide's Python code blocks, in order."""
    return BLOCK.findall(DOC.read_text(encoding="utf-8").split(SECTION, 1)[1])


def test_guide_has_a_provider_and_its_tests() -> None:
    """The guide shows exactly two Python blocks: the provider module and its tests."""
    provider, tests = python_blocks()
    assert "def register_search_providers" in provider
    assert "async def test_" in tests


@pytest.mark.asyncio
async def test_guide_example_tests_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test function of the guide passes against the guide's provider module."""
    provider, tests = python_blocks()
    (tmp_path / "acme_search.py").write_text(provider, encoding="utf-8")
    (tmp_path / "acme_search_guide_tests.py").write_text(tests, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("acme_search", "acme_search_guide_tests"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        module = importlib.import_module("acme_search_guide_tests")
        cases = [
            fn
            for name, fn in vars(module).items()
            if name.startswith("test_") and inspect.iscoroutinefunction(fn)
        ]
        assert len(cases) == 3
        for case in cases:
            with pytest.MonkeyPatch.context() as mp:
                await case(mp)
    finally:
        sys.modules.pop("acme_search", None)
        sys.modules.pop("acme_search_guide_tests", None)


def test_guide_says_what_an_unregistered_provider_name_does() -> None:
    """The guide's word for a provider name no plugin registered is what the runtime does:
    it refuses to start with a ManifestError naming web.search.provider and the choices."""
    manifest = parse_manifest({"web": {"search": {"provider": "acmee"}}})
    with pytest.raises(ManifestError, match=r"registered: brave, searxng\)") as refused:
        Runtime(manifest, load_entrypoints=False)
    assert refused.value.key == "web.search.provider"
    guide = " ".join(DOC.read_text(encoding="utf-8").split(SECTION, 1)[1].split())
    assert (
        "A provider name no plugin registered stops the runtime from starting: a "
        "`ManifestError` naming `web.search.provider` and the registered providers" in guide
    )
