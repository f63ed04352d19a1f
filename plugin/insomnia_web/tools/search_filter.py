"""Which search results WebSearch may show: domain filters, URL policy and deny rules.

All checks are pure (no DNS): result URLs are data until something fetches them, and any
fetch goes through the full policy again. A result is dropped when

- its URL fails the static URL policy (scheme, credentials, port, local names, blocked IP
  literals, ``deny_hosts``), or a ``deny`` permission rule refuses WebFetch on its host:
  these are counted in ``refused`` (the output's ``filtered``);
- its host is outside ``allowed_domains`` or inside ``blocked_domains`` (the host equals
  the domain or is a subdomain of it): these are what the caller asked for, not counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import ToolError
from ..hosts.names import idna_host
from ..net.urlpolicy import UrlPolicy
from ..search.base import SearchHit

__all__ = ["FilterOutcome", "PermissionLookup", "filter_hits", "host_in", "normalize_domain"]

PermissionLookup = Callable[[str], str]
"""host -> ``"allow"``, ``"ask"`` or ``"deny"`` (the WebFetch verdict for that host)."""


@dataclass(frozen=True, slots=True)
class FilterOutcome:
    """The results kept, in order, and how many were dropped for which reason."""

    hits: list[SearchHit]
    refused: int = 0
    """Dropped by the URL policy or a deny rule."""
    outside_domains: int = 0
    """Dropped by ``allowed_domains`` / ``blocked_domains``."""


def normalize_domain(domain: str) -> str:
    """A domain filter as a bare IDNA host: ``*.Example.COM.`` -> ``example.com``."""
    return idna_host(domain.strip().removeprefix("*."))


def host_in(host: str, domains: Iterable[str]) -> bool:
    """True if *host* equals one of the (normalised) *domains* or is a subdomain of one."""
    return any(host == d or host.endswith("." + d) for d in domains)


def filter_hits(
    hits: Iterable[SearchHit],
    *,
    policy: UrlPolicy,
    allowed_domains: Iterable[str] = (),
    blocked_domains: Iterable[str] = (),
    permission: PermissionLookup | None = None,
) -> FilterOutcome:
    """Keep the hits WebSearch may show (see the module docstring)."""
    allowed = [normalize_domain(d) for d in allowed_domains]
    blocked = [normalize_domain(d) for d in blocked_domains]
    verdicts: dict[str, str] = {}
    kept: list[SearchHit] = []
    refused = outside = 0
    for hit in hits:
        try:
            host = policy.check(hit.url).host
        except ToolError:
            refused += 1
            continue
        if (allowed and not host_in(host, allowed)) or host_in(host, blocked):
            outside += 1
            continue
        if permission is not None:
            if host not in verdicts:
                verdicts[host] = permission(host)
            if verdicts[host] == "deny":
                refused += 1
                continue
        kept.append(hit)
    return FilterOutcome(hits=kept, refused=refused, outside_domains=outside)
