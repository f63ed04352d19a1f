"""Address rules: our own prefix tables, CIDR parsing and WHATWG IPv4 decoding.

The block list is written out here on purpose instead of relying on
``ipaddress.is_global`` (whose answers change between Python versions). IPv4 uses a
block list; IPv6 is allowed only inside global unicast ``2000::/3``, minus the ranges
that are documentation, protocol assignments or that tunnel an IPv4 address.

For addresses that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) the
reason names the embedded address, so a refusal explains what was really targeted.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

__all__ = [
    "METADATA_ADDRESSES",
    "AddressTable",
    "IPAddress",
    "IPNetwork",
    "blocked_reason",
    "decode_ipv4_host",
    "parse_cidrs",
    "parse_ip",
]

IPAddress = IPv4Address | IPv6Address
IPNetwork = IPv4Network | IPv6Network

METADATA_ADDRESSES: tuple[IPAddress, ...] = (
    IPv4Address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack
    IPv6Address("fd00:ec2::254"),  # AWS over IPv6
    IPv4Address("100.100.100.200"),  # Alibaba Cloud
)
"""Cloud instance-metadata services: whoever reaches one reads the machine's credentials."""

_V4_BLOCKED: tuple[tuple[IPv4Network, str], ...] = tuple(
    (IPv4Network(net), label)
    for net, label in (
        ("0.0.0.0/8", "'this network'"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "carrier-grade NAT"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local, cloud metadata"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"),
        ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay anycast"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"),
        ("203.0.113.0/24", "documentation"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved, broadcast"),
    )
)

_V6_GLOBAL = IPv6Network("2000::/3")
_V6_BLOCKED_INSIDE_GLOBAL: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(net), label)
    for net, label in (
        ("2001::/23", "IETF protocol assignments"),
        ("2001:db8::/32", "documentation"),
        ("2002::/16", "6to4"),
        ("3fff::/20", "documentation"),
    )
)
# Names for well-known ranges outside 2000::/3 (all blocked); first match wins.
_V6_NAMED: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(net), label)
    for net, label in (
        ("::1/128", "loopback"),
        ("::/128", "unspecified"),
        ("::ffff:0:0/96", "IPv4-mapped"),
        ("::/96", "IPv4-compatible"),
        ("64:ff9b::/96", "NAT64"),
        ("64:ff9b:1::/48", "local NAT64"),
        ("100::/64", "discard-only"),
        ("fc00::/7", "unique local"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local"),
        ("ff00::/8", "multicast"),
    )
)
_TEREDO = IPv6Network("2001::/32")
_SIXTOFOUR = IPv6Network("2002::/16")
_NAT64 = IPv6Network("64:ff9b::/96")
_LOCAL_NAT64 = IPv6Network("64:ff9b:1::/48")  # RFC 8215; the /96 layout is the common one


def parse_ip(text: str) -> IPAddress:
    """Parse a canonical IPv4 or IPv6 address (no zone id); raise ``ValueError`` otherwise."""
    if "%" in text:
        raise ValueError(f"{text!r}: zone identifiers are not allowed")
    return ipaddress.ip_address(text)


def parse_cidrs(entries: Iterable[str]) -> list[IPNetwork]:
    """Parse CIDR strings (``"127.0.0.1/32"``, ``"fd00::/8"``); a bare address means /32 or /128.

    Raises ``ValueError`` naming the first bad entry (config validation calls this).
    Host bits must be zero (``10.0.0.1/8`` is refused: write ``10.0.0.0/8``).
    """
    networks: list[IPNetwork] = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=True))
        except ValueError as exc:
            raise ValueError(f"invalid CIDR {entry!r}: {exc}") from exc
    return networks


