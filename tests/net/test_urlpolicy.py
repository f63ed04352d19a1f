"""The URL policy, through check_url: every refusal has its code and names its rule."""

from __future__ import annotations

import pytest

from insomnia_web.config import Manifest, UrlPolicyConfig, WebConfig
from insomnia_web.errors import ToolError
from insomnia_web.net import check_url
from insomnia_web.net.urlpolicy import UrlPolicy

NO_DNS: dict[str, list[str]] = {}

LOOPBACK_FORMS = [
    "http://127.0.0.1/",
    "http://127.0.0.2:8080/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://0x7F.0.0.1/",
    "http://0177.0.0.1/",
    "http://0177.1/",
    "http://127.1/",
    "http://127.0.1/",
    "http://127.0.0.1./",
    "http://017700000001/",
    "http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://[2002:7f00:1::]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::]/",
]

PRIVATE_FORMS = [
    "http://10.0.0.1/",
    "http://167772161/",
    "http://012.0.0.1/",
    "http://0xa.0.0.1/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://3232235777/",
    "http://100.64.0.1/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:192.168.0.1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[2002:c0a8:101::1]/",
]

LINK_LOCAL_AND_METADATA = [
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.1.1/",
    "http://2852039166/",
    "http://0xa9fea9fe/",
    "http://0xa9.0xfe.0xa9.0xfe/",
    "http://0251.0376.0251.0376/",
    "http://169.254.43518/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://[2001:0:4136:e378:8000:63bf:5601:5601]/",
    "http://[fe80::1]/",
    "http://[fd00:ec2::254]/",
]

OTHER_RESERVED = [
    "http://192.0.0.8/",
    "http://192.0.2.1/",
    "http://192.88.99.1/",
    "http://198.18.0.1/",
    "http://198.19.255.1/",
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://224.0.0.1/",
    "http://239.255.255.250/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://[ff02::1]/",
    "http://[2001:db8::1]/",
    "http://[3fff::1]/",
    "http://[2001:10::1]/",
    "http://[100::1]/",
    "http://[fec0::1]/",
    "http://[1000::1]/",
]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "url", LOOPBACK_FORMS + PRIVATE_FORMS + LINK_LOCAL_AND_METADATA + OTHER_RESERVED
)
async def test_blocked_address_forms(url: str) -> None:
    """Each form of a loopback, private, link-local, metadata or reserved address is blocked."""
    verdict = await check_url(url, resolve=NO_DNS)
    assert not verdict.allowed
    assert verdict.code == "blocked_address", verdict.reason
    assert verdict.addresses == []


@pytest.mark.asyncio
async def test_hex_form_names_the_decoded_address() -> None:
    """A non-canonical numeric host is refused with the address it decodes to."""
    verdict = await check_url("http://0x7f.1/")
    assert verdict.code == "blocked_address"
    assert "0x7f.1 decodes to 127.0.0.1" in verdict.reason
    assert "loopback" in verdict.reason


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("url", "embedded"),
    [
        ("http://[::ffff:127.0.0.1]/", "127.0.0.1"),
        ("http://[64:ff9b::a9fe:a9fe]/", "169.254.169.254"),
        ("http://[2002:a00:1::]/", "10.0.0.1"),
        ("http://[::10.1.2.3]/", "10.1.2.3"),
    ],
)
async def test_embedded_ipv4_is_named(url: str, embedded: str) -> None:
    """Mapped, NAT64, 6to4 and compatible IPv6 addresses are blocked naming the embedded IPv4."""
    verdict = await check_url(url, resolve=NO_DNS)
    assert verdict.code == "blocked_address"
    assert embedded in verdict.reason


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "url",
    [
        "http://93.184.215.14/",
        "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/",
        "http://8.8.8.8:8080/x",
        "https://1.1.1.1/",
        "http://[2a00:1450:4001:82a::200e]/",
    ],
)
async def test_public_addresses_are_allowed(url: str) -> None:
    """Public IPv4 and IPv6 literals are allowed, with the literal as the address to dial."""
    verdict = await check_url(url, resolve=NO_DNS)
    assert verdict.allowed, verdict.reason
    assert verdict.code is None
    assert len(verdict.addresses) == 1


