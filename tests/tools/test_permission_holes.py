"""WebFetch permissions against hostile input: one host parse, policy before any prompt."""

from __future__ import annotations

from typing import Any

import pytest

from insomnia_web.prompts import Answer, PromptRequest
from insomnia_web.runtime import Runtime

from .conftest import SITE, MakeRuntime, Site

INTERNAL_DENIED = {"allow": ["WebFetch"], "deny": ["WebFetch(domain:*.internal.example)"]}


class RecordingPrompter:
    """Answers with a fixed answer and records what it was asked."""

    def __init__(self, answer: Answer = "always") -> None:
        self.answer = answer
        self.requests: list[PromptRequest] = []

    async def ask(self, request: PromptRequest) -> Answer:
        self.requests.append(request)
        return self.answer


async def fetch(runtime: Runtime, url: str) -> dict[str, Any]:
    """Call WebFetch on *url* and return its error (the test expects a failure)."""
    result = await runtime.call_tool("WebFetch", {"url": url})
    assert not result.ok, result.text
    assert result.error is not None
    return {"code": result.error.code, "hint": result.error.hint, "message": result.error.message}


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "host", ["a.internal.example", "xn--zz.internal.example", "XN--ZZ.internal.example."]
)
async def test_deny_rule_holds_for_undecodable_idna(
    make_runtime: MakeRuntime, site: Site, host: str
) -> None:
    """A host with an xn-- label that is not valid punycode is refused, never fetched."""
    runtime = make_runtime(
        permissions=INTERNAL_DENIED,
        url_policy={"resolve": {host.lower().rstrip("."): ["127.0.0.1"]}, "allow_hosts": ["*"]},
    )
    error = await fetch(runtime, f"http://{host}:{site.port}/")
    assert error["code"] in ("invalid_url", "permission_denied")
    assert site.hits == {}


@pytest.mark.asyncio
async def test_undecodable_host_is_never_asked_about(make_runtime: MakeRuntime, site: Site) -> None:
    """With default ask, an undecodable host fails as invalid_url before any prompt."""
    prompter = RecordingPrompter("always")
    runtime = make_runtime(prompter=prompter, permissions={"default": "ask"})
    error = await fetch(runtime, f"http://xn--zz.example:{site.port}/")
    assert error["code"] == "invalid_url"
    assert "xn--zz" in error["message"]
    assert prompter.requests == []
    assert (
        runtime.pending_prompt("WebFetch", {"url": f"http://xn--zz.example:{site.port}/"}) is None
    )


@pytest.mark.asyncio
async def test_redirect_to_undecodable_host_is_blocked(
    make_runtime: MakeRuntime, site: Site
) -> None:
    """A redirect to an undecodable host is redirect_blocked (invalid_url), not internal_error."""
    site.set("/r", "", status=302, headers={"Location": f"http://xn--zz.{SITE}:{site.port}/"})
    runtime = make_runtime(permissions=INTERNAL_DENIED)
    error = await fetch(runtime, site.url("/r"))
    assert error["code"] == "redirect_blocked"
    assert "invalid_url" in error["message"] or "IDNA" in error["message"]


@pytest.mark.asyncio
async def test_prompt_names_the_policy_host(make_runtime: MakeRuntime, site: Site) -> None:
    """The prompt shows the host as the policy parsed it, so an "always" grants that host."""
    site.set("/", "<p>hello</p>")
    prompter = RecordingPrompter("always")
    runtime = make_runtime(prompter=prompter, permissions={"default": "ask"})
    result = await runtime.call_tool("WebFetch", {"url": f"http://SITE.test.:{site.port}/"})
    assert result.ok, result.text
    assert prompter.requests[0].call.domains == (SITE,)
    assert runtime.permission_for("WebFetch", SITE) == "allow"
    assert runtime.permission_for("WebFetch", "other.test") == "ask"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://169.254.169.254/latest/meta-data/", "blocked_address"),
        ("http://localhost/", "blocked_hostname"),
        ("ftp://example.com/", "scheme_not_allowed"),
        ("http://user:pw@example.com/", "credentials_in_url"),
        ("http://example.com:6379/", "port_not_allowed"),
        ("http://example.com:+443/", "invalid_url"),
    ],
)
async def test_policy_refusals_come_before_the_prompt(
    make_runtime: MakeRuntime, url: str, code: str
) -> None:
    """What the static URL policy refuses is refused first: nobody is asked about it."""
    prompter = RecordingPrompter("once")
    runtime = make_runtime(
        prompter=prompter, permissions={"default": "ask"}, url_policy={"ports": [80, 443]}
    )
    assert runtime.pending_prompt("WebFetch", {"url": url}) is None
    error = await fetch(runtime, url)
    assert error["code"] == code
    assert prompter.requests == []
    assert "[permissions]" not in error["hint"]


@pytest.mark.asyncio
async def test_unasked_refusal_hints_at_the_rule_that_helps(runtime: Runtime, site: Site) -> None:
    """Refused by the default with nobody to ask, the hint names the allow rule to add."""
    error = await fetch(runtime, site.url("/", host="other.test"))
    assert error["code"] == "permission_denied"
    assert "WebFetch(domain:other.test) to [permissions] allow" in error["hint"]


@pytest.mark.asyncio
async def test_deny_rule_refusal_hints_at_no_rule(make_runtime: MakeRuntime, site: Site) -> None:
    """An allow rule cannot override a deny, so a deny rule's refusal suggests none."""
    runtime = make_runtime(permissions={"allow": ["WebFetch"], "deny": ["WebFetch(domain:*)"]})
    error = await fetch(runtime, site.url("/"))
    assert error["code"] == "permission_denied"
    assert "[permissions]" not in error["hint"]


@pytest.mark.asyncio
async def test_www_form_is_what_is_fetched(make_runtime: MakeRuntime, site: Site) -> None:
    """A URL with a trailing newline is fetched as a browser would, without it."""
    site.set("/p", "<p>hello page</p>")
    runtime = make_runtime()
    result = await runtime.call_tool("WebFetch", {"url": site.url("/p") + "\n"})
    assert result.ok, result.text
    assert result.output is not None
    assert result.output["url"] == site.url("/p")


@pytest.mark.asyncio
async def test_stored_redirect_to_a_host_now_denied_is_fetched_again(
    make_runtime: MakeRuntime, site: Site
) -> None:
    """A snapshot that came through a redirect to another host is not served once that host
    is denied: the fetch runs again and meets the rule."""
    site.set("/moved", "", status=302, headers={"Location": site.url("/p", host="other.test")})
    site.set("/p", "<p>the moved page</p>")
    both = {"allow": ["WebFetch"]}
    first = await make_runtime(permissions=both).call_tool("WebFetch", {"url": site.url("/moved")})
    assert first.ok, first.text
    denied = {"allow": ["WebFetch"], "deny": ["WebFetch(domain:other.test)"]}
    again = await make_runtime(permissions=denied).call_tool(
        "WebFetch", {"url": site.url("/moved")}
    )
    assert again.error is not None
    assert again.error.code == "redirect_not_followed"
    assert site.hits["/moved"] == 2
