"""WebSearch under the permission rules: what excerpt search reads, what a cached answer shows."""

from __future__ import annotations

import pytest

from insomnia_web import DenyPrompter

from .conftest import Page, SimWeb, article
from .test_web_search_cache import Web, env, search

__all__ = ["env"]  # the fixture, re-used from the cache tests

ASK_FETCH = {"default": "ask", "allow": ["WebSearch"]}


@pytest.mark.asyncio
async def test_excerpt_search_does_not_read_ask_hosts(env: Web, sim: SimWeb) -> None:
    """With WebFetch on "ask", excerpt search reads no page; each is skipped as
    permission_required, and the text says so."""
    rt = env.runtime(permissions=ASK_FETCH, prompter=DenyPrompter())
    text, out = await search(rt, "giant tortoise lifespan")
    assert sim.seen == []
    assert [(p["status"], p["error_code"]) for p in out["pages"]] == [
        ("skipped", "permission_required")
    ] * 2
    assert "2 page(s) not read (permission_required)" in text
    assert "about 101 years" not in text
    assert [r["url"] for r in out["results"]] == [h.url for h in env.hits]


@pytest.mark.asyncio
async def test_approving_every_ask_reads_ask_hosts(env: Web, sim: SimWeb) -> None:
    """A prompter that approves every question in advance (``--yes``) lets excerpt search
    read the pages WebFetch would ask about; pages[] lists each page read."""
    rt = env.runtime(permissions=ASK_FETCH)  # AutoApprovePrompter
    text, out = await search(rt, "giant tortoise lifespan")
    assert [p["status"] for p in out["pages"]] == ["ok", "ok"]
    assert "about 101 years" in text


@pytest.mark.asyncio
async def test_excerpt_search_reads_allowed_hosts_only(env: Web, sim: SimWeb) -> None:
    """An allow rule for one host lets excerpt search read that host's page, not the other."""
    rt = env.runtime(
        permissions={**ASK_FETCH, "allow": ["WebSearch", "WebFetch(domain:a.test)"]},
        prompter=DenyPrompter(),
    )
    _, out = await search(rt, "giant tortoise lifespan")
    assert sim.seen == [("a.test", "/robots.txt"), ("a.test", "/p")]  # robots.txt obeyed
    assert [p["status"] for p in out["pages"]] == ["ok", "skipped"]


@pytest.mark.asyncio
async def test_excerpt_search_follows_no_redirect_to_an_ask_host(env: Web, sim: SimWeb) -> None:
    """A page on an allowed host that redirects to an ask host is not read there."""
    sim.pages[("a.test", "/p")].status = 302
    sim.pages[("a.test", "/p")].location = sim.url("c.test", "/p")
    rt = env.runtime(
        permissions={**ASK_FETCH, "allow": ["WebSearch", "WebFetch(domain:a.test)"]},
        prompter=DenyPrompter(),
    )
    _, out = await search(rt, "giant tortoise lifespan")
    assert ("c.test", "/p") not in sim.seen
    assert out["pages"][0]["error_code"] == "redirect_blocked"


@pytest.mark.asyncio
async def test_cached_answer_obeys_a_deny_rule_added_later(env: Web) -> None:
    """A stored answer is re-checked: results, excerpts and pages of a host denied since are
    not shown."""
    await search(env.runtime(), "giant tortoise lifespan")
    denied = {"allow": ["WebSearch", "WebFetch"], "deny": ["WebFetch(domain:a.test)"]}
    text, out = await search(env.runtime(permissions=denied), "giant tortoise lifespan")
    assert out["cache"]["status"] == "hit"
    assert all("a.test" not in r["url"] for r in out["results"])
    assert all("a.test" not in e["url"] for e in out["excerpts"])
    assert "a.test" not in text.replace("permission_denied", "").split("Not read:")[0]
    assert out["filtered"] == 1
    assert out["pages"][0]["error_code"] == "permission_denied"
    assert "about 102 years" in text


@pytest.mark.asyncio
async def test_cached_answer_drops_passages_of_a_host_now_on_ask(env: Web) -> None:
    """A page read under an allow rule that is now "ask" keeps its result, not its passages."""
    await search(env.runtime(), "giant tortoise lifespan")
    rt = env.runtime(
        permissions={**ASK_FETCH, "allow": ["WebSearch", "WebFetch(domain:b.test)"]},
        prompter=DenyPrompter(),
    )
    text, out = await search(rt, "giant tortoise lifespan")
    assert out["cache"]["status"] == "hit"
    assert "about 101 years" not in text
    assert "about 102 years" in text
    assert out["pages"][0] == {
        "url": env.hits[0].url,
        "status": "skipped",
        "error_code": "permission_required",
        "moved": None,
    }


@pytest.mark.asyncio
async def test_cached_answer_obeys_the_url_policy_of_now(env: Web) -> None:
    """A host added to deny_hosts after the answer was stored is not shown from the cache."""
    await search(env.runtime(mode="results"), "giant tortoise lifespan")
    rt = env.runtime(mode="results", deny_hosts=["b.test"])
    _, out = await search(rt, "giant tortoise lifespan")
    assert out["cache"]["status"] == "hit"
    assert [r["url"] for r in out["results"]] == [env.hits[0].url]


@pytest.mark.asyncio
async def test_finding_from_a_denied_source_is_not_shown(env: Web) -> None:
    """A saved finding whose source_url is on a denied host is left out of the answer."""
    rt = env.runtime(
        permissions={"allow": ["WebSearch", "WebFetch"], "deny": ["WebFetch(domain:a.test)"]}
    )
    env.cache().add_finding(
        "giant tortoise lifespan", "Over 150 years.", env.hits[0].url, ttl_s=86_400
    )
    env.cache().add_finding("giant tortoise lifespan", "Often 120 years.", None, ttl_s=86_400)
    _, out = await search(rt, "giant tortoise lifespan")
    assert [f["content"] for f in out["findings"]] == ["Often 120 years."]


@pytest.mark.asyncio
async def test_cached_passages_read_through_a_redirect_obey_the_target_host(
    env: Web, sim: SimWeb
) -> None:
    """Passages a stored answer read after a redirect to another host are not shown once
    that host is denied: the page is listed as a fresh search would list it."""
    sim.add("c.test", "/q", Page(body=article("Moved", "A giant tortoise lifespan: 999 years.")))
    sim.pages[("a.test", "/p")].status = 302
    sim.pages[("a.test", "/p")].location = sim.url("c.test", "/q")
    text, _ = await search(env.runtime(), "giant tortoise lifespan")
    assert "999 years" in text
    denied = {"allow": ["WebSearch", "WebFetch"], "deny": ["WebFetch(domain:c.test)"]}
    text, out = await search(env.runtime(permissions=denied), "giant tortoise lifespan")
    assert out["cache"]["status"] == "hit"
    assert "999 years" not in text
    assert "about 102 years" in text
    assert out["pages"][0]["status"] == "skipped"
    assert out["pages"][0]["error_code"] == "redirect_blocked"
    assert [r["url"] for r in out["results"]] == [h.url for h in env.hits]