def _embedded_v4(addr: IPv6Address) -> tuple[str, IPv4Address] | None:
    """The IPv4 address tunnelled inside *addr*, with the mechanism's name."""
    if addr.ipv4_mapped is not None:
        return "IPv4-mapped", addr.ipv4_mapped
    if addr in _TEREDO and addr.teredo is not None:
        return "Teredo", addr.teredo[1]
    if addr in _SIXTOFOUR and addr.sixtofour is not None:
        return "6to4", addr.sixtofour
    packed = addr.packed
    if packed[:12] == bytes(12) and int(addr) > 1:
        return "IPv4-compatible", IPv4Address(packed[12:])
    if addr in _NAT64 or addr in _LOCAL_NAT64:
        return "NAT64", IPv4Address(packed[12:])
    return None


def _v4_reason(addr: IPv4Address) -> str | None:
    for net, label in _V4_BLOCKED:
        if addr in net:
            return f"{label}, {net}"
    return None


def _v6_reason(addr: IPv6Address) -> str | None:
    embedded = _embedded_v4(addr)
    if embedded is not None:
        kind, v4 = embedded
        inner = _v4_reason(v4)
        detail = f"embeds {v4}" + (f" ({inner})" if inner else "")
        return f"{kind} address that {detail}"
    if addr in _V6_GLOBAL:
        for net, label in _V6_BLOCKED_INSIDE_GLOBAL:
            if addr in net:
                return f"{label}, {net}"
        return None
    for net, label in _V6_NAMED:
        if addr in net:
            return f"{label}, {net}"
    return "outside global unicast 2000::/3"


def blocked_reason(addr: IPAddress) -> str | None:
    """Why *addr* is blocked by the prefix table (e.g. ``"loopback, 127.0.0.0/8"``), or None."""
    if isinstance(addr, IPv4Address):
        return _v4_reason(addr)
    return _v6_reason(addr)


class AddressTable:
    """The prefix table plus the manifest's ``allow_cidrs`` exceptions."""

    def __init__(self, allow_cidrs: Sequence[str] = ()) -> None:
        self.allow: tuple[IPNetwork, ...] = tuple(parse_cidrs(allow_cidrs))

    def reason(self, addr: IPAddress) -> str | None:
        """Why *addr* must not be dialled, or None when it may be (public or allow-listed)."""
        reason = blocked_reason(addr)
        if reason is None:
            return None
        if any(addr.version == net.version and addr in net for net in self.allow):
            return None
        return reason


def _ends_in_number(label: str) -> bool:
    if label.isascii() and label.isdigit():
        return True
    if label[:2].lower() == "0x":
        rest = label[2:]
        return all(c in "0123456789abcdefABCDEF" for c in rest)
    return False


def _parse_part(part: str) -> int:
    if not part:
        raise ValueError("empty part")
    if part[:2].lower() == "0x":
        digits = part[2:]
        return int(digits, 16) if digits else 0
    if not (part.isascii() and part.isdigit()):
        raise ValueError(f"{part!r} is not a number")
    if len(part) > 1 and part[0] == "0":
        return int(part, 8)
    return int(part)


def decode_ipv4_host(host: str) -> IPv4Address | None:
    """Decode *host* with the WHATWG URL IPv4 parser.

    Returns None when the host does not end in a number (it is a domain name), the address
    otherwise (``"0x7f.1"`` -> 127.0.0.1, ``"2130706433"`` -> 127.0.0.1, ``"0177.0.0.1"``
    -> 127.0.0.1). Raises ``ValueError`` when the host ends in a number but is not a valid
    IPv4 address (``"1.2.3.4.5"``, ``"example.123"``, ``"256.1.1.1"``), as browsers do.
    """
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not parts[-1] or not _ends_in_number(parts[-1]):
        return None
    if len(parts) > 4:
        raise ValueError("more than four parts")
    try:
        numbers = [_parse_part(p) for p in parts]
    except ValueError as exc:
        raise ValueError(f"not a valid IPv4 address: {exc}") from exc
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise ValueError("a part is out of range")
    value = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        value += number << (8 * (3 - index))
    return IPv4Address(value)
