"""A searching process for the shared rate-limit test (importable by spawned processes)."""

from __future__ import annotations

import asyncio
import os
from multiprocessing.synchronize import Barrier
from typing import Any

from insomnia_web.config import parse_manifest
from insomnia_web.search.base import SearchRequest
from insomnia_web.search.brave import BraveProvider
from insomnia_web.tools.services import WebServices


async def _search(manifest: dict[str, Any], worker: int, searches: int, barrier: Barrier) -> None:
    services = WebServices(parse_manifest(manifest))
    try:
        provider = services.provider(BraveProvider)
        store = services.cache
        assert store is not None
        await asyncio.to_thread(barrier.wait)
        for n in range(searches):
            await provider.search(
                SearchRequest(query=f"w{worker} q{n}", timeout_s=60), services.client
            )
            await store.add_finding(f"worker {worker} fact {n}", "content", ttl_s=3600)
    finally:
        await services.aclose()


def search_many(
    manifest: dict[str, Any], key: str, worker: int, searches: int, barrier: Barrier
) -> None:
    """Wait for the other processes, then search *searches* times and save a finding each."""
    os.environ["BRAVE_SEARCH_API_KEY"] = key
    os.environ["INSOMNIA_PLUGINS"] = ""
    asyncio.run(_search(manifest, worker, searches, barrier))
