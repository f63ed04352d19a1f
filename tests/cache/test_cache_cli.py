"""``insomnia-web cache stats`` on either backend: rows, the store in use, provider usage."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from insomnia_web.cache import open_store
from insomnia_web.cli import main
from insomnia_web.config import CacheConfig


def _manifest(tmp_path: Path, cfg: CacheConfig) -> Path:
    path = tmp_path / "insomnia.toml"
    lines = ["[web.cache]", f"path = {json.dumps(cfg.path)}"]
    if cfg.url:
        lines.append(f"url = {json.dumps(cfg.url)}")
    path.write_text("\n".join(lines) + "\n")
    return path


async def _spend(cfg: CacheConfig, requests: int) -> None:
    store = open_store(cfg)
    try:
        for _ in range(requests):
            await store.take_slot("brave:0123abcd", interval_s=0.001, max_wait_s=5)
        await store.put_search("python asyncio", {"count": 5}, "brave", b"{}")
    finally:
        await store.aclose()


def test_stats_show_the_store_and_provider_requests(
    store_config: CacheConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """cache stats names the backend and counts provider requests today and this month."""
    asyncio.run(_spend(store_config, 3))
    manifest = _manifest(tmp_path, store_config)
    assert main(["--manifest", str(manifest), "cache", "stats"]) == 0
    out = capsys.readouterr().out
    assert "searches: 1\n" in out
    assert "provider requests brave:0123abcd: 3 today, 3 this month (UTC)" in out
    engine = "PostgreSQL" if store_config.url else "SQLite"
    assert f"\n{engine} " in out
    assert main(["--manifest", str(manifest), "--json", "cache", "stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["usage"] == [{"bucket": "brave:0123abcd", "today": 3, "month": 3}]
    assert stats["backend"] == ("postgresql" if store_config.url else "sqlite")


async def _spend_as(cfg: CacheConfig, bucket: str) -> None:
    store = open_store(cfg)
    try:
        await store.take_slot(bucket, interval_s=0.001, max_wait_s=5)
    finally:
        await store.aclose()


def test_stats_show_a_shared_stores_names_with_terminal_controls_escaped(
    store_config: CacheConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A budget name another host wrote into a shared store, holding a clipboard write
    (OSC 52) or a CSI that rewrites the line, is printed by cache stats as escapes: the
    sequences never reach the person's terminal."""
    asyncio.run(_spend_as(store_config, "brave:\x1b]52;c;ZWNobyBodWg=\x07\x9b2K\rok"))
    manifest = _manifest(tmp_path, store_config)
    assert main(["--manifest", str(manifest), "cache", "stats"]) == 0
    out = capsys.readouterr().out
    assert "brave:\\x1b]52;c;ZWNobyBodWg=\\x07\\x9b2K\\rok: 1 today" in out
    assert not {"\x1b", "\x07", "\x9b", "\r"} & set(out)
