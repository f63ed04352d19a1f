"""robots.txt rules as RFC 9309 reads them: groups, longest match, wildcards, encodings."""

from __future__ import annotations

import time

import pytest

from insomnia_web.net.robots import RobotsRules, parse_robots, product_token

TOKEN = "insomnia-web"  # noqa: S105 - a product token, not a secret


def rules(text: str, token: str = TOKEN) -> RobotsRules:
    """The rules *text* gives *token*."""
    return parse_robots(text, token)


def test_product_token_is_the_user_agents_first_word() -> None:
    """The product token is the User-Agent up to its version, lower-cased."""
    assert product_token("Insomnia-Web/0.1 (+https://pypi.org/project/insomnia-web/)") == TOKEN
    assert product_token("") == ""


def test_no_rules_allow_everything() -> None:
    """An empty file, or one for other agents only, allows every path."""
    assert rules("").allows("/anything")
    assert rules("User-agent: otherbot\nDisallow: /\n").allows("/anything")


def test_our_group_wins_over_the_star_group() -> None:
    """The group naming our token applies, not the ``*`` group."""
    text = "User-agent: *\nDisallow: /\n\nUser-agent: insomnia-web\nDisallow: /private\n"
    assert rules(text).allows("/public")
    assert not rules(text).allows("/private/page")
    assert not rules(text, "otherbot").allows("/public")


def test_agent_matching_ignores_case_and_version() -> None:
    """``User-agent: Insomnia-Web/2`` names the product token ``insomnia-web``."""
    assert not rules("User-agent: Insomnia-Web/2\nDisallow: /x\n").allows("/x")


def test_groups_naming_us_are_merged() -> None:
    """Two groups naming our token combine their rules (urllib uses only the first)."""
    text = "User-agent: insomnia-web\nDisallow: /a\n\nUser-agent: insomnia-web\nDisallow: /b\n"
    assert not rules(text).allows("/a")
    assert not rules(text).allows("/b")


def test_consecutive_agent_lines_share_a_group() -> None:
    """Agent lines in a row start one group that every named agent follows."""
    text = "User-agent: otherbot\nUser-agent: insomnia-web\nDisallow: /shared\n"
    assert not rules(text).allows("/shared")


def test_longest_match_wins_whatever_the_order() -> None:
    """A longer Allow overrides a shorter Disallow listed first (urllib takes the first)."""
    text = "User-agent: *\nDisallow: /docs\nAllow: /docs/public\n"
    assert rules(text).allows("/docs/public/page")
    assert not rules(text).allows("/docs/private")


def test_allow_wins_a_tie() -> None:
    """Equally long Allow and Disallow patterns: the Allow applies."""
    assert rules("User-agent: *\nDisallow: /page\nAllow: /page\n").allows("/page")


def test_empty_disallow_allows_everything() -> None:
    """``Disallow:`` with no path is no rule at all."""
    assert rules("User-agent: *\nDisallow:\n").allows("/anything")


@pytest.mark.parametrize(
    ("pattern", "path", "allowed"),
    [
        ("/*.pdf$", "/files/report.pdf", False),
        ("/*.pdf$", "/files/report.pdf?download=1", True),
        ("/*/private/", "/a/b/private/x", False),
        ("/search?q=", "/search?q=tea", False),
        ("/search?q=", "/search", True),
        ("/fish*", "/fish.html", False),
        ("/fish", "/Fish", True),
    ],
)
def test_wildcards_and_anchors(pattern: str, path: str, allowed: bool) -> None:
    """``*`` matches any run of characters, a final ``$`` anchors the end, case counts."""
    assert rules(f"User-agent: *\nDisallow: {pattern}\n").allows(path) is allowed


def test_percent_encodings_compare_equal() -> None:
    """An encoded unreserved character matches its plain form, and UTF-8 its encoding."""
    assert not rules("User-agent: *\nDisallow: /%7Ejoe\n").allows("/~joe/index")
    assert not rules("User-agent: *\nDisallow: /caf%C3%A9\n").allows("/café")
    assert not rules("User-agent: *\nDisallow: /café\n").allows("/caf%c3%a9")


def test_comments_unknown_keys_and_sitemaps_are_ignored() -> None:
    """Comments, blank lines, sitemaps and unknown keys change nothing."""
    text = (
        "# site rules\nUser-agent: * # everyone\nSitemap: https://x/s.xml\nCrawl-delay: 5\n"
        "\nDisallow: /scratch # scratch\n"
    )
    assert not rules(text).allows("/scratch/file")
    assert rules(text).allows("/home")


def test_robots_txt_itself_is_always_allowed() -> None:
    """Even ``Disallow: /`` or an unreadable site never forbids /robots.txt."""
    assert rules("User-agent: *\nDisallow: /\n").allows("/robots.txt")
    assert RobotsRules(disallow_all=True).allows("/robots.txt")
    assert not RobotsRules(disallow_all=True).allows("/")


def test_many_wildcards_match_in_linear_time() -> None:
    """A site's pattern of many ``*`` against a long path is decided at once: a backtracking
    match of ``/*a*a*a*a*b`` took seconds, blocking the event loop, and more stars for ever."""
    text = "User-agent: *\nDisallow: /" + "*a" * 4 + "*b$\n"
    started = time.perf_counter()
    assert rules(text).allows("/" + "a" * 200)
    assert not rules(text).allows("/" + "a" * 200 + "b")
    assert time.perf_counter() - started < 0.5
