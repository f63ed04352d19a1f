"""The engine of ``insomnia-web policy check URL... [--resolve HOST:IP]... [--json]``.

It never connects: each URL gets the :func:`~.check.check_url` verdict. ``--resolve``
overrides (curl-style) replace DNS only for the hosts they name (merged over the
manifest's ``url_policy.resolve``); other hosts are resolved with aiodns. Overridden
answers are still vetted by the policy.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import TextIO

import msgspec

from ..config import UrlPolicyConfig
from ..hosts.names import idna_host
from ..net.check import UrlVerdict, check_url_with
from ..net.resolver import policy_resolver
from ..net.urlpolicy import UrlPolicy
from ..textcheck import terminal_safe, terminal_safe_json

__all__ = ["format_verdict", "parse_resolve_args", "run"]


def _parse_address(text: str) -> str | None:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def _parse_addresses(text: str) -> list[str] | None:
    addresses = [_parse_address(part) for part in text.split(",")]
    if not addresses or any(a is None for a in addresses):
        return None
    return [a for a in addresses if a is not None]


def parse_resolve_args(entries: list[str]) -> dict[str, list[str]]:
    """Parse curl-style ``HOST:IP`` overrides into ``{host: [ip, ...]}``.

    Accepted forms: ``example.com:93.184.215.14``, ``example.com:[2606:2800::1]``,
    ``example.com:2606:2800::1`` (bare IPv6), curl's ``HOST:PORT:IP`` (the port is
    ignored) and comma-separated addresses. The same host may repeat; its addresses
    accumulate. Raises ``ValueError`` naming the bad entry.
    """
    overrides: dict[str, list[str]] = {}
    for entry in entries:
        host, sep, rest = entry.partition(":")
        host = idna_host(host)
        if not sep or not host or not rest:
            raise ValueError(f"--resolve {entry!r}: expected HOST:IP")
        addresses = _parse_addresses(rest)
        if addresses is None:
            port, sep, tail = rest.partition(":")
            if sep and port.isdigit():
                addresses = _parse_addresses(tail)
        if addresses is None:
            raise ValueError(f"--resolve {entry!r}: {rest!r} is not an IP address")
        bucket = overrides.setdefault(host, [])
        bucket.extend(a for a in addresses if a not in bucket)
    return overrides


def format_verdict(verdict: UrlVerdict) -> str:
    """One human-readable line for *verdict*."""
    if verdict.allowed:
        return f"ALLOWED  {verdict.url} -> {', '.join(verdict.addresses)}"
    return f"BLOCKED  {verdict.url} [{verdict.code}] {verdict.reason}"


async def _verdicts(urls: list[str], config: UrlPolicyConfig) -> list[UrlVerdict]:
    policy = UrlPolicy(config)
    async with policy_resolver(config) as resolver:
        return [await check_url_with(url, policy, resolver) for url in urls]


def run(
    urls: list[str],
    *,
    manifest_config: UrlPolicyConfig,
    as_json: bool,
    out: TextIO,
) -> int:
    """Print the verdict of each URL (a line each, or one JSON object per line).

    Runs its own event loop (call it from synchronous code). Returns 0 when every URL is
    allowed, 1 otherwise.
    """
    verdicts = asyncio.run(_verdicts(urls, manifest_config))
    for verdict in verdicts:  # a URL to check is often a page's: its controls are shown
        if as_json:
            out.write(terminal_safe_json(msgspec.json.encode(verdict).decode()) + "\n")
        else:
            out.write(terminal_safe(format_verdict(verdict)) + "\n")
    return 0 if all(v.allowed for v in verdicts) else 1