@pytest.mark.asyncio
async def test_public_name_is_allowed_with_its_addresses() -> None:
    """A name resolving to public addresses is allowed and lists exactly those addresses."""
    verdict = await check_url("https://example.com/", resolve={"example.com": ["93.184.215.14"]})
    assert verdict.allowed
    assert verdict.addresses == ["93.184.215.14"]
    both = await check_url(
        "https://example.com/",
        resolve={"example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]},
    )
    assert both.addresses == ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "answers",
    [
        ["93.184.215.14", "10.0.0.1"],
        ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::1"],
        ["93.184.215.14", "169.254.169.254"],
        ["93.184.215.14", "::ffff:127.0.0.1"],
    ],
)
async def test_one_blocked_answer_blocks_the_host(answers: list[str]) -> None:
    """A host with a mix of public and private answers is blocked, naming the private one."""
    verdict = await check_url("https://mixed.example/", resolve={"mixed.example": answers})
    assert verdict.code == "blocked_address"
    assert "mixed.example resolves to" in verdict.reason
    assert not verdict.allowed


@pytest.mark.asyncio
async def test_missing_host_in_resolve_is_nxdomain() -> None:
    """With resolve given, a host missing from it fails as dns_failure (DNS is replaced)."""
    verdict = await check_url("https://elsewhere.example/", resolve={"example.com": ["1.1.1.1"]})
    assert verdict.code == "dns_failure"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("http://localhost/", "localhost"),
        ("http://LOCALHOST./", "localhost"),
        ("http://app.localhost/", "*.localhost"),
        ("http://printer.local/", "*.local"),
        ("http://db.internal/", "*.internal"),
        ("http://metadata.google.internal/", "*.internal"),
        ("http://box.localdomain/", "*.localdomain"),
        ("http://nas.home.arpa/", "*.home.arpa"),
        ("http://duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion/", "*.onion"),
        ("http://intranet/", "dotless name"),
        ("http://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/", "localhost"),
        ("HTTP://LOCALHOST/", "localhost"),
    ],
)
async def test_local_names_are_blocked(url: str, rule: str) -> None:
    """Local and special-use host names are blocked_hostname, naming the rule."""
    verdict = await check_url(url, resolve={})
    assert verdict.code == "blocked_hostname"
    assert rule in verdict.reason


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("ftp://example.com/", "scheme_not_allowed"),
        ("file:///etc/passwd", "scheme_not_allowed"),
        ("javascript:alert(1)", "scheme_not_allowed"),
        ("gopher://example.com/", "scheme_not_allowed"),
        ("http://user:pw@example.com/", "credentials_in_url"),
        ("http://user@example.com/", "credentials_in_url"),
        ("http://@example.com/", "credentials_in_url"),
        ("http://example.com:22/", "port_not_allowed"),
        ("http://example.com:6379/", "port_not_allowed"),
        ("https://example.com:0/", "port_not_allowed"),
        ("http://example.com/a b", "invalid_url"),
        ("http://example.com/a\x00b", "invalid_url"),
        ("http://example.com/a\x0bb", "invalid_url"),
        ("http://example.com/a\x7fb", "invalid_url"),
        ("http://example.com:+443/", "invalid_url"),
        ("http://example.com:-80/", "invalid_url"),
        ("http://example.com:\uff18\uff10/", "invalid_url"),
        ("http://[::1]:+80/", "invalid_url"),
        ("http://xn--zz.example.com/", "invalid_url"),
        ("http://XN--ZZ.example.com./", "invalid_url"),
        ("http://exa mple.com/", "invalid_url"),
        ("http://example.com\\@127.0.0.1/", "invalid_url"),
        ("/relative/path", "invalid_url"),
        ("example.com", "invalid_url"),
        ("http://1.2.3.4.5/", "invalid_url"),
        ("http://256.1.1.1/", "invalid_url"),
        ("http://example.123/", "invalid_url"),
        ("http://a..b.com/", "invalid_url"),
        ("http://[fe80::1%25eth0]/", "invalid_url"),
        ("http://%31%32%37.0.0.1/", "invalid_url"),
        ("http://localhost%00.example.com/", "invalid_url"),
        ("http://[127.0.0.1]/", "invalid_url"),
        ("http://127.0.0.1%2f@example.com/", "credentials_in_url"),
        ("http://134744072/", "invalid_url"),
        ("http://example.com:99999/", "invalid_url"),
        ("http://example.com/" + "a" * 2100, "invalid_url"),
    ],
)
async def test_static_refusals(url: str, code: str) -> None:
    """Schemes, credentials, ports, characters, malformed hosts and length each have a code."""
    verdict = await check_url(url, resolve={"example.com": ["93.184.215.14"]})
    assert not verdict.allowed
    assert verdict.code == code, verdict.reason


