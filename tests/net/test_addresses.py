"""The address table, CIDR parsing and the WHATWG IPv4 decoder."""

from __future__ import annotations

import ipaddress

import pytest

from insomnia_web.hosts.addresses import AddressTable, blocked_reason, decode_ipv4_host, parse_cidrs


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0x7f.0x0.0x0.0x1", "127.0.0.1"),
        ("0x", "0.0.0.0"),
        ("192.168.257", "192.168.1.1"),
        ("1.2.3.4.", "1.2.3.4"),
    ],
)
def test_whatwg_decoding(host: str, expected: str) -> None:
    """Numeric hosts decode the way browsers decode them."""
    assert decode_ipv4_host(host) == ipaddress.IPv4Address(expected)


@pytest.mark.parametrize("host", ["example.com", "a.b0", "0x7g.com", "xn--bcher-kva.de"])
def test_names_are_not_numbers(host: str) -> None:
    """Hosts that do not end in a number are names (None)."""
    assert decode_ipv4_host(host) is None


@pytest.mark.parametrize(
    "host", ["1.2.3.4.5", "256.0.0.1", "1.16777216", "4294967296", "09.1.1.1", "a.1"]
)
def test_invalid_numeric_hosts(host: str) -> None:
    """Hosts that end in a number but are not valid IPv4 raise ValueError."""
    with pytest.raises(ValueError):  # noqa: PT011 - the message varies by rule
        decode_ipv4_host(host)


def test_parse_cidrs() -> None:
    """CIDRs and bare addresses parse; a bad entry raises ValueError naming it."""
    assert parse_cidrs(["127.0.0.1/32", "fd00::/8", "10.0.0.1"]) == [
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("fd00::/8"),
        ipaddress.ip_network("10.0.0.1/32"),
    ]
    with pytest.raises(ValueError, match=r"'10\.0\.0\.1/8'"):
        parse_cidrs(["127.0.0.1/32", "10.0.0.1/8"])
    with pytest.raises(ValueError, match="'nonsense'"):
        parse_cidrs(["nonsense"])


@pytest.mark.parametrize(
    "addr",
    [
        "93.184.215.14",
        "8.8.8.8",
        "1.1.1.1",
        "100.63.255.255",
        "100.128.0.0",
        "172.32.0.1",
        "192.0.1.1",
        "198.20.0.1",
        "223.255.255.255",
        "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
        "2001:4860:4860::8888",
        "2a00:1450::1",
        "2001:200::1",
    ],
)
def test_public_addresses_pass(addr: str) -> None:
    """Public addresses next to the blocked ranges are not blocked."""
    assert blocked_reason(ipaddress.ip_address(addr)) is None


@pytest.mark.parametrize(
    ("addr", "label"),
    [
        ("0.1.2.3", "this network"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("172.20.0.1", "private"),
        ("192.0.0.170", "IETF"),
        ("198.18.5.5", "benchmarking"),
        ("255.255.255.255", "reserved"),
        ("::1", "loopback"),
        ("fe80::1", "link-local"),
        ("ff02::1", "multicast"),
        ("2001:db8::1", "documentation"),
        ("3fff::1", "documentation"),
        ("4000::1", "outside global"),
    ],
)
def test_blocked_reasons_name_the_range(addr: str, label: str) -> None:
    """Each blocked range gives a reason naming it."""
    reason = blocked_reason(ipaddress.ip_address(addr))
    assert reason is not None
    assert label in reason


def test_teredo_names_the_client_address() -> None:
    """A Teredo address names its embedded client IPv4."""
    reason = blocked_reason(ipaddress.ip_address("2001:0:4136:e378:8000:63bf:3fff:fdd2"))
    assert reason is not None
    assert "Teredo" in reason
    assert "192.0.2.45" in reason


def test_allow_cidrs_only_for_same_family() -> None:
    """An IPv4 exception does not open the IPv4-mapped IPv6 form of the same address."""
    table = AddressTable(["127.0.0.1/32"])
    assert table.reason(ipaddress.ip_address("127.0.0.1")) is None
    assert table.reason(ipaddress.ip_address("::ffff:127.0.0.1")) is not None


def test_local_nat64_names_the_embedded_address() -> None:
    """A local-use NAT64 address (64:ff9b:1::/48) names the IPv4 in its last 32 bits."""
    reason = blocked_reason(ipaddress.ip_address("64:ff9b:1::a9fe:a9fe"))
    assert reason is not None
    assert "169.254.169.254" in reason
