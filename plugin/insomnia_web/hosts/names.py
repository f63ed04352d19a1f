"""Host name rules: syntax, special-use local names and manifest host patterns.

Host names here are already IDNA-encoded (``xn--...``), lower-case, without the trailing
dot of an FQDN: exactly the name that is resolved and sent in the ``Host`` header.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from yarl import URL

__all__ = [
    "HostPatterns",
    "idna_host",
    "idna_problem",
    "local_name_rule",
    "normalize_host",
    "pattern_problem",
    "syntax_problem",
]

# Suffixes of names that only mean something on a local network (or Tor).
_LOCAL_SUFFIXES = ("localhost", "local", "internal", "localdomain", "home.arpa", "onion")
_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$")


def normalize_host(host: str) -> str:
    """Lower-case *host* and drop one trailing FQDN dot."""
    host = host.lower()
    return host[:-1] if host.endswith(".") else host


def syntax_problem(host: str) -> str | None:
    """What is wrong with the (normalised) host name's syntax, or None if it is well formed."""
    if not host:
        return "the host is empty"
    if len(host) > 253:
        return "the host name is longer than 253 characters"
    for label in host.split("."):
        if not label:
            return f"host {host!r} has an empty label"
        if not _LABEL.match(label):
            return f"host {host!r} has an invalid label {label!r}"
    return idna_problem(host)


def idna_problem(host: str) -> str | None:
    """Why an ``xn--`` label of *host* is not valid IDNA (it cannot be decoded), or None.

    Such a name has no Unicode form, so no rule written for a Unicode or ASCII name could be
    said to match it or not: it is refused rather than guessed at.
    """
    for label in host.split("."):
        if label[:4].lower() != "xn--":
            continue
        try:
            URL.build(scheme="http", host=label.lower(), encoded=True).host  # noqa: B018
        except (ValueError, UnicodeError):
            return f"host {host!r} has a label {label!r} that is not valid IDNA (punycode)"
    return None


def local_name_rule(host: str) -> str | None:
    """The special-use rule *host* falls under (``"*.local"``, ``"dotless name"``...), or None."""
    for suffix in _LOCAL_SUFFIXES:
        if host == suffix:
            return suffix
        if host.endswith("." + suffix):
            return f"*.{suffix}"
    if "." not in host:
        return "dotless name"
    return None


def idna_host(name: str) -> str:
    """*name* as it is resolved: IDNA-encoded (``xn--``), lower-case, no trailing dot.

    Names that cannot be encoded are returned normalised but otherwise unchanged.
    """
    name = normalize_host(name.strip())
    if name.isascii():
        return name
    try:
        encoded = URL.build(scheme="http", host=name).raw_host
    except (ValueError, UnicodeError):
        return name
    return normalize_host(encoded or name)


def pattern_problem(pattern: str) -> str | None:
    """What is wrong with a manifest host pattern (``example.com``, ``*.example.com``, ``*``
    or an IP address), or None if it is well formed."""
    text = pattern.strip()
    if text == "*":
        return None
    name = idna_host(text.removeprefix("*."))
    if _is_ip(name):
        return None
    if syntax_problem(name) is None and "*" not in name:
        return None
    return (
        f"{pattern!r} is not a host pattern: use example.com, *.example.com, * or an "
        "IP address (no scheme, port, path or spaces)"
    )


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _exact_key(text: str) -> str:
    """An exact pattern as the URL policy writes hosts: IDNA, or an address's canonical text
    (``2606:4700:0:0:0:0:0:1111`` is ``2606:4700::1111``, the host such a URL has)."""
    name = idna_host(text)
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name


class HostPatterns:
    """Manifest host patterns: ``"example.com"`` matches that host only, ``"*.example.com"``
    matches its subdomains (not ``example.com`` itself) and ``"*"`` matches any host; an
    address matches however it is written."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.suffixes: list[str] = []
        self.any = False
        for pattern in patterns:
            text = pattern.strip()
            if text == "*":
                self.any = True
            elif text.startswith("*."):
                self.suffixes.append("." + idna_host(text[2:]))
            elif text:
                self.exact.add(_exact_key(text))

    def match(self, host: str) -> str | None:
        """The pattern that matches *host* (normalised), or None."""
        if self.any:
            return "*"
        if host in self.exact:
            return host
        for suffix in self.suffixes:
            if host.endswith(suffix):
                return "*" + suffix
        return None
