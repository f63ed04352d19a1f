"""Resolvers: the static table and aiodns against a DNS server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import ipaddress
import struct
from collections.abc import AsyncIterator
from typing import cast

import pytest
import pytest_asyncio

from insomnia_web.errors import ToolError, ToolTimeout
from insomnia_web.net import AiodnsResolver, StaticResolver
from insomnia_web.net.resolver import Resolver

A, AAAA = 1, 28


class FakeDns(asyncio.DatagramProtocol):
    """A tiny authoritative DNS server: answers A/AAAA from a table, NXDOMAIN otherwise."""

    def __init__(self, records: dict[str, list[str]], *, silent: bool = False) -> None:
        self.records = records
        self.silent = silent
        self.questions: list[tuple[str, int]] = []
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        ident = data[:2]
        labels, pos = [], 12
        while data[pos]:
            length = data[pos]
            labels.append(data[pos + 1 : pos + 1 + length].decode())
            pos += 1 + length
        qtype = struct.unpack("!H", data[pos + 1 : pos + 3])[0]
        question = data[12 : pos + 5]
        name = ".".join(labels).lower()
        self.questions.append((name, qtype))
        if self.silent:
            return
        answers = [
            ipaddress.ip_address(a).packed
            for a in self.records.get(name, [])
            if (ipaddress.ip_address(a).version == 4) == (qtype == A)
        ]
        rcode = 0 if name in self.records else 3
        header = ident + struct.pack("!HHHHH", 0x8400 | rcode, 1, len(answers), 0, 0)
        body = b"".join(
            struct.pack("!HHHIH", 0xC00C, qtype, 1, 60, len(rdata)) + rdata for rdata in answers
        )
        assert self.transport is not None
        self.transport.sendto(header + question + body, addr)


@pytest_asyncio.fixture
async def dns_server() -> AsyncIterator[tuple[FakeDns, int]]:
    """A fake DNS server on 127.0.0.1 (UDP); yields (server, port)."""
    loop = asyncio.get_running_loop()
    protocol = FakeDns(
        {
            "example.test": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
            "v4only.test": ["1.1.1.1"],
            "empty.test": [],
        }
    )
    transport, _ = await loop.create_datagram_endpoint(
        lambda: protocol, local_addr=("127.0.0.1", 0)
    )
    port = transport.get_extra_info("sockname")[1]
    yield protocol, port
    transport.close()


@pytest.mark.asyncio
async def test_aiodns_resolves_a_and_aaaa_in_fqdn_form(dns_server: tuple[FakeDns, int]) -> None:
    """aiodns asks A and AAAA for the FQDN and returns both families."""
    server, port = dns_server
    async with AiodnsResolver(timeout_s=2, nameservers=["127.0.0.1"], port=port) as resolver:
        answers = await resolver.resolve("Example.Test")
    assert sorted(answers) == ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.215.14"]
    assert sorted(server.questions) == [("example.test", A), ("example.test", AAAA)]


@pytest.mark.asyncio
async def test_aiodns_partial_answers(dns_server: tuple[FakeDns, int]) -> None:
    """A host with only A records resolves to its IPv4 addresses."""
    _, port = dns_server
    async with AiodnsResolver(timeout_s=2, nameservers=["127.0.0.1"], port=port) as resolver:
        assert await resolver.resolve("v4only.test") == ["1.1.1.1"]


@pytest.mark.asyncio
@pytest.mark.parametrize("host", ["missing.test", "empty.test"])
async def test_aiodns_nxdomain_and_no_records(dns_server: tuple[FakeDns, int], host: str) -> None:
    """NXDOMAIN and a name without address records are dns_failure."""
    _, port = dns_server
    async with AiodnsResolver(timeout_s=2, nameservers=["127.0.0.1"], port=port) as resolver:
        with pytest.raises(ToolError) as info:
            await resolver.resolve(host)
    assert info.value.code == "dns_failure"


@pytest.mark.asyncio
async def test_aiodns_timeout(dns_server: tuple[FakeDns, int]) -> None:
    """A DNS server that never answers yields ToolTimeout(phase="dns") within the timeout."""
    server, port = dns_server
    server.silent = True
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with AiodnsResolver(timeout_s=0.3, nameservers=["127.0.0.1"], port=port) as resolver:
        with pytest.raises(ToolTimeout) as info:
            await resolver.resolve("example.test")
    assert info.value.phase == "dns"
    assert loop.time() - started < 0.3 * 3


def test_aiodns_is_lazy() -> None:
    """Constructing the aiodns resolver creates no channel (no event loop needed)."""
    resolver = AiodnsResolver()
    assert resolver._dns is None


@pytest.mark.asyncio
async def test_static_resolver_table_and_nxdomain() -> None:
    """The static table matches names case-insensitively; a missing host is NXDOMAIN."""
    resolver = StaticResolver({"Site.Test.": ["127.0.0.1"], "none.test": []})
    assert await resolver.resolve("site.test") == ["127.0.0.1"]
    assert await resolver.resolve("SITE.TEST.") == ["127.0.0.1"]
    for host in ("other.test", "none.test"):
        with pytest.raises(ToolError) as info:
            await resolver.resolve(host)
        assert info.value.code == "dns_failure"


class Recording(Resolver):
    """A fallback that records the names it is asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.closed = False

    async def resolve(self, host: str) -> list[str]:
        self.asked.append(host)
        return ["8.8.8.8"]

    async def aclose(self) -> None:
        self.closed = True


@pytest.mark.asyncio
async def test_static_resolver_overrides_only_named_hosts() -> None:
    """Overrides answer their hosts; other hosts go to the fallback, which aclose closes."""
    fallback = Recording()
    async with StaticResolver({"a.test": ["1.1.1.1"]}, fallback=fallback) as resolver:
        assert await resolver.resolve("a.test") == ["1.1.1.1"]
        assert await resolver.resolve("b.test") == ["8.8.8.8"]
    assert fallback.asked == ["b.test"]
    assert fallback.closed


@pytest.mark.asyncio
async def test_static_resolver_matches_idna_names() -> None:
    """A Unicode table key answers for the IDNA form the client resolves."""
    resolver = StaticResolver({"Bücher.example": ["1.1.1.1"]})
    assert await resolver.resolve("xn--bcher-kva.example") == ["1.1.1.1"]
    assert await resolver.resolve("bücher.example") == ["1.1.1.1"]


@pytest.mark.asyncio
async def test_policy_resolver_merges_manifest_table_and_overrides() -> None:
    """The manifest's resolve table applies, overrides win per host, aiodns is the fallback."""
    from insomnia_web.config import UrlPolicyConfig
    from insomnia_web.net.resolver import policy_resolver, with_overrides

    config = UrlPolicyConfig(resolve={"a.test": ["1.1.1.1"], "b.test": ["2.2.2.2"]})
    async with policy_resolver(with_overrides(config, {"B.test": ["3.3.3.3"]})) as resolver:
        assert isinstance(resolver, StaticResolver)
        assert await resolver.resolve("a.test") == ["1.1.1.1"]
        assert await resolver.resolve("b.test") == ["3.3.3.3"]
        assert isinstance(resolver.fallback, AiodnsResolver)
    async with policy_resolver(UrlPolicyConfig()) as plain:
        assert isinstance(plain, AiodnsResolver)
