"""``ctx.client``: the runtime's HTTP client, as one approved tool call may use it.

A plugin tool reaches the network through it rather than through a client of its own, so
its requests get what WebFetch's get: the URL policy (no private, loopback or metadata
addresses), pinned DNS, bounded time, body size, redirects and connections, and the
manifest's proxy. It also keeps the call to the hosts it was approved for: those its
``subject`` named, and those the permission rules allow the tool on without asking. Any
other host, first request or redirect hop, is refused before it is looked up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal

from ..errors import ToolError
from ..hosts.names import idna_host

if TYPE_CHECKING:
    from ..net.client import SafeClient
    from ..net.result import FetchResult
    from ..net.urlpolicy import Target
    from .base import CallSubject

__all__ = ["CallClient"]

ACCEPT_ANY = "*/*"
"""What a tool's request accepts unless it says otherwise (an API answers JSON, not HTML)."""


class CallClient:
    """:meth:`fetch` under the URL policy and the bounds of the runtime's client, limited
    to the hosts *subject* names or *probe* (``(tool, host) -> verdict``) allows.

    A call approved with ``hosts_unknown`` (a person or a rule allowed it without knowing
    its hosts) may contact any host no rule denies the tool.
    """

    def __init__(
        self,
        client: SafeClient,
        *,
        tool: str,
        subject: CallSubject,
        probe: Callable[[str, str], Literal["allow", "ask", "deny"]],
    ) -> None:
        self._client = client
        self._tool = tool
        self._named = frozenset(idna_host(d) for d in subject.domains)
        self._any_host = subject.hosts_unknown
        self._probe = probe

    async def fetch(
        self,
        url: str,
        *,
        timeout_s: float | None = None,
        max_bytes: int | None = None,
        headers: Mapping[str, str] | None = None,
        accept: str = ACCEPT_ANY,
        follow_redirects: bool = True,
    ) -> FetchResult:
        """GET *url*; its status, headers and bounded body (``FetchResult``).

        ``timeout_s`` (default ``web.fetch.timeout_s``) covers DNS, every redirect and the
        body; a body longer than ``max_bytes`` (default ``web.fetch.max_response_bytes``) is
        cut (``truncated``). ``headers`` go to *url*'s origin only, never to a redirect
        target elsewhere. An HTTP error status is a result, not an exception; every other
        failure is a ``ToolError`` with its code (``blocked_address``, ``timeout``,
        ``permission_denied`` for a host the call may not contact, ``redirect_blocked``...).
        """
        first = self._client.policy.check(url)
        if not self._may_contact(first.host):
            raise ToolError(
                "permission_denied",
                f"{self._tool} may not contact {first.host}: the call did not name it, and "
                f"the permission rules do not allow {self._tool} there without asking.",
                hint="Do not retry; the tool contacted a host it did not ask about. Tell the "
                "user it needs fixing.",
                remedy=f"Fix the plugin that provides {self._tool} so its calls name "
                f"{first.host}, or add {self._tool}(domain:{first.host}) to [permissions] "
                "allow in the manifest if it may contact that host.",
                details={"host": first.host},
            )
        return await self._client.fetch(
            url,
            timeout_s=timeout_s,
            max_bytes=max_bytes,
            headers=headers,
            accept=accept,
            follow_redirects=follow_redirects,
            redirect_check=self._check_hop,
        )

    def _may_contact(self, host: str) -> bool:
        """Whether this call may contact *host* (the URL policy's normalised form)."""
        if host in self._named:
            return True
        verdict = self._probe(self._tool, host)
        return verdict == "allow" or (verdict == "ask" and self._any_host)

    async def _check_hop(self, target: Target) -> None:
        """Refuse a redirect to a host this call may not contact."""
        if not self._may_contact(target.host):
            location = str(target.url)
            raise ToolError(
                "redirect_blocked",
                f"the response redirects to {location}, on {target.host}, which this "
                f"{self._tool} call may not contact",
                details={"location": location, "host": target.host},
            )