@pytest.mark.asyncio
async def test_public_non_canonical_form_names_canonical_address() -> None:
    """A non-canonical form of a public address is invalid_url and says what to write."""
    verdict = await check_url("http://134744072/")
    assert verdict.code == "invalid_url"
    assert "8.8.8.8" in verdict.reason


@pytest.mark.asyncio
async def test_idna_host_is_checked_encoded() -> None:
    """An internationalised name is resolved and checked in its IDNA (xn--) form."""
    verdict = await check_url(
        "https://bücher.example/", resolve={"xn--bcher-kva.example": ["1.1.1.1"]}
    )
    assert verdict.allowed
    assert verdict.addresses == ["1.1.1.1"]


@pytest.mark.asyncio
async def test_allow_cidrs_are_exact_exceptions() -> None:
    """allow_cidrs lets exactly its range through; neighbouring private addresses stay blocked."""
    config = UrlPolicyConfig(allow_cidrs=["127.0.0.1/32", "10.1.0.0/16"])
    assert (await check_url("http://127.0.0.1/", config=config)).allowed
    assert (await check_url("http://10.1.2.3/", config=config)).allowed
    assert (await check_url("http://127.0.0.2/", config=config)).code == "blocked_address"
    assert (await check_url("http://10.2.0.1/", config=config)).code == "blocked_address"
    named = await check_url(
        "http://box.example/", config=config, resolve={"box.example": ["10.1.0.9"]}
    )
    assert named.allowed


@pytest.mark.asyncio
async def test_allow_hosts_exempts_names_and_addresses() -> None:
    """allow_hosts exempts a host from the local-name and address rules, and nothing else."""
    config = UrlPolicyConfig(allow_hosts=["wiki.internal", "*.corp.example"])
    wiki = await check_url(
        "http://wiki.internal/", config=config, resolve={"wiki.internal": ["10.0.0.5"]}
    )
    assert wiki.allowed
    sub = await check_url(
        "http://a.corp.example/", config=config, resolve={"a.corp.example": ["192.168.0.2"]}
    )
    assert sub.allowed
    apex = await check_url(
        "http://corp.example/", config=config, resolve={"corp.example": ["192.168.0.2"]}
    )
    assert apex.code == "blocked_address"
    other = await check_url(
        "http://db.internal/", config=config, resolve={"db.internal": ["10.0.0.5"]}
    )
    assert other.code == "blocked_hostname"
    port = await check_url(
        "http://wiki.internal:22/", config=config, resolve={"wiki.internal": ["10.0.0.5"]}
    )
    assert port.code == "port_not_allowed"


@pytest.mark.asyncio
async def test_deny_hosts_patterns() -> None:
    """deny_hosts blocks an exact host and the subdomains of a *. pattern, even if allowed."""
    config = UrlPolicyConfig(
        deny_hosts=["bad.example", "*.evil.example"], allow_hosts=["bad.example"]
    )
    dns = {"bad.example": ["1.1.1.1"], "x.evil.example": ["1.1.1.1"], "evil.example": ["1.1.1.1"]}
    assert (
        await check_url("http://bad.example/", config=config, resolve=dns)
    ).code == "blocked_hostname"
    assert (
        await check_url("http://x.evil.example/", config=config, resolve=dns)
    ).code == "blocked_hostname"
    assert (await check_url("http://evil.example/", config=config, resolve=dns)).allowed
    assert (
        "deny_hosts" in (await check_url("http://bad.example/", config=config, resolve=dns)).reason
    )


