"""Which :class:`~.base.CacheStore` the manifest asks for."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .base import CacheStore

if TYPE_CHECKING:
    from ..config import CacheConfig

__all__ = ["open_store"]


def open_store(cfg: CacheConfig, *, clock: Callable[[], float] | None = None) -> CacheStore:
    """PostgreSQL when ``web.cache.url`` is set, else the SQLite file at ``web.cache.path``.

    Nothing is opened here: the first call connects (or creates the file).
    """
    if cfg.url:
        from .postgres import PostgresStore

        return PostgresStore.from_config(cfg, clock=clock)
    from .sqlite import SqliteStore
    from .store import Cache

    return SqliteStore(Cache.from_config(cfg, clock=clock or time.time))
