"""The URL policy: pure checks of a URL and of the addresses its host resolves to.

No I/O happens here. :meth:`UrlPolicy.check` parses the URL once with yarl and returns a
:class:`Target` holding that same ``URL`` object: the object that was checked is the object
that is requested. :meth:`UrlPolicy.vet_addresses` then checks every DNS answer.

Decisions, in order (each refusal is a :class:`~insomnia_web.errors.ToolError` whose
message names the rule):

1. ``invalid_url``: longer than 2048 characters, control characters or whitespace, not an
   absolute URL, a port that is not ASCII digits, a malformed host (an ``xn--`` label that
   is not valid punycode included).
2. ``scheme_not_allowed``: the scheme is not in ``schemes`` (only http and https ever).
3. ``credentials_in_url``: a ``user:password@`` part (even an empty one).
4. ``port_not_allowed``: the explicit or default port is not in ``ports``.
5. ``blocked_hostname``: ``deny_hosts``; then, unless ``allow_hosts`` matches, the local
   names (``localhost``, ``*.local``, ``*.internal``... and dotless names).
6. ``blocked_address``: an IP literal (or later a DNS answer) in the prefix table, unless it
   is inside ``allow_cidrs`` or the host matches ``allow_hosts``.

Before any rule, the text is cleaned as the WHATWG URL Standard (what a browser fetches)
does: leading and trailing C0 controls and spaces are stripped, and tab, CR and LF are
removed anywhere (:func:`clean_url_text`). What remains must have no control or whitespace
character.

Numeric hosts are decoded with the WHATWG IPv4 rules a browser uses. Only the canonical
dotted-quad form is accepted. A non-canonical form (``2130706433``, ``0x7f.1``, ``127.1``,
``0177.0.0.1``) is always refused: with ``blocked_address`` when the decoded address is
blocked (the reason names it: ``0x7f.1 decodes to 127.0.0.1 (loopback, 127.0.0.0/8)``),
otherwise with ``invalid_url`` naming the canonical form to use instead.

A *trusted origin* (a search provider endpoint the user configured) skips rules 4-6 for
that exact URL; rules 1-3 still apply.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass

from yarl import URL

from ..config import UrlPolicyConfig
from ..errors import ToolError
from ..hosts.addresses import (
    METADATA_ADDRESSES,
    AddressTable,
    IPAddress,
    decode_ipv4_host,
    parse_ip,
)
from ..hosts.names import HostPatterns, local_name_rule, normalize_host, syntax_problem

__all__ = [
    "MAX_URL_LENGTH",
    "POLICY_CODES",
    "Target",
    "UrlPolicy",
    "check_characters",
    "clean_url_text",
]

MAX_URL_LENGTH = 2048
_ALWAYS_ALLOWED_SCHEMES = frozenset({"http", "https"})
POLICY_CODES = frozenset(
    {
        "invalid_url",
        "scheme_not_allowed",
        "credentials_in_url",
        "port_not_allowed",
        "blocked_hostname",
        "blocked_address",
    }
)
"""The codes of a policy refusal (a redirect to such a URL is ``redirect_blocked``)."""


_ONLY_IF = "Only for a trusted server: "
"""How a remedy that lifts a refusal of a local address, name or port begins."""


def _allow_address(addr: IPAddress, reason: str) -> str | None:
    """The remedy for a refused *addr*: its own ``allow_cidrs`` entry; none for a cloud
    metadata address, or one that embeds it, which no remedy should open."""
    if addr in METADATA_ADDRESSES or "metadata" in reason:
        return None
    entry = f"{addr}/{addr.max_prefixlen}"
    return f'{_ONLY_IF}add "{entry}" to web.url_policy.allow_cidrs in the manifest.'


@dataclass(frozen=True, slots=True)
class Target:
    """A URL that passed the static checks.

    ``url`` is the parsed object to request; ``host`` the normalised (IDNA, lower-case, no
    trailing dot) host; ``ip`` the address when the host is an IP literal; ``exempt`` is
    True when the address table does not apply (``allow_hosts`` match or trusted origin).
    """

    url: URL
    host: str
    ip: str | None
    exempt: bool


def check_characters(text: str) -> None:
    """Refuse (``invalid_url``) any control or whitespace character in *text*."""
    for index, char in enumerate(text):
        if ord(char) < 0x20 or ord(char) == 0x7F or char.isspace():
            raise ToolError(
                "invalid_url",
                f"the URL contains a control or whitespace character {char!r} at position {index}",
                hint="Percent-encode spaces (%20) and remove control characters.",
            )


_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = str.maketrans("", "", "\t\n\r")


def clean_url_text(text: str) -> str:
    """*text* as the WHATWG URL parser sees it: leading and trailing C0 controls and spaces
    stripped, every tab, CR and LF removed."""
    return text.strip(_C0_OR_SPACE).translate(_TAB_OR_NEWLINE)


def _port_text(authority: str) -> str | None:
    """The port of an authority as written (``"+443"`` in ``host:+443``), or None."""
    hostport = authority.rpartition("@")[2]
    if hostport.startswith("["):
        _, bracket, rest = hostport.partition("]")
        return rest[1:] if bracket and rest.startswith(":") else None
    _, colon, port = hostport.rpartition(":")
    return port if colon else None


def _authority(text: str) -> str:
    """The authority part of an absolute URL string, as written (before any normalising)."""
    _, sep, rest = text.partition("//")
    if not sep:
        return ""
    end = len(rest)
    for delimiter in "/?#":
        index = rest.find(delimiter)
        if index != -1:
            end = min(end, index)
    return rest[:end]


class UrlPolicy:
    """The manifest's ``[web.url_policy]`` compiled once for fast, repeated checks."""

    def __init__(self, config: UrlPolicyConfig | None = None) -> None:
        self.config = config if config is not None else UrlPolicyConfig()
        self.schemes = frozenset(s.lower() for s in self.config.schemes) & _ALWAYS_ALLOWED_SCHEMES
        self.ports = frozenset(self.config.ports)
        self.table = AddressTable(self.config.allow_cidrs)
        self.allow_hosts = HostPatterns(self.config.allow_hosts)
        self.deny_hosts = HostPatterns(self.config.deny_hosts)

    def parse(self, raw: str | URL) -> URL:
        """Parse *raw* once (rule 1): length, characters, absolute http(s)-shaped URL."""
        text = str(raw) if isinstance(raw, URL) else clean_url_text(raw)
        if len(text) > MAX_URL_LENGTH:
            raise ToolError(
                "invalid_url",
                f"the URL is {len(text)} characters long; the limit is {MAX_URL_LENGTH}",
            )
        check_characters(text)
        if isinstance(raw, URL):
            url = raw
        else:
            try:
                url = URL(text, encoded=False)
            except (ValueError, TypeError, UnicodeError) as exc:
                raise ToolError("invalid_url", f"the URL cannot be parsed: {exc}") from exc
        if not url.scheme:
            raise ToolError("invalid_url", "the URL is not absolute (it has no scheme)")
        port = _port_text(_authority(text))
        if port and not (port.isascii() and port.isdigit()):
            raise ToolError(
                "invalid_url",
                f"the port {port[:20]!r} is not a number (a port is ASCII digits only)",
                hint="Write the port as digits (example.com:8080), or leave it out.",
            )
        return url

    def check(self, raw: str | URL, *, trusted: bool = False) -> Target:  # noqa: C901
        """Run the static rules on *raw* and return the checked :class:`Target`.

        ``trusted=True`` marks a configured provider origin: port, host-name and address
        rules are skipped for it (see the module docstring).
        """
        url = self.parse(raw)
        scheme = url.scheme.lower()
        if scheme not in self.schemes:
            allowed = ", ".join(sorted(self.schemes))
            raise ToolError(
                "scheme_not_allowed", f"scheme {scheme!r} is not allowed (allowed: {allowed})"
            )
        written = str(raw) if isinstance(raw, URL) else clean_url_text(raw)
        if "@" in url.raw_authority or "@" in _authority(written) or url.raw_user is not None:
            raise ToolError("credentials_in_url", "the URL contains a user:password@ part")
        raw_host = url.raw_host
        if not raw_host:
            raise ToolError("invalid_url", "the URL has no host")
        port = url.port
        if port is None:
            raise ToolError("invalid_url", "the URL has no port and no default port")
        if not trusted and port not in self.ports:
            allowed = ", ".join(str(p) for p in sorted(self.ports))
            raise ToolError(
                "port_not_allowed",
                f"port {port} is not allowed (allowed: {allowed})",
                remedy=f"{_ONLY_IF}add {port} to web.url_policy.ports in the manifest.",
            )
        if ":" in raw_host:
            return self._check_ipv6(url, raw_host, trusted=trusted)
        host = normalize_host(raw_host)
        try:
            decoded = decode_ipv4_host(raw_host)
        except ValueError as exc:
            raise ToolError("invalid_url", f"host {raw_host!r}: {exc}") from exc
        if decoded is not None:
            return self._check_ipv4(url, raw_host, decoded, trusted=trusted)
        problem = syntax_problem(host)
        if problem:
            raise ToolError("invalid_url", problem)
        if trusted:
            return Target(url=url, host=host, ip=None, exempt=True)
        self._check_host_patterns(host)
        exempt = self.allow_hosts.match(host) is not None
        if not exempt:
            rule = local_name_rule(host)
            if rule is not None:
                raise ToolError(
                    "blocked_hostname",
                    f"host {host!r} is a local or special-use name (rule: {rule})",
                    remedy=f'{_ONLY_IF}add "{host}" to web.url_policy.allow_hosts in the manifest.',
                )
        return Target(url=url, host=host, ip=None, exempt=exempt)

    def _check_host_patterns(self, host: str) -> None:
        pattern = self.deny_hosts.match(host)
        if pattern is not None:
            raise ToolError(
                "blocked_hostname", f"host {host!r} is denied by deny_hosts pattern {pattern!r}"
            )

    def _check_ipv4(self, url: URL, raw_host: str, addr: IPAddress, *, trusted: bool) -> Target:
        canonical = str(addr)
        if raw_host != canonical:
            reason = self.table.reason(addr)
            if reason is not None:
                raise ToolError(
                    "blocked_address",
                    f"{raw_host} decodes to {canonical} ({reason}); non-canonical IPv4 forms "
                    "are refused",
                )
            raise ToolError(
                "invalid_url",
                f"{raw_host} is a non-canonical IPv4 form of {canonical}; write {canonical}",
                hint=f"Use the canonical address {canonical} in the URL.",
            )
        return self._check_ip(url, canonical, addr, trusted=trusted)

    def _check_ipv6(self, url: URL, raw_host: str, *, trusted: bool) -> Target:
        try:
            addr = parse_ip(raw_host)
        except ValueError as exc:
            raise ToolError(
                "invalid_url", f"host [{raw_host}] is not a valid IPv6 address"
            ) from exc
        return self._check_ip(url, str(addr), addr, trusted=trusted)

    def _check_ip(self, url: URL, text: str, addr: IPAddress, *, trusted: bool) -> Target:
        if trusted:
            return Target(url=url, host=text, ip=text, exempt=True)
        self._check_host_patterns(text)
        exempt = self.allow_hosts.match(text) is not None
        if not exempt:
            reason = self.table.reason(addr)
            if reason is not None:
                raise ToolError(
                    "blocked_address",
                    f"address {text} is blocked ({reason})",
                    remedy=_allow_address(addr, reason),
                )
        return Target(url=url, host=text, ip=text, exempt=exempt)

    def vet_addresses(self, target: Target, answers: Sequence[str]) -> list[str]:
        """Check every DNS answer for *target*; return them normalised and de-duplicated.

        One blocked answer refuses the whole host (``blocked_address`` naming it); no
        usable answer is ``dns_failure``.
        """
        vetted: list[str] = []
        for answer in answers:
            try:
                addr = ipaddress.ip_address(answer)
            except ValueError as exc:
                raise ToolError(
                    "dns_failure",
                    f"{target.host}: the resolver returned {answer!r}, not an address",
                ) from exc
            if not target.exempt:
                reason = self.table.reason(addr)
                if reason is not None:
                    raise ToolError(
                        "blocked_address",
                        f"{target.host} resolves to {addr}, which is blocked ({reason})",
                        remedy=_allow_address(addr, reason),
                        details={"address": str(addr)},
                    )
            text = str(addr)
            if text not in vetted:
                vetted.append(text)
        if not vetted:
            raise ToolError("dns_failure", f"{target.host}: no A or AAAA records")
        return vetted
