"""The forward proxy of ``web.fetch.proxy``: where requests go when a network needs one.

With a proxy, aiohttp connects to the proxy only (a ``CONNECT`` tunnel for https, an
absolute-form request for http), so the connection permit names the proxy, not the target:

- the proxy is configuration, trusted like a provider endpoint: its address may be private
  (``10.0.0.8:3128``) and is not re-checked against the address block list;
- the *proxy* resolves target names, so the addresses a target name has cannot be vetted or
  pinned. The URL policy still refuses blocked schemes, ports, host names (``localhost``,
  ``*.internal``, ``deny_hosts``) and literal addresses (``http://10.0.0.1/``) before
  anything is sent; a proxy that can reach a private network must be trusted not to
  resolve public names to it (or must refuse private destinations itself).

The proxy is never taken from the environment (``HTTP_PROXY`` and friends are ignored).
"""

from __future__ import annotations

from dataclasses import dataclass

from yarl import URL

from ..hosts.addresses import parse_ip
from ..hosts.names import normalize_host
from .pinning import ConnectPermit
from .resolver import Resolver

__all__ = ["Proxy"]


@dataclass(frozen=True, slots=True)
class Proxy:
    """A forward proxy: its URL (``http://host:port``) and normalised host name."""

    url: URL
    host: str

    @classmethod
    def from_config(cls, value: str | None) -> Proxy | None:
        """The proxy of ``web.fetch.proxy``, or None when it is unset."""
        if not value:
            return None
        url = URL(value)
        return cls(url=url, host=normalize_host(url.host or ""))

    async def permit(self, resolver: Resolver) -> ConnectPermit:
        """A permit to dial the proxy (resolved by *resolver* unless it is an address)."""
        try:
            addresses = [str(parse_ip(self.host))]
        except ValueError:
            addresses = await resolver.resolve(self.host)
        return ConnectPermit(host=self.host, addresses=tuple(addresses), table=None)
