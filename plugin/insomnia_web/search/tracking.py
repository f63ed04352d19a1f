"""Tracking parameters, taken out of result URLs before anything reads them.

Search engines and the pages they index add query parameters that only track the click:
``srsltid`` on Google results, ``utm_*`` campaign tags, click ids (``gclid``, ``fbclid``,
``msclkid``...), mailing-list ids. They change nothing a server returns, yet each costs the
model tokens in every label and makes one page look like two (to the result list, the cache
and the citations). :func:`strip_tracking` drops them, as Firefox's and Brave's query
parameter stripping does, and leaves every other byte of the URL as it was: the other
parameters in their order and spelling, the fragment, the encoding. :func:`clean_hits`
does it for a provider's results and keeps the first of any that then name the same URL.

The parameters are data (:data:`TRACKING`): a name matches case-insensitively, exactly or
by one of its prefixes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import msgspec

from .base import SearchHit

__all__ = ["TRACKING", "TrackingParams", "clean_hits", "strip_tracking"]


@dataclass(frozen=True, slots=True)
class TrackingParams:
    """Query parameter names that only track a click."""

    names: frozenset[str]
    """Whole names (lower case)."""
    prefixes: tuple[str, ...]
    """Name prefixes (lower case): every ``utm_*`` tag, say."""

    def __contains__(self, name: object) -> bool:
        key = str(name).lower()
        return key in self.names or key.startswith(self.prefixes)


_NAMES = frozenset({
    # click ids of search and ad networks
    "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "srsltid", "twclid",
    "ttclid", "li_fat_id", "epik",
    # social networks
    "fbclid", "igshid", "igsh", "mibextid",
    # mail and marketing tools
    "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "mkt_tok",
    "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv", "_openstat", "ml_subscriber",
    "ml_subscriber_hash", "rb_clickid", "s_cid", "ss_email_id", "bsft_clkid", "bsft_uid",
    "wickedid",
    # analytics
    "_ga", "_gl", "guce_referrer", "guce_referrer_sig",
})  # fmt: skip

TRACKING = TrackingParams(names=_NAMES, prefixes=("utm_",))


def strip_tracking(url: str, params: TrackingParams = TRACKING) -> str:
    """*url* without its tracking query parameters (and without ``?`` when none is left)."""
    head, mark, rest = url.partition("?")
    if not mark:
        return url
    query, hash_mark, fragment = rest.partition("#")
    kept = [part for part in query.split("&") if part.partition("=")[0] not in params]
    if len(kept) == len(query.split("&")):
        return url
    cleaned = "&".join(kept).strip("&")
    return f"{head}{'?' if cleaned else ''}{cleaned}{hash_mark}{fragment}"


def clean_hits(hits: Iterable[SearchHit], params: TrackingParams = TRACKING) -> list[SearchHit]:
    """*hits* with tracking parameters taken out of their URLs, each URL listed once (at
    its best rank)."""
    seen: set[str] = set()
    cleaned: list[SearchHit] = []
    for hit in hits:
        url = strip_tracking(hit.url, params)
        if url in seen:
            continue
        seen.add(url)
        cleaned.append(hit if url == hit.url else msgspec.structs.replace(hit, url=url))
    return cleaned
