"""Pinning: aiohttp connects only to the addresses the policy vetted for this request.

Before each request :class:`~insomnia_web.net.client.SafeClient` resolves and vets the
host itself, then opens a :func:`permit` (a context variable) naming the host and the
vetted addresses. Two hooks inside aiohttp read it:

- :class:`PinnedResolver` is the connector's ``AbstractResolver``. It never queries DNS:
  it hands aiohttp the permit's addresses, so the address checked is the address dialled
  (no second lookup, no DNS-rebinding window). A host other than the permit's is refused.
- :func:`guarded_socket` is the connector's ``socket_factory`` (aiohttp 3.10+ passes it to
  ``aiohappyeyeballs.start_connection``, which calls it with each ``addrinfo`` right before
  ``connect``). It re-checks the socket address: it must be one of the permit's addresses
  and, unless the target is exempt, pass the address table again. IP-literal URLs bypass
  the resolver in aiohttp, so this guard is what pins them.

The connector disables aiohttp's DNS cache and keep-alive, so every request dials anew
through both hooks. A refusal is recorded on the permit so the client can report
``blocked_address`` instead of a generic connection error.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from aiohappyeyeballs import AddrInfoType
from aiohttp.abc import AbstractResolver, ResolveResult

from ..hosts.addresses import AddressTable
from ..hosts.names import normalize_host

__all__ = ["ConnectPermit", "ConnectRefused", "PinnedResolver", "guarded_socket", "permit"]


class ConnectRefused(OSError):
    """The connect-time guard refused a socket address."""


@dataclass(slots=True)
class ConnectPermit:
    """What the current request may dial: *host* (normalised) at *addresses*.

    ``table`` is the address table to re-check with, or None when the target is exempt
    (``allow_hosts`` or a trusted origin). ``refused`` collects guard refusals.
    """

    host: str
    addresses: tuple[str, ...]
    table: AddressTable | None
    refused: list[str] = field(default_factory=list)


_PERMIT: ContextVar[ConnectPermit | None] = ContextVar("insomnia_web_connect_permit", default=None)


@contextmanager
def permit(grant: ConnectPermit) -> Iterator[ConnectPermit]:
    """Allow connections to *grant*'s addresses for the duration of the ``with`` block."""
    token = _PERMIT.set(grant)
    try:
        yield grant
    finally:
        _PERMIT.reset(token)


class PinnedResolver(AbstractResolver):
    """An aiohttp resolver that answers only with the current permit's vetted addresses."""

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """Return the permit's addresses for *host*; raise ``OSError`` for any other host."""
        grant = _PERMIT.get()
        name = normalize_host(host)
        if grant is None or grant.host != name:
            if grant is not None:
                grant.refused.append(name)
            raise ConnectRefused(f"{host} was not vetted for this request")
        results: list[ResolveResult] = []
        for address in grant.addresses:
            addr_family = socket.AF_INET6 if ":" in address else socket.AF_INET
            if family not in (socket.AF_UNSPEC, addr_family):
                continue
            results.append(
                ResolveResult(
                    hostname=host,
                    host=address,
                    port=port,
                    family=addr_family,
                    proto=0,
                    flags=socket.AI_NUMERICHOST,
                )
            )
        if not results:
            raise ConnectRefused(f"{host}: no vetted address of the requested family")
        return results

    async def close(self) -> None:
        """Nothing to release."""


def guarded_socket(addr_info: AddrInfoType) -> socket.socket:
    """Create the socket for *addr_info* only if its address is vetted for this request."""
    family, type_, proto, _, sockaddr = addr_info
    host = str(sockaddr[0])
    grant = _PERMIT.get()
    try:
        addr = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError as exc:
        raise ConnectRefused(f"connect guard: {host!r} is not an address") from exc
    text = str(addr)
    if grant is None or text not in grant.addresses:
        if grant is not None:
            grant.refused.append(text)
        raise ConnectRefused(f"connect guard: {text} was not vetted for this request")
    if grant.table is not None:
        reason = grant.table.reason(addr)
        if reason is not None:
            grant.refused.append(text)
            raise ConnectRefused(f"connect guard: {text} is blocked ({reason})")
    return socket.socket(family=family, type=type_, proto=proto)
