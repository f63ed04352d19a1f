"""``ctx.client``: a plugin tool's HTTP goes through the runtime's bounded, policy-checked
client, and only to the hosts its call was approved for."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest

from insomnia_web import (
    CallSubject,
    Manifest,
    Runtime,
    Tool,
    ToolAnnotations,
    ToolContext,
    ToolOutput,
    ToolResult,
    hookimpl,
)
from insomnia_web.prompts import Answer, PromptRequest

from .conftest import OTHER, SITE, Site, manifest_for


class LookupInput(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A URL to read, and the host the call says it contacts."""

    url: str
    named_host: str
    headers: dict[str, str] = {}


class LookupOutput(msgspec.Struct, kw_only=True):
    """What the URL answered."""

    status: int
    body: str


class Lookup(Tool[LookupInput, LookupOutput]):
    """A plugin tool that reads a URL with ``ctx.client``, naming *named_host* as its host."""

    name: ClassVar[str] = "Lookup"
    input_type = LookupInput
    output_type = LookupOutput
    annotations = ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=True
    )

    def description(self) -> str:
        return "Read a URL."

    def subject(self, args: LookupInput, ctx: ToolContext) -> CallSubject:
        return CallSubject(domains=(args.named_host,), summary=f"read {args.url}")

    async def run(self, args: LookupInput, ctx: ToolContext) -> ToolOutput[LookupOutput]:
        got = await ctx.client.fetch(args.url, headers=args.headers or None)
        out = LookupOutput(status=got.status, body=got.decode()[0])
        return ToolOutput(output=out, text=out.body)


class LookupPlugin:
    """Registers Lookup."""

    __name__ = "lookup-plugin"

    @hookimpl
    def register_tools(
        self, register: Callable[[Tool[Any, Any]], None], manifest: Manifest
    ) -> None:
        register(Lookup(manifest))


async def _lookup(
    site: Site, tmp_path: Path, allow: list[str], url: str, host: str, **extra: Any
) -> ToolResult:
    """One Lookup call of *url*, naming *host*, under *allow* rules (anything else asks)."""
    manifest = manifest_for(site.port, tmp_path / "c.sqlite3", permissions={"allow": allow})
    async with Runtime(manifest, plugins=[LookupPlugin()], load_entrypoints=False) as runtime:
        return await runtime.call_tool("Lookup", {"url": url, "named_host": host, **extra})


@pytest.mark.asyncio
async def test_a_plugin_tool_reads_the_host_it_named(site: Site, tmp_path: Path) -> None:
    """A call allowed on the host it names reads that host through ctx.client."""
    site.set("/api", '{"answer": 42}', content_type="application/json")
    result = await _lookup(site, tmp_path, [f"Lookup(domain:{SITE})"], site.url("/api"), SITE)
    assert result.ok, result.text
    assert result.output == {"status": 200, "body": '{"answer": 42}'}


@pytest.mark.asyncio
async def test_ctx_client_applies_the_url_policy(site: Site, tmp_path: Path) -> None:
    """A cloud-metadata address is refused by the URL policy before anything is dialled."""
    url = f"http://169.254.169.254:{site.port}/latest/meta-data/"
    result = await _lookup(site, tmp_path, ["Lookup"], url, "169.254.169.254")
    assert result.error is not None
    assert result.error.code == "blocked_address"


@pytest.mark.asyncio
async def test_ctx_client_refuses_a_host_the_call_did_not_name(site: Site, tmp_path: Path) -> None:
    """A host the call did not name, which the rules do not allow the tool on without asking,
    is refused with permission_denied naming it, and never contacted."""
    site.set("/secret", "not for this call")
    allow = [f"Lookup(domain:{SITE})"]
    result = await _lookup(site, tmp_path, allow, site.url("/secret", host=OTHER), SITE)
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert OTHER in result.error.message
    assert "/secret" not in site.hits


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "header", ["Host", "host", "Proxy-Authorization", "Connection", "Transfer-Encoding"]
)
async def test_ctx_client_refuses_headers_that_route_or_frame_the_request(
    site: Site, tmp_path: Path, header: str
) -> None:
    """A request header that names another host (``Host``: another site on the same
    server or CDN) or speaks to the proxy or the connection is refused as invalid_input
    naming it, and nothing is sent; other headers pass."""
    site.set("/page", "approved host only")
    allow = [f"Lookup(domain:{SITE})"]
    url = site.url("/page")
    result = await _lookup(site, tmp_path, allow, url, SITE, headers={header: OTHER})
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert header in result.error.message
    assert site.host_headers == []
    result = await _lookup(site, tmp_path, allow, url, SITE, headers={"X-Api": OTHER})
    assert result.ok, result.text
    assert site.host_headers == [f"{SITE}:{site.port}"]


