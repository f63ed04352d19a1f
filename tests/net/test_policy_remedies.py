"""What the URL policy tells a person who could lift a refusal: the one setting that would,
never a way to a cloud metadata service."""

from __future__ import annotations

import pytest

from insomnia_web.errors import ToolError
from insomnia_web.net.urlpolicy import UrlPolicy

ONLY_IF = "Only for a trusted server: "


def _refusal(url: str) -> ToolError:
    with pytest.raises(ToolError) as info:
        UrlPolicy().check(url)
    return info.value


@pytest.mark.parametrize(
    ("url", "remedy"),
    [
        ("http://127.0.0.1/", 'add "127.0.0.1/32" to web.url_policy.allow_cidrs in the manifest.'),
        ("http://[fd12::1]/", 'add "fd12::1/128" to web.url_policy.allow_cidrs in the manifest.'),
        (
            "http://printer.local/",
            'add "printer.local" to web.url_policy.allow_hosts in the manifest.',
        ),
    ],
)
def test_a_local_address_or_name_names_the_one_entry_that_allows_it(url: str, remedy: str) -> None:
    """A refused local address or name gives the person the allow entry for it alone."""
    assert _refusal(url).remedy == ONLY_IF + remedy


def test_a_port_names_the_ports_setting() -> None:
    """A refused port gives the person the ports setting that would allow it."""
    remedy = _refusal("http://example.com:2222/").remedy
    assert remedy == ONLY_IF + "add 2222 to web.url_policy.ports in the manifest."


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://[fd00:ec2::254]/",
        "http://100.100.100.200/",
        "http://0x7f.1/",
    ],
)
def test_no_remedy_opens_a_metadata_service_or_a_disguised_address(url: str) -> None:
    """A cloud metadata address, or an IPv4 form written to hide what it is, has no remedy."""
    error = _refusal(url)
    assert error.code == "blocked_address"
    assert error.remedy is None


def test_a_private_dns_answer_names_that_address() -> None:
    """A host whose DNS answer is private gives the allow entry for that address."""
    policy = UrlPolicy()
    target = policy.check("http://intranet.example/")
    with pytest.raises(ToolError) as info:
        policy.vet_addresses(target, ["10.1.2.3"])
    assert info.value.remedy == (
        ONLY_IF + 'add "10.1.2.3/32" to web.url_policy.allow_cidrs in the manifest.'
    )
