"""The outcome of one :meth:`SafeClient.fetch`: status, headers and a bounded body."""

from __future__ import annotations

import email.utils
import time

import msgspec

from ..errors import MAX_RETRY_AFTER_S, ToolError
from .charset import decode_text

__all__ = ["FetchResult", "parse_content_type", "parse_retry_after"]


def parse_content_type(value: str | None) -> tuple[str, str | None]:
    """Split a ``Content-Type`` value into (bare lower-case media type, charset or None)."""
    if not value:
        return "", None
    media, _, params = value.partition(";")
    charset: str | None = None
    for param in params.split(";"):
        key, _, val = param.partition("=")
        if key.strip().lower() == "charset":
            charset = val.strip().strip("\"'").strip().lower() or None
    return media.strip().lower(), charset


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delta seconds or an HTTP date).

    Returns None when absent or unparseable; the result is clamped to 0..86400.
    """
    if not value:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return min(float(text), MAX_RETRY_AFTER_S)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    delta = when.timestamp() - (time.time() if now is None else now)
    return min(max(delta, 0.0), MAX_RETRY_AFTER_S)


class FetchResult(msgspec.Struct, kw_only=True, frozen=True):
    """A fetched response.

    ``headers`` has lower-cased names; for a repeated header the last value wins.
    ``body`` is the decompressed body, at most ``max_bytes`` long; ``truncated`` says it
    was cut there. ``redirects`` lists the URL of every redirect hop followed, in order
    (so ``final_url`` is its last item when it is not empty). For a 3xx that was not
    followed (``follow_redirects=False`` or a trusted origin) the body is empty.
    """

    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    content_type: str
    charset: str | None
    body: bytes
    truncated: bool
    bytes_read: int
    redirects: list[str]
    elapsed_s: float
    queued_s: float = 0.0
    """Of ``elapsed_s``, the time spent waiting for a connection slot (not the deadline's)."""

    def decode(self) -> tuple[str, str]:
        """Return ``(text, charset used)``: header charset, then meta, then detection.

        Never raises: unknown charsets fall back and invalid bytes are replaced.
        """
        return decode_text(self.body, self.charset)

    def retry_after_s(self) -> float | None:
        """The ``Retry-After`` header in seconds (from seconds or an HTTP date), if any."""
        return parse_retry_after(self.headers.get("retry-after"))

    def raise_for_status(self) -> None:
        """Raise for an error status: 429 is ``rate_limited``, other >= 400 ``http_error``."""
        if self.status < 400:
            return
        retry_after = self.retry_after_s()
        if self.status == 429:
            raise ToolError(
                "rate_limited",
                f"{self.final_url} answered 429 Too Many Requests",
                retry_after_s=retry_after if retry_after is not None else 1.0,
                details={"status": 429},
            )
        retryable = self.status >= 500 or self.status == 408
        wait = retry_after if self.status == 503 else None
        raise ToolError(
            "http_error",
            f"{self.final_url} answered HTTP {self.status}",
            hint=_retry_hint(wait) if retryable else None,
            retryable=retryable,
            retry_after_s=wait,
            details={"status": self.status},
        )


def _retry_hint(wait: float | None) -> str:
    """The hint of an error status a retry may cure (a 5xx, a 408)."""
    if wait is not None:
        return (
            "The server failed for now; wait retry_after_s seconds and retry once, or try "
            "another source."
        )
    return "The server failed for now; retry once later, or try another source."