@pytest.mark.asyncio
async def test_ctx_client_reads_a_host_the_rules_allow(site: Site, tmp_path: Path) -> None:
    """A host the call did not name is read when the rules allow the tool there anyway."""
    site.set("/other", "allowed too")
    allow = [f"Lookup(domain:{SITE})", f"Lookup(domain:{OTHER})"]
    result = await _lookup(site, tmp_path, allow, site.url("/other", host=OTHER), SITE)
    assert result.ok, result.text
    assert result.text == "allowed too"


@pytest.mark.asyncio
async def test_ctx_client_does_not_follow_a_redirect_off_the_call(
    site: Site, tmp_path: Path
) -> None:
    """A redirect to a host the call may not contact is refused before it is requested."""
    site.set("/moved", "", status=302, headers={"Location": site.url("/target", host=OTHER)})
    site.set("/target", "elsewhere")
    result = await _lookup(site, tmp_path, [f"Lookup(domain:{SITE})"], site.url("/moved"), SITE)
    assert result.error is not None
    assert result.error.code == "redirect_blocked"
    assert "/target" not in site.hits


def test_ctx_client_is_not_handed_out_before_the_call_is_authorized() -> None:
    """In preflight or subject, before the permission step, ctx.client refuses to be used."""

    def no_client() -> Any:
        raise AssertionError("the client was built before the permission step")

    ctx = ToolContext(
        call_id="call_1",
        manifest=Manifest(),
        progress=lambda message, done, total: None,
        permission_probe=lambda tool, host: "allow",
        search_providers={},
        tool="Lookup",
        http=no_client,
    )
    with pytest.raises(RuntimeError, match="not authorized yet"):
        _ = ctx.client


class Checked(Lookup):
    """Lookup naming the host of its URL as the URL policy reads it."""

    name: ClassVar[str] = "Checked"

    def subject(self, args: LookupInput, ctx: ToolContext) -> CallSubject:
        return CallSubject(domains=(ctx.checked_host(args.url),), summary=f"read {args.url}")


class Asked:
    """A prompter that notes the hosts of each question and answers once."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, ...]] = []

    async def ask(self, request: PromptRequest) -> Answer:
        self.asked.append(request.call.domains)
        return "once"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("url", "host", "code"),
    [
        ("HTTP://Site.TEST.:{port}/api", SITE, None),
        ("http://169.254.169.254:{port}/", None, "blocked_address"),
        ("ftp://site.test/", None, "scheme_not_allowed"),
    ],
)
async def test_checked_host_is_the_policy_host_and_refuses_before_asking(
    site: Site, tmp_path: Path, url: str, host: str | None, code: str | None
) -> None:
    """ctx.checked_host gives the host as the URL policy normalises it, and a URL the policy
    refuses fails with the policy's code before anyone is asked."""
    site.set("/api", "ok")
    manifest = manifest_for(site.port, tmp_path / "c.sqlite3", permissions={"default": "ask"})
    asked = Asked()

    class CheckedPlugin:
        __name__ = "checked-plugin"

        @hookimpl
        def register_tools(self, register: Callable[[Tool[Any, Any]], None]) -> None:
            register(Checked(manifest))

    runtime = Runtime(manifest, prompter=asked, plugins=[CheckedPlugin()], load_entrypoints=False)
    async with runtime:
        args = {"url": url.format(port=site.port), "named_host": "unused"}
        result = await runtime.call_tool("Checked", args)
    if code is None:
        assert result.ok, result.text
        assert asked.asked == [(host,)]
    else:
        assert result.error is not None
        assert result.error.code == code
        assert asked.asked == []
