"""Which request headers a caller of :class:`~.client.SafeClient` may set.

A caller's headers (a provider's API key, a plugin tool's ``ctx.client`` headers) go to
the host the policy checked and the permission rules approved. A header that routes or
frames the request would undo that: ``Host`` names another site, which a server or CDN
that hosts both then answers (so a call approved for one host read another); ``Proxy-*``
speaks to the manifest's proxy; the hop-by-hop and length headers change how the request
is framed. :func:`check_request_headers` refuses them.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import ToolError

__all__ = ["RESERVED_HEADERS", "check_request_headers"]

RESERVED_HEADERS = frozenset({
    "connection",
    "content-length",
    "expect",
    "host",
    "keep-alive",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
})  # fmt: skip
"""Header names (lower case) the client alone sets; every ``Proxy-*`` name too."""


def check_request_headers(headers: Mapping[str, str]) -> None:
    """Raise ``invalid_input`` naming the first of *headers* the client alone may set."""
    for name in headers:
        key = name.strip().lower()
        if key in RESERVED_HEADERS or key.startswith("proxy-"):
            raise ToolError(
                "invalid_input",
                f"the request header {name!r} may not be set: the client sets it, so that "
                "a request reaches only the host it names",
                hint="Leave the header out; to read another host, name it in the URL.",
                retryable=False,
                details={"header": name},
            )
