"""The two cache backends for tests: a SQLite file, and PostgreSQL when a server is given.

``INSOMNIA_WEB_TEST_POSTGRES`` holds the URL of a throw-away server (``.ci/run`` starts
one); each test gets a schema of its own there, dropped afterwards. Without the variable,
the PostgreSQL cases are skipped with that reason.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

from insomnia_web.config import CacheConfig

__all__ = [
    "BACKENDS",
    "PG_ENV",
    "SKIP_REASON",
    "backend_config",
    "postgres_url",
    "scratch_schema",
]

PG_ENV = "INSOMNIA_WEB_TEST_POSTGRES"
SKIP_REASON = f"no PostgreSQL server for tests: set {PG_ENV} (.ci/run starts one)"


def postgres_url() -> str | None:
    """The test server's URL, or ``None`` when no server is configured."""
    return os.environ.get(PG_ENV) or None


BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql", marks=pytest.mark.skipif(postgres_url() is None, reason=SKIP_REASON)
    ),
]
"""Parameters of a backend fixture: every store test runs once per backend."""


@contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """A fresh schema on the server; yields a URL whose connections use it."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


@contextmanager
def backend_config(backend: str, tmp_path: Path, **settings: object) -> Iterator[CacheConfig]:
    """A cache configuration for a new, empty store of *backend*."""
    path = str(tmp_path / "cache-dir" / "cache.sqlite3")
    if backend == "sqlite":
        yield CacheConfig(path=path, **settings)  # type: ignore[arg-type]
        return
    url = postgres_url()
    assert url is not None
    with scratch_schema(url) as schema_url:
        yield CacheConfig(path=path, url=schema_url, **settings)  # type: ignore[arg-type]
