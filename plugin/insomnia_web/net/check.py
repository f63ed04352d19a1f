"""``check_url``: the policy verdict for a URL, without connecting to it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from ..config import Manifest, UrlPolicyConfig
from ..errors import ToolError
from .resolver import Resolver, StaticResolver, policy_resolver
from .urlpolicy import UrlPolicy

__all__ = ["UrlVerdict", "check_url", "check_url_with"]


class UrlVerdict(msgspec.Struct, kw_only=True):
    """Whether a URL may be fetched, and why.

    ``code`` is the error code a fetch would fail with (None when allowed); ``reason``
    names the rule; ``addresses`` are the vetted answers that would be dialled.
    """

    allowed: bool
    code: str | None
    reason: str
    addresses: list[str] = msgspec.field(default_factory=list)
    url: str


def _policy_config(config: UrlPolicyConfig | Manifest | None) -> UrlPolicyConfig:
    if config is None:
        return UrlPolicyConfig()
    if isinstance(config, Manifest):
        return config.web.url_policy
    return config


async def check_url_with(url: str, policy: UrlPolicy, resolver: Resolver) -> UrlVerdict:
    """The verdict for *url* under *policy*, resolving names with *resolver*."""
    try:
        target = policy.check(url)
        if target.ip is not None:
            addresses = [target.ip]
            detail = f"address {target.ip}"
        else:
            addresses = policy.vet_addresses(target, await resolver.resolve(target.host))
            detail = f"{target.host} resolves to {', '.join(addresses)}"
    except ToolError as exc:
        return UrlVerdict(url=url, allowed=False, code=exc.code, reason=exc.message)
    rule = "allow_hosts exemption" if target.exempt else "no rule blocks it"
    return UrlVerdict(
        url=url, allowed=True, code=None, reason=f"allowed: {detail} ({rule})", addresses=addresses
    )


async def check_url(
    url: str,
    *,
    config: UrlPolicyConfig | Manifest | None = None,
    resolve: Mapping[str, Sequence[str]] | None = None,
) -> UrlVerdict:
    """The policy verdict for *url*, without connecting.

    *config* is the URL policy (or a whole manifest); the default policy without it.
    *resolve* maps host -> IP addresses and then replaces DNS entirely: a host missing
    from it is NXDOMAIN (``dns_failure``). Without it, names are resolved with aiodns
    under the policy's own ``resolve`` table.
    """
    policy_config = _policy_config(config)
    policy = UrlPolicy(policy_config)
    resolver = StaticResolver(resolve) if resolve is not None else policy_resolver(policy_config)
    async with resolver:
        return await check_url_with(url, policy, resolver)
