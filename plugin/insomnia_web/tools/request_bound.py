"""One runtime's own bound on provider requests (``web.search.max_requests_per_runtime``).

Counted in memory, per :class:`~.services.WebServices` (one per runtime). A search takes
its request synchronously just before the provider is called, so concurrent searches
cannot overshoot the bound; a search refused here sends nothing. A search the key's own
limits refuse before sending (its rate-limit queue, its monthly or daily limit, a store
that cannot count it) gives its request back: only requests that reach the provider count.
"""

from __future__ import annotations

from ..errors import ToolError

__all__ = ["KEY", "RequestBound", "sent_nothing"]

KEY = "web.search.max_requests_per_runtime"

_REFUSED_BEFORE_SENDING = frozenset({"quota_exceeded", "cache_error", "cache_unavailable"})


def sent_nothing(exc: ToolError) -> bool:
    """Whether a provider's *exc* refused the search before any request was sent: the key's
    monthly or daily limit, a store that could not count it, or a rate-limit queue (a
    ``rate_limited`` with a ``source``, where a provider's 429 answer has a ``status``)."""
    if exc.code in _REFUSED_BEFORE_SENDING:
        return True
    return exc.code == "rate_limited" and "source" in exc.details


class RequestBound:
    """At most *limit* provider requests (``0``: no bound), counted in memory."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def take(self) -> None:
        """Count one request; ``quota_exceeded`` (nothing counted) when the bound is used up."""
        if self.limit and self.used >= self.limit:
            remedy = (
                f"Raise {KEY} in the manifest if this agent may send more searches, or set it "
                "to 0 for no bound."
            )
            raise ToolError(
                "quota_exceeded",
                f"this agent's own bound of {self.limit} provider request"
                f"{'' if self.limit == 1 else 's'} ({KEY}) is used up; the search key itself "
                "may have requests left, but no request was sent",
                hint="Do not retry WebSearch: this agent may send no more searches. Answer "
                "with what you have, or use WebFetch with URLs you already know.",
                remedy=remedy,
                retryable=False,
                details={"key": KEY, "max_requests_per_runtime": self.limit},
            )
        self.used += 1

    def give_back(self) -> None:
        """Uncount a request that was never sent."""
        self.used = max(self.used - 1, 0)
