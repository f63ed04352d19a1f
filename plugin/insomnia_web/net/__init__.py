"""The safe network layer: URL policy, pinned DNS and the bounded HTTP client.

Everything insomnia-web fetches goes through :class:`SafeClient`; :func:`check_url` gives
the same policy's verdict without connecting.
"""

from __future__ import annotations

from ..hosts.addresses import parse_cidrs
from .check import UrlVerdict, check_url
from .client import SafeClient
from .resolver import AiodnsResolver, Resolver, StaticResolver
from .result import FetchResult

__all__ = [
    "AiodnsResolver",
    "FetchResult",
    "Resolver",
    "SafeClient",
    "StaticResolver",
    "UrlVerdict",
    "check_url",
    "parse_cidrs",
]
