"""Which search results WebSearch may show: domain filters, URL policy and deny rules.

All checks are pure (no DNS): result URLs are data until something fetches them, and any
fetch goes through the full policy again. A result is dropped when

- its URL fails the static URL policy (scheme, credentials, port, local names, blocked IP
  literals, ``deny_hosts``), or a ``deny`` permission rule refuses WebFetch on its host:
  these are counted in ``refused`` (the output's ``filtered``);
- its host is outside ``allowed_domains`` or inside ``blocked_domains`` (the host equals
  the domain or is a subdomain of it): these are what the caller asked for, not counted.

A kept result whose host is written otherwise than the host it names (Cyrillic letters,
full-width dots), or whose URL holds an invisible character (bidi, zero-width, control),
is shown as the policy parsed it (:func:`shown_url`).

A stored answer goes through :func:`recheck_output` before it is shown, and saved findings
through :func:`filter_findings`, so rules added since the answer was stored apply to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import msgspec
from yarl import URL

from ..errors import ToolError
from ..hosts.names import idna_host
from ..net.urlpolicy import UrlPolicy
from ..schemas import FindingItem, PageStatus, WebSearchOutput
from ..search.base import SearchHit

__all__ = [
    "FilterOutcome",
    "PermissionLookup",
    "filter_findings",
    "filter_hits",
    "host_in",
    "normalize_domain",
    "recheck_output",
    "shown_url",
]

PermissionLookup = Callable[[str], str]
"""host -> ``"allow"``, ``"ask"`` or ``"deny"`` (the WebFetch verdict for that host)."""


@dataclass(frozen=True, slots=True)
class FilterOutcome:
    """The results kept, in order, and how many were dropped for which reason."""

    hits: list[SearchHit]
    refused: int = 0
    """Dropped by the URL policy or a deny rule."""
    outside_domains: int = 0
    """Dropped by ``allowed_domains`` / ``blocked_domains``."""


def normalize_domain(domain: str) -> str:
    """A domain filter as a bare IDNA host: ``*.Example.COM.`` -> ``example.com``."""
    return idna_host(domain.strip().removeprefix("*."))


def host_in(host: str, domains: Iterable[str]) -> bool:
    """True if *host* equals one of the (normalised) *domains* or is a subdomain of one."""
    return any(host == d or host.endswith("." + d) for d in domains)


def filter_hits(
    hits: Iterable[SearchHit],
    *,
    policy: UrlPolicy,
    allowed_domains: Iterable[str] = (),
    blocked_domains: Iterable[str] = (),
    permission: PermissionLookup | None = None,
) -> FilterOutcome:
    """Keep the hits WebSearch may show (see the module docstring)."""
    allowed = [normalize_domain(d) for d in allowed_domains]
    blocked = [normalize_domain(d) for d in blocked_domains]
    verdicts: dict[str, str] = {}
    kept: list[SearchHit] = []
    refused = outside = 0
    shown: set[str] = set()
    for hit in hits:
        try:
            target = policy.check(hit.url)
        except ToolError:
            refused += 1
            continue
        host = target.host
        if (allowed and not host_in(host, allowed)) or host_in(host, blocked):
            outside += 1
            continue
        if permission is not None:
            if host not in verdicts:
                verdicts[host] = permission(host)
            if verdicts[host] == "deny":
                refused += 1
                continue
        url = shown_url(hit.url, target.url)
        if url not in shown:
            shown.add(url)
            kept.append(hit if url == hit.url else msgspec.structs.replace(hit, url=url))
    return FilterOutcome(hits=kept, refused=refused, outside_domains=outside)


def shown_url(written: str, parsed: URL) -> str:
    """The URL to show for *written*, which the URL policy parsed as *parsed*: as written,
    unless its host is written otherwise than the host contacted (look-alike letters or
    dots, upper case, Unicode), which the model would read as another site, or it holds a
    character that is not printable (a control, bidi or zero-width character, which can
    reorder or hide the text around it): then as parsed, the form WebFetch requests and a
    permission question shows, where such characters are percent-encoded."""
    if not written.isprintable():
        return str(parsed)
    try:
        same = URL(written, encoded=True).raw_host == parsed.raw_host
    except (ValueError, TypeError, UnicodeError):
        same = False
    return written if same else str(parsed)


class _Verdicts:
    """The WebFetch verdict per URL under the current policy and rules, memoised by host."""

    def __init__(self, policy: UrlPolicy, permission: PermissionLookup) -> None:
        self.policy = policy
        self.permission = permission
        self.by_host: dict[str, str] = {}

    def __call__(self, url: str) -> str:
        """``allow``, ``ask`` or ``deny`` (a URL the policy refuses is ``deny``)."""
        try:
            host = self.policy.check(url).host
        except ToolError:
            return "deny"
        if host not in self.by_host:
            self.by_host[host] = self.permission(host)
        return self.by_host[host]


def recheck_output(
    output: WebSearchOutput, *, policy: UrlPolicy, permission: PermissionLookup
) -> WebSearchOutput:
    """A stored answer as the current URL policy and rules allow it to be shown.

    Rules may have changed since the answer was stored: a result whose URL the policy now
    refuses, or whose host a deny rule now covers, is dropped (and counted in ``filtered``);
    an excerpt is kept only if its page may still be read without asking (a page that was
    read but is now on an ``ask`` host keeps its result and snippet, not its passages); the
    pages' statuses say what would happen now. A page read after a redirect to another host
    keeps its passages only while that host may be read without asking, as a fresh search
    would follow the redirect only then; otherwise it is ``redirect_blocked``.
    """
    verdict = _Verdicts(policy, permission)
    results = [r for r in output.results if verdict(r.url) != "deny"]
    read = {p.url for p in output.pages if p.status == "ok"}
    hop_refused = {
        p.url for p in output.pages if p.status == "ok" and p.moved and verdict(p.moved) != "allow"
    }
    excerpts = [
        e
        for e in output.excerpts
        if e.url not in hop_refused
        and (verdict(e.url) == "allow" or (verdict(e.url) == "ask" and e.url not in read))
    ]
    pages = [_page_now(p, verdict(p.url), hop_refused=p.url in hop_refused) for p in output.pages]
    dropped = len(output.results) - len(results)
    if not dropped and excerpts == output.excerpts and pages == output.pages:
        return output
    return msgspec.structs.replace(
        output,
        results=results,
        excerpts=excerpts,
        pages=pages,
        filtered=output.filtered + dropped,
    )


def _page_now(page: PageStatus, verdict: str, *, hop_refused: bool = False) -> PageStatus:
    """*page* as a search now would report it; *hop_refused*: its redirect is refused now."""
    if verdict == "allow" and not hop_refused:
        return page
    if verdict == "allow":
        code = "redirect_blocked"
    else:
        code = "permission_denied" if verdict == "deny" else "permission_required"
    return PageStatus(url=page.url, status="skipped", error_code=code)


def filter_findings(
    findings: Iterable[FindingItem], *, policy: UrlPolicy, permission: PermissionLookup
) -> list[FindingItem]:
    """The findings that may be shown: none whose source the policy or a deny rule refuses."""
    verdict = _Verdicts(policy, permission)
    return [f for f in findings if f.source_url is None or verdict(f.source_url) != "deny"]
