"""A provider from another installed package, found through its own entry point."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from insomnia_web import AutoApprovePrompter, Runtime, parse_manifest
from insomnia_web.errors import ManifestError

from .conftest import manifest_data

MODULE = "insomnia_test_myprov"

PROVIDER_SOURCE = textwrap.dedent(
    '''
    """An installed third-party provider package."""

    from insomnia_web import SearchHit, SearchProvider, SearchResponse, hookimpl


    class MyProvider(SearchProvider):
        name = "myprov-search"

        async def search(self, request, client):
            hit = SearchHit(title="from my package", url="https://myprov.example/result")
            return SearchResponse(provider=self.name, hits=[hit])


    @hookimpl
    def register_search_providers(register):
        register(MyProvider)
    '''
)


@pytest.fixture
def installed_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Install a provider module with a dist-info declaring ``[insomnia] myprov = ...``."""
    (tmp_path / f"{MODULE}.py").write_text(PROVIDER_SOURCE)
    dist = tmp_path / "insomnia_test_myprov-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: insomnia-test-myprov\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text(f"[insomnia]\nmyprov = {MODULE}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, MODULE, raising=False)
    yield tmp_path
    sys.modules.pop(MODULE, None)


@pytest.mark.asyncio
@pytest.mark.usefixtures("installed_package")
async def test_installed_provider_is_selected_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """INSOMNIA_PLUGINS=myprov loads the package; the manifest selects its provider by name."""
    monkeypatch.setenv("INSOMNIA_PLUGINS", "myprov")
    manifest = parse_manifest(manifest_data({"provider": "myprov-search", "mode": "results"}))
    async with Runtime(manifest, prompter=AutoApprovePrompter()) as runtime:
        assert runtime.providers["myprov-search"].plugin == "myprov"
        result = await runtime.call_tool("WebSearch", {"query": "anything"})
    assert result.ok, result.text
    assert result.output is not None
    assert result.output["provider"] == "myprov-search"
    assert result.output["results"][0]["url"] == "https://myprov.example/result"


@pytest.mark.usefixtures("installed_package")
def test_installed_provider_is_not_loaded_when_not_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With INSOMNIA_PLUGINS empty the package is not loaded, so a manifest naming its
    provider is refused when the runtime starts, naming the key and the registered ones."""
    monkeypatch.setenv("INSOMNIA_PLUGINS", "")
    manifest = parse_manifest(manifest_data({"provider": "myprov-search", "mode": "results"}))
    with pytest.raises(ManifestError) as info:
        Runtime(manifest, prompter=AutoApprovePrompter())
    assert info.value.key == "web.search.provider"
    assert "'myprov-search'" in info.value.message
    assert "brave, searxng" in info.value.message
