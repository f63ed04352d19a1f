"""Pure pieces of result handling: domain matching, policy filtering, snippet cleaning."""

from __future__ import annotations

import pytest

from insomnia_web.config import UrlPolicyConfig
from insomnia_web.net.urlpolicy import UrlPolicy
from insomnia_web.search.base import SearchHit
from insomnia_web.search.markup import clean_text
from insomnia_web.tools.search_filter import filter_hits, host_in, normalize_domain


def hits(*urls: str) -> list[SearchHit]:
    """Hits titled by position."""
    return [SearchHit(title=str(i), url=u) for i, u in enumerate(urls)]


@pytest.mark.parametrize(
    ("domain", "expected"),
    [
        ("Example.COM", "example.com"),
        ("*.example.com", "example.com"),
        ("example.com.", "example.com"),
        ("bücher.de", "xn--bcher-kva.de"),
    ],
)
def test_normalize_domain(domain: str, expected: str) -> None:
    """Filters are lower-case IDNA hosts without a wildcard or trailing dot."""
    assert normalize_domain(domain) == expected


def test_host_in_matches_the_domain_and_subdomains_only() -> None:
    """a.example.com is in example.com; badexample.com and example.com.evil are not."""
    assert host_in("example.com", ["example.com"])
    assert host_in("a.b.example.com", ["example.com"])
    assert not host_in("badexample.com", ["example.com"])
    assert not host_in("example.com.evil.test", ["example.com"])


@pytest.mark.parametrize(
    "url",
    [
        "ftp://files.example/x",
        "https://user:pw@example.com/",
        "https://example.com:22/",
        "http://10.0.0.1/",
        "http://[::1]/",
        "http://2130706433/",
        "http://intranet/",
        "http://printer.local/",
        "not a url",
    ],
)
def test_urls_the_policy_refuses_are_counted(url: str) -> None:
    """Each statically refused URL is dropped and counted as refused."""
    outcome = filter_hits(hits(url, "https://ok.example/"), policy=UrlPolicy())
    assert [h.url for h in outcome.hits] == ["https://ok.example/"]
    assert outcome.refused == 1


def test_manifest_exceptions_let_private_results_through() -> None:
    """allow_cidrs and allow_hosts of the manifest also apply to results."""
    policy = UrlPolicy(UrlPolicyConfig(allow_cidrs=["10.0.0.0/8"], allow_hosts=["wiki.local"]))
    outcome = filter_hits(hits("http://10.1.2.3/", "http://wiki.local/"), policy=policy)
    assert outcome.refused == 0
    assert len(outcome.hits) == 2


def test_permission_is_asked_once_per_host_and_deny_drops() -> None:
    """The WebFetch verdict is looked up once per host; deny drops, ask and allow keep."""
    asked: list[str] = []

    def permission(host: str) -> str:
        asked.append(host)
        return {"bad.example": "deny", "maybe.example": "ask"}.get(host, "allow")

    outcome = filter_hits(
        hits(
            "https://bad.example/1",
            "https://bad.example/2",
            "https://maybe.example/",
            "https://good.example/",
        ),
        policy=UrlPolicy(),
        permission=permission,
    )
    assert [h.url for h in outcome.hits] == ["https://maybe.example/", "https://good.example/"]
    assert outcome.refused == 2
    assert asked == ["bad.example", "maybe.example", "good.example"]


def test_domain_filters_are_not_counted_as_refused() -> None:
    """Results outside allowed_domains are dropped but counted separately."""
    outcome = filter_hits(
        hits("https://a.example/", "https://b.test/"),
        policy=UrlPolicy(),
        allowed_domains=["*.example"],
    )
    assert [h.url for h in outcome.hits] == ["https://a.example/"]
    assert (outcome.refused, outcome.outside_domains) == (0, 1)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("<strong>Python</strong> 3.13", "Python 3.13"),
        ("Fish &amp; chips &#8212; &quot;best&quot;", 'Fish & chips — "best"'),
        ("a &lt;script&gt; tag", "a <script> tag"),
        ("two\n  lines", "two lines"),
        ("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
        (None, ""),
    ],
)
def test_clean_text(raw: str | None, clean: str) -> None:
    """Tags go, entities are decoded after tag removal, whitespace collapses."""
    assert clean_text(raw) == clean
