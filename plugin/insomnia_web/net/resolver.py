"""Name resolution: the :class:`Resolver` extension point, aiodns and a static table.

A resolver turns a host name into IP address strings and nothing else; the policy vets
the answers afterwards (:meth:`~insomnia_web.net.urlpolicy.UrlPolicy.vet_addresses`).
Failures are tool errors: ``dns_failure`` (NXDOMAIN, no records, server failure) or
``ToolTimeout(phase="dns")``.

- :class:`AiodnsResolver`: A and AAAA queries in FQDN form (a trailing dot, so search
  domains from ``resolv.conf`` never apply), bounded by a timeout.
- :class:`StaticResolver`: a fixed table, for tests and curl-style ``--resolve HOST:IP``
  overrides; hosts missing from it go to ``fallback`` or are NXDOMAIN.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

import aiodns
import aiodns.error
import msgspec
import pycares

from ..closing import AsyncClosing
from ..config import UrlPolicyConfig
from ..errors import ToolError, ToolTimeout
from ..hosts.names import idna_host, normalize_host

__all__ = [
    "AiodnsResolver",
    "Resolver",
    "StaticResolver",
    "policy_resolver",
    "with_overrides",
]

_NOT_FOUND = frozenset({pycares.errno.ARES_ENOTFOUND, pycares.errno.ARES_ENODATA})


class Resolver(AsyncClosing, ABC):
    """Resolves host names to IP address strings; an async context manager."""

    @abstractmethod
    async def resolve(self, host: str) -> list[str]:
        """Return the IPv4 and IPv6 addresses of *host*.

        Raises ``ToolError("dns_failure")`` when the host has no address and
        ``ToolTimeout(phase="dns")`` when the lookup ran out of time.
        """

    async def aclose(self) -> None:
        """Release resources (sockets, threads); the default has none."""


def _nxdomain(host: str) -> ToolError:
    return ToolError("dns_failure", f"{host}: host not found (NXDOMAIN)")


class StaticResolver(Resolver):
    """Answers from a fixed ``host -> addresses`` table.

    Names are matched case-insensitively, ignoring a trailing dot, in IDNA form (a
    table key ``bücher.de`` answers for ``xn--bcher-kva.de``). A host missing from
    the table is passed to *fallback*, or is NXDOMAIN (``dns_failure``) without one.
    The answers are not trusted: the policy still vets them. ``aclose()`` closes the
    fallback too.
    """

    def __init__(
        self, mapping: Mapping[str, Sequence[str]], fallback: Resolver | None = None
    ) -> None:
        self.mapping: dict[str, list[str]] = {}
        for host, answer in mapping.items():
            addresses = [answer] if isinstance(answer, str) else answer
            self.mapping.setdefault(idna_host(host), []).extend(addresses)
        self.fallback = fallback

    async def resolve(self, host: str) -> list[str]:
        """Return the table's addresses for *host*, else ask the fallback, else NXDOMAIN."""
        name = idna_host(host)
        if name in self.mapping:
            answers = list(self.mapping[name])
            if not answers:
                raise ToolError("dns_failure", f"{name}: no A or AAAA records")
            return answers
        if self.fallback is not None:
            return await self.fallback.resolve(host)
        raise _nxdomain(name)

    async def aclose(self) -> None:
        """Close the fallback resolver, if any."""
        if self.fallback is not None:
            await self.fallback.aclose()


async def _both(
    first: Coroutine[Any, Any, list[str]], second: Coroutine[Any, Any, list[str]]
) -> tuple[list[str], list[str]]:
    """Run two queries concurrently; if one fails, cancel the other before re-raising."""
    tasks = [asyncio.ensure_future(first), asyncio.ensure_future(second)]
    try:
        a, b = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
    return a, b


class AiodnsResolver(Resolver):
    """Asynchronous DNS through aiodns (c-ares): A and AAAA queries, bounded by a timeout.

    The c-ares channel is created on first use (never at construction), inside the
    running event loop. *nameservers* and *port* override the system configuration
    (tests point them at a local server).
    """

    def __init__(
        self,
        *,
        timeout_s: float = 5.0,
        nameservers: Sequence[str] | None = None,
        port: int | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self._nameservers = list(nameservers) if nameservers else None
        self._port = port
        self._dns: aiodns.DNSResolver | None = None

    def _channel(self) -> aiodns.DNSResolver:
        if self._dns is None:
            options: dict[str, Any] = {"timeout": self.timeout_s, "tries": 2}
            if self._port is not None:
                options["udp_port"] = self._port
                options["tcp_port"] = self._port
            self._dns = aiodns.DNSResolver(nameservers=self._nameservers, **options)
        return self._dns

    async def _query(self, fqdn: str, qtype: str) -> list[str]:
        try:
            result = await self._channel().query_dns(fqdn, qtype)
        except aiodns.error.DNSError as exc:
            errno = exc.args[0] if exc.args else None
            if errno in _NOT_FOUND:
                return []
            if errno == pycares.errno.ARES_ETIMEOUT:
                raise ToolTimeout(f"{fqdn}: DNS lookup timed out", phase="dns") from exc
            message = exc.args[1] if len(exc.args) > 1 else str(exc)
            raise ToolError("dns_failure", f"{fqdn}: DNS {qtype} lookup failed: {message}") from exc
        wanted = pycares.QUERY_TYPE_A if qtype == "A" else pycares.QUERY_TYPE_AAAA
        return [
            str(record.data.addr)
            for record in result.answer
            if record.type == wanted and hasattr(record.data, "addr")
        ]

    async def resolve(self, host: str) -> list[str]:
        """Query A and AAAA for ``host.`` (FQDN form); NXDOMAIN or no records is dns_failure."""
        name = normalize_host(host)
        fqdn = name + "."
        try:
            async with asyncio.timeout(self.timeout_s):
                v4, v6 = await _both(self._query(fqdn, "A"), self._query(fqdn, "AAAA"))
        except TimeoutError as exc:
            if isinstance(exc, ToolError):
                raise
            raise ToolTimeout(
                f"{name}: DNS lookup took longer than {self.timeout_s:g} s", phase="dns"
            ) from exc
        answers = v4 + v6
        if not answers:
            raise _nxdomain(name)
        return answers

    async def aclose(self) -> None:
        """Close the c-ares channel if it was created."""
        if self._dns is not None:
            dns, self._dns = self._dns, None
            await dns.close()


def with_overrides(
    policy: UrlPolicyConfig, overrides: Mapping[str, Sequence[str]]
) -> UrlPolicyConfig:
    """*policy* with curl-style ``--resolve`` answers merged into ``resolve``.

    Host names are compared in IDNA form, so an override wins over the manifest's entry for
    the same host however either is spelled.
    """
    if not overrides:
        return policy
    table = {idna_host(h): list(a) for h, a in policy.resolve.items()}
    table.update({idna_host(h): list(a) for h, a in overrides.items()})
    return msgspec.structs.replace(policy, resolve=table)


def policy_resolver(policy: UrlPolicyConfig) -> Resolver:
    """The resolver a policy asks for: aiodns, under the manifest's ``resolve`` table.

    Hosts missing from the table go to aiodns with the policy's ``dns_timeout_s``.
    """
    dns = AiodnsResolver(timeout_s=policy.dns_timeout_s)
    return StaticResolver(policy.resolve, fallback=dns) if policy.resolve else dns
