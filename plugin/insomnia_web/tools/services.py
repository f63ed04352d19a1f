"""What the three web tools of one runtime share: one SafeClient, one cache, the providers.

Everything is created on first use, inside a tool call: nothing here opens a socket, a DNS
channel or a file at import or registration.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Literal, TypeVar

import msgspec

from ..config import Manifest
from ..errors import ErrorCode, ToolError, relay
from .request_bound import RequestBound
from .reranker_builds import start_build

if TYPE_CHECKING:
    from ..cache import CacheStore
    from ..net.client import SafeClient
    from ..net.politeness import Politeness
    from ..net.urlpolicy import UrlPolicy
    from ..rank.rerank import Reranker
    from ..search.base import SearchProvider

__all__ = ["WebServices", "broken_remedy", "network_scope", "settings_digest"]


def settings_digest(settings: object) -> str:
    """A short digest of *settings* (JSON-encodable), the same for equal settings: the part
    of a cache key that says under which settings an answer was made."""
    return hashlib.sha256(msgspec.json.encode(settings, order="sorted")).hexdigest()[:16]


def network_scope(manifest: Manifest) -> str:
    """A short digest of the settings that decide which server a URL reaches and which
    addresses may be read: ``allow_cidrs``, ``allow_hosts``, the ``resolve`` table and the
    proxy.

    Stored pages and search answers are shared only between callers with the same digest:
    a page one manifest read at a private address it allows, or at the address its
    ``resolve`` table names, is not served to a manifest that would refuse or resolve it
    otherwise. (Schemes, ports and ``deny_hosts`` are checked on every stored answer.)
    """
    policy = manifest.web.url_policy
    view = {
        "allow_cidrs": sorted(policy.allow_cidrs),
        "allow_hosts": sorted(policy.allow_hosts),
        "resolve": {host: sorted(addresses) for host, addresses in policy.resolve.items()},
        "proxy": manifest.web.fetch.proxy,
    }
    return settings_digest(view)


log = logging.getLogger(__name__)

T = TypeVar("T")

_BROKEN = {
    "search provider": (
        "Fix or uninstall the plugin that provides it, or choose another provider with "
        "web.search.provider.",
        "Use WebFetch with a known URL meanwhile.",
    ),
    "reranker": (
        'Fix or uninstall the plugin that provides it, or set web.pipeline.rerank = "none" to '
        "turn reranking off.",
        "",
    ),
}
"""A broken provider or reranker: what a person can do, and what the model does meanwhile."""


def broken_remedy(kind: Literal["search provider", "reranker"]) -> str:
    """What a person can do about a provider or reranker whose code raised while being built."""
    return _BROKEN[kind][0]


def _build(kind: Literal["search provider", "reranker"], name: str, make: Callable[[], T]) -> T:
    """``make()``; an exception other than a ``ToolError`` is a plugin's bug, reported as a
    non-retryable error naming the provider or reranker and the exception's type only (its
    text may hold a key; the traceback is logged)."""
    try:
        return make()
    except ToolError:
        raise
    except Exception as exc:
        log.exception("the %s %r could not be built", kind, name)
        code: ErrorCode = "provider_error" if kind == "search provider" else "internal_error"
        remedy, meanwhile = _BROKEN[kind]
        raise ToolError(
            code,
            f"the {kind} {name!r} could not be built: {type(exc).__name__}",
            hint=f"The {kind} is broken; do not retry. " + relay(remedy, then=meanwhile),
            remedy=remedy,
            retryable=False,
            details={kind.split()[-1]: name},
        ) from exc


class WebServices:
    """Lazily built, shared resources; :meth:`aclose` releases them (idempotent)."""

    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest
        self._client: SafeClient | None = None
        self._policy: UrlPolicy | None = None
        self._cache: CacheStore | None = None
        self._politeness: Politeness | None = None
        self._providers: dict[str, SearchProvider] = {}
        self._closed = False
        self.scope = network_scope(manifest)
        """The network view of this manifest (:func:`network_scope`)."""
        self.requests = RequestBound(manifest.web.search.max_requests_per_runtime)
        """This runtime's own bound on provider requests (:mod:`.request_bound`)."""

    @property
    def policy(self) -> UrlPolicy:
        """The static URL policy (pure: no I/O), as the client applies it to every URL."""
        if self._policy is None:
            if self._client is not None:
                self._policy = self._client.policy
            else:
                from ..net.urlpolicy import UrlPolicy

                self._policy = UrlPolicy(self.manifest.web.url_policy)
        return self._policy

    @property
    def client(self) -> SafeClient:
        """The policy-checked HTTP client (``web.url_policy.resolve`` overrides DNS per host)."""
        if self._client is None:
            from ..net.client import SafeClient

            self._client = SafeClient(self.manifest.web.fetch, self.manifest.web.url_policy)
        return self._client

    @property
    def politeness(self) -> Politeness:
        """robots.txt and the per-host rate limit, shared by WebFetch and excerpt pages."""
        if self._politeness is None:
            from ..net.politeness import Politeness

            self._politeness = Politeness(self.client)
        return self._politeness

    @property
    def cache(self) -> CacheStore | None:
        """The cache store (SQLite or PostgreSQL), or ``None`` when the cache is disabled."""
        if not self.manifest.web.cache.enabled:
            return None
        if self._cache is None:
            from ..cache import open_store

            self._cache = open_store(self.manifest.web.cache)
        return self._cache

    def provider(self, cls: type[SearchProvider]) -> SearchProvider:
        """The instance of provider *cls*, built from the manifest on first use."""
        inst = self._providers.get(cls.name)
        if inst is None or type(inst) is not cls:
            inst = _build("search provider", cls.name, lambda: cls.from_manifest(self.manifest))
            store = self.cache
            if store is not None:  # one request budget per key for every process
                inst.share_limits(store)
            self._providers[cls.name] = inst
        return inst

    def reranker_build(self, cls: type[Reranker]) -> tuple[Future[Reranker], bool]:
        """The build of reranker *cls*: once per process, in a worker thread (its model loads
        once, off the event loop), started now unless under way or done, and again when the
        last one failed; and whether it did (:func:`.reranker_builds.start_build`)."""
        return start_build(cls, lambda: _build("reranker", cls.name, cls))

    async def aclose(self) -> None:
        """Close the client, the providers and the cache."""
        if self._closed:
            return
        self._closed = True
        errors: list[BaseException] = []
        for provider in self._providers.values():
            try:
                await provider.aclose()
            except Exception as exc:
                errors.append(exc)
        if self._politeness is not None:
            await self._politeness.aclose()
        if self._client is not None:
            await self._client.aclose()
        if self._cache is not None:
            await self._cache.aclose()
        if errors:
            raise ToolError("internal_error", f"closing search providers failed: {errors[0]!r}")
