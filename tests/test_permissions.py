"""Permission rules: parsing, host patterns, deny > ask > allow, combining plugins."""

from __future__ import annotations

import pytest

from insomnia_web.permissions import (
    Decision,
    ToolCall,
    combine,
    evaluate_rules,
    host_matches,
    parse_rule,
    parse_rules,
)


def call(tool: str = "WebFetch", *domains: str) -> ToolCall:
    return ToolCall(id="c1", tool=tool, input={}, domains=domains)


@pytest.mark.parametrize(
    ("pattern", "host", "expected"),
    [
        ("example.com", "example.com", True),
        ("example.com", "EXAMPLE.com.", True),
        ("example.com", "www.example.com", False),
        ("*.example.com", "www.example.com", True),
        ("*.example.com", "a.b.example.com", True),
        ("*.example.com", "example.com", False),
        ("*.example.com", "badexample.com", False),
        ("*", "anything.test", True),
    ],
)
def test_host_patterns(pattern: str, host: str, expected: bool) -> None:
    """A host pattern matches that host, *. matches subdomains only, * matches any host."""
    assert host_matches(pattern, host) is expected


@pytest.mark.parametrize(
    "bad",
    ["", "WebFetch(", "WebFetch(domain:)", "WebFetch(host:x.com)", "Web Fetch", "W(domain:a*b)"],
)
def test_malformed_rules_raise_naming_the_rule(bad: str) -> None:
    """A malformed rule raises ValueError that quotes it."""
    with pytest.raises(ValueError, match="malformed"):
        parse_rule(bad)


def test_tool_rule_matches_every_call_of_that_tool() -> None:
    """A bare tool rule matches calls with or without domains, only for that tool."""
    rule = parse_rule("WebFetch")
    assert rule.matches(call("WebFetch", "a.com"))
    assert rule.matches(call("WebFetch"))
    assert not rule.matches(call("WebSearch", "a.com"))


def test_domain_rule_needs_a_matching_domain() -> None:
    """A domain rule never matches a call that contacts no host."""
    rule = parse_rule("SaveFinding(domain:*)")
    assert not rule.matches(call("SaveFinding"))
    assert parse_rule("WebFetch(domain:*)").matches(call("WebFetch", "x.org"))


def test_deny_then_ask_then_allow_first_match_wins() -> None:
    """Lists are consulted deny, ask, allow; the decision names the rule that matched."""
    rules = {
        "allow": parse_rules(["WebFetch"]),
        "ask": parse_rules(["WebFetch(domain:*.corp.example)"]),
        "deny": parse_rules(["WebFetch(domain:secret.corp.example)"]),
    }
    d = evaluate_rules(call("WebFetch", "secret.corp.example"), **rules)
    assert d is not None
    assert (d.level, d.rule) == ("deny", "WebFetch(domain:secret.corp.example)")
    d = evaluate_rules(call("WebFetch", "wiki.corp.example"), **rules)
    assert d is not None
    assert d.level == "ask"
    d = evaluate_rules(call("WebFetch", "python.org"), **rules)
    assert d is not None
    assert d.level == "allow"
    assert "WebFetch" in d.reason
    assert evaluate_rules(call("WebSearch"), **rules) is None


def test_combine_any_deny_wins_then_ask() -> None:
    """Combining plugin answers: deny beats ask beats allow; None is no opinion."""
    allow = Decision.allow(reason="a")
    ask = Decision.ask(reason="b")
    deny = Decision.deny(reason="c")
    assert combine([allow, None, ask]) == ask
    assert combine([deny, allow, ask]) == deny
    assert combine([None, None]) is None
    assert combine([allow]) == allow


@pytest.mark.parametrize(
    ("rule", "host"),
    [
        ("WebFetch(domain:xn--bcher-kva.de)", "bücher.de"),
        ("WebFetch(domain:bücher.de)", "xn--bcher-kva.de"),
        ("WebFetch(domain:*.bücher.de)", "www.BÜCHER.de."),
    ],
)
def test_internationalised_names_match_in_either_form(rule: str, host: str) -> None:
    """A rule matches a host whether either is written in Unicode or IDNA form."""
    assert parse_rule(rule).matches(call("WebFetch", host))


def test_unknown_hosts_match_every_domain_deny_and_ask_rule() -> None:
    """A call whose hosts are unknown is matched by domain deny/ask rules, not domain allows."""
    unknown = ToolCall(id="c1", tool="WebFetch", input={}, hosts_unknown=True)
    deny = parse_rules(["WebFetch(domain:*.internal.example)"])
    allow = parse_rules(["WebFetch(domain:*)"])
    decided = evaluate_rules(unknown, allow=allow, ask=[], deny=deny)
    assert decided is not None
    assert decided.level == "deny"
    assert evaluate_rules(unknown, allow=allow, ask=[], deny=[]) is None
    asked = evaluate_rules(unknown, allow=allow, ask=parse_rules(["WebFetch(domain:x.y)"]), deny=[])
    assert asked is not None
    assert asked.level == "ask"
    whole_tool = evaluate_rules(unknown, allow=parse_rules(["WebFetch"]), ask=[], deny=[])
    assert whole_tool is not None
    assert whole_tool.level == "allow"


@pytest.mark.parametrize("text", ["web_fetch", "web_fetch(domain:example.com)"])
def test_mcp_tool_name_is_an_alias(text: str) -> None:
    """A rule may name a tool by its MCP name (web_fetch for WebFetch)."""
    decided = evaluate_rules(
        call("WebFetch", "example.com"), allow=parse_rules([text]), ask=[], deny=[]
    )
    assert decided is not None
    assert decided.level == "allow"


def test_a_call_to_several_hosts_is_denied_if_any_host_is() -> None:
    """A call contacting several hosts meets a deny or ask rule for any one of them, and an
    allow rule only if it covers them all."""
    both = call("WebSearch", "api.example.com", "blocked.example")
    rules = parse_rules(["WebSearch(domain:blocked.example)"])
    denied = evaluate_rules(both, allow=parse_rules(["WebSearch"]), ask=[], deny=rules)
    assert denied is not None
    assert denied.level == "deny"
    asked = evaluate_rules(both, allow=parse_rules(["WebSearch"]), ask=rules, deny=[])
    assert asked is not None
    assert asked.level == "ask"
    one_allowed = parse_rules(["WebSearch(domain:api.example.com)"])
    assert evaluate_rules(both, allow=one_allowed, ask=[], deny=[]) is None