@pytest.mark.parametrize(
    "entry", ["2606:4700:0:0:0:0:0:1111", "2606:4700:0000::1111", "2606:4700::1111"]
)
def test_ipv6_host_entries_match_however_written(entry: str) -> None:
    """A deny_hosts or allow_hosts address in a long IPv6 form (zeros written out, leading
    zeros) is the address the URL names: it denied nothing, and exempted nothing."""
    url = "http://[2606:4700::1111]/"
    with pytest.raises(ToolError) as denied:
        UrlPolicy(UrlPolicyConfig(deny_hosts=[entry])).check(url)
    assert denied.value.code == "blocked_hostname"
    assert UrlPolicy(UrlPolicyConfig(allow_hosts=[entry])).check(url).exempt


@pytest.mark.asyncio
async def test_manifest_and_ports_config() -> None:
    """check_url accepts a whole Manifest and honours its ports list."""
    manifest = Manifest(web=WebConfig(url_policy=UrlPolicyConfig(ports=[443])))
    dns = {"example.com": ["93.184.215.14"]}
    assert (
        await check_url("http://example.com/", config=manifest, resolve=dns)
    ).code == "port_not_allowed"
    assert (await check_url("https://example.com/", config=manifest, resolve=dns)).allowed
    assert (await check_url("https://example.com:443/", config=manifest, resolve=dns)).allowed


@pytest.mark.asyncio
async def test_verdict_is_json_serialisable() -> None:
    """A verdict encodes to JSON with its fields."""
    import msgspec

    verdict = await check_url("http://10.0.0.1/")
    data = msgspec.json.decode(msgspec.json.encode(verdict))
    assert data == {
        "allowed": False,
        "code": "blocked_address",
        "reason": verdict.reason,
        "addresses": [],
        "url": "http://10.0.0.1/",
    }


@pytest.mark.asyncio
async def test_manifest_resolve_table_is_used_and_vetted() -> None:
    """Without resolve=, the policy's own resolve table answers, and its answers are vetted."""
    good = UrlPolicyConfig(resolve={"example.com": ["93.184.215.14"]})
    verdict = await check_url("https://example.com/", config=good)
    assert verdict.addresses == ["93.184.215.14"]
    bad = UrlPolicyConfig(resolve={"example.com": ["169.254.169.254"]})
    assert (await check_url("https://example.com/", config=bad)).code == "blocked_address"
    replaced = await check_url(
        "https://example.com/", config=good, resolve={"example.com": ["1.1.1.1"]}
    )
    assert replaced.addresses == ["1.1.1.1"]


@pytest.mark.parametrize(
    ("raw", "fetched"),
    [
        ("https://example.com/\n", "https://example.com/"),
        (" \x00https://example.com/a\x1f ", "https://example.com/a"),
        ("https://exa\tmple.com/p\r\nath", "https://example.com/path"),
        ("http://example.com:/", "http://example.com/"),
    ],
)
def test_whatwg_cleaning(raw: str, fetched: str) -> None:
    """Leading/trailing C0 controls and spaces are stripped and tab/CR/LF removed, as a
    browser does; the checked URL is the cleaned one."""
    target = UrlPolicy().check(raw)
    assert str(target.url) == fetched
    assert target.host == "example.com"


def test_undecodable_idna_label_names_the_label() -> None:
    """An xn-- label that is not valid punycode is refused as invalid_url naming the label."""
    with pytest.raises(ToolError) as info:
        UrlPolicy().check("http://XN--ZZ.internal.example./")
    assert info.value.code == "invalid_url"
    assert "'XN--ZZ'" in info.value.message or "'xn--zz'" in info.value.message


def test_valid_idna_label_is_the_normalised_host() -> None:
    """A valid xn-- label passes, and the host is its lower-case ASCII form."""
    assert UrlPolicy().check("http://XN--BCHER-KVA.example./").host == "xn--bcher-kva.example"
