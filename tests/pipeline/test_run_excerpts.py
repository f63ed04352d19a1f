"""The excerpt pipeline against a simulated web: deadline, failures, policy, budget, order."""

from __future__ import annotations

import pytest

from insomnia_web.net import SafeClient
from insomnia_web.pipeline import PipelineResult, frame_cost, run_excerpts
from insomnia_web.pipeline.excerpts import one_round
from insomnia_web.rank.budget import selection_cost
from insomnia_web.rank.candidates import query_terms
from insomnia_web.schemas import ResultItem
from tests.pdfs import make_pdf

from .conftest import Page, RecordingContext, SimWeb, article

QUERY = "tortoise lifespan years"


def result(rank: int, url: str, snippet: str = "") -> ResultItem:
    """A provider result at *rank* for *url*."""
    return ResultItem(rank=rank, title=f"Result {rank}", url=url, snippet=snippet)


def tortoise_page(name: str) -> Page:
    """An article about tortoise lifespans that names *name*."""
    return Page(
        body=article(
            f"{name} tortoise",
            f"The {name} tortoise has a lifespan of many years, often over a century.",
            "Unrelated words about gardens and weather fill this paragraph.",
        )
    )


async def run(
    results: list[ResultItem],
    client: SafeClient,
    ctx: RecordingContext,
    *,
    deadline_s: float = 5.0,
    max_tokens: int = 1500,
    per_host: int = 2,
    pages: int = 5,
) -> PipelineResult:
    """Run the pipeline with test defaults."""
    return await run_excerpts(
        QUERY,
        results,
        client=client,
        ctx=ctx,
        pages=pages,
        deadline_s=deadline_s,
        max_tokens=max_tokens,
        per_host_concurrency=per_host,
    )


@pytest.mark.asyncio
async def test_page_that_never_finishes_is_dropped_at_the_deadline(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """A hanging page is skipped as a timeout while the other pages and its snippet are used."""
    a = sim.add("a.test", "/a", tortoise_page("Aldabra"))
    b = sim.add("b.test", "/b", Page(hang=True))
    c = sim.add("c.test", "/c", tortoise_page("Galapagos"))
    results = [
        result(1, a),
        result(2, b, "Hanging tortoise lifespan snippet: 150 years."),
        result(3, c),
    ]
    out = await run(results, client, ctx, deadline_s=0.5)
    assert [p.status for p in out.pages] == ["ok", "skipped", "ok"]
    assert out.pages[1].error_code == "timeout"
    assert {e.url for e in out.excerpts} == {a, b, c}
    assert [e.start for e in out.excerpts if e.url == b] == [-1]
    assert any("deadline" in w for w in out.warnings)


@pytest.mark.asyncio
async def test_failing_page_contributes_its_snippet(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """A page answering HTTP 500 is an error, and its provider snippet is still an excerpt."""
    a = sim.add("a.test", "/broken", Page(status=500, body="oops"))
    out = await run([result(1, a, "Tortoise lifespan: 100 years or more.")], client, ctx)
    assert out.pages[0].status == "error"
    assert out.pages[0].error_code == "http_error"
    assert [e.text for e in out.excerpts] == ["Tortoise lifespan: 100 years or more."]
    assert any("snippets only" in w for w in out.warnings)


@pytest.mark.asyncio
async def test_denied_host_is_skipped_without_a_request(sim: SimWeb, client: SafeClient) -> None:
    """A host with a WebFetch deny rule is never contacted and is reported skipped."""
    ctx = RecordingContext(deny=("b.test",))
    a = sim.add("a.test", "/a", tortoise_page("Aldabra"))
    b = sim.add("b.test", "/b", tortoise_page("Denied"))
    out = await run([result(1, a), result(2, b)], client, ctx)
    assert out.pages[1].status == "skipped"
    assert out.pages[1].error_code == "permission_denied"
    assert ("b.test", "/b") not in sim.seen


@pytest.mark.asyncio
async def test_redirect_to_a_denied_host_is_not_followed(sim: SimWeb, client: SafeClient) -> None:
    """A page redirecting to a host with a WebFetch deny rule is skipped, the target untouched."""
    ctx = RecordingContext(deny=("b.test",))
    target = sim.add("b.test", "/secret", tortoise_page("Hidden"))
    start = sim.add("a.test", "/moved", Page(status=302, location=target))
    out = await run([result(1, start, "tortoise lifespan")], client, ctx)
    assert out.pages[0].status == "skipped"
    assert out.pages[0].error_code == "redirect_blocked"
    assert ("b.test", "/secret") not in sim.seen


@pytest.mark.asyncio
async def test_url_refused_by_the_policy_is_skipped(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """A result URL on a port the URL policy refuses is skipped with the policy's code."""
    url = f"http://a.test:{sim.port + 1 if sim.port < 65535 else 1}/x"
    out = await run([result(1, url, "tortoise lifespan")], client, ctx)
    assert out.pages[0].status == "skipped"
    assert out.pages[0].error_code == "port_not_allowed"


@pytest.mark.asyncio
async def test_unsupported_type_is_skipped(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """A binary page is skipped as unsupported content, not extracted."""
    a = sim.add("a.test", "/img", Page(body="PNG", content_type="image/png"))
    out = await run([result(1, a)], client, ctx)
    assert out.pages[0].status == "skipped"
    assert out.pages[0].error_code == "unsupported_content"


@pytest.mark.asyncio
async def test_page_without_content_type_is_sniffed_and_used(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """A page sent without a Content-Type is sniffed as HTML, extracted and ranked."""
    page = tortoise_page("Aldabra")
    a = sim.add("a.test", "/a", Page(body=page.body, content_type=None))
    out = await run([result(1, a)], client, ctx)
    assert out.pages[0].status == "ok"
    assert any(e.url == a and e.start >= 0 for e in out.excerpts)
    assert any(w.startswith(f"{a}: ") and "no Content-Type" in w for w in out.warnings)


@pytest.mark.asyncio
async def test_binary_body_labelled_as_html_is_skipped(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """An image served as text/html is refused as unsupported content, not extracted."""
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64 + b"tortoise lifespan years"
    a = sim.add("a.test", "/doc", Page(body=png, content_type="text/html"))
    out = await run([result(1, a)], client, ctx)
    assert out.pages[0].status == "skipped"
    assert out.pages[0].error_code == "unsupported_content"
    assert all(e.start == -1 for e in out.excerpts if e.url == a)


@pytest.mark.asyncio
async def test_a_pdf_result_is_read_for_excerpts_whatever_its_label(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """A PDF (here labelled text/html) is read page by page and its passages ranked."""
    pdf = make_pdf([["Giant tortoises live for over a century in the wild."]])
    a = sim.add("a.test", "/doc", Page(body=pdf, content_type="text/html"))
    out = await run([result(1, a)], client, ctx)
    assert out.pages[0].status == "ok"
    assert any("live for over a century" in e.text and e.start >= 0 for e in out.excerpts)


@pytest.mark.asyncio
async def test_charset_warning_reaches_the_result(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """An unknown declared charset is decoded by detection and named in the warnings."""
    page = tortoise_page("Aldabra")
    a = sim.add("a.test", "/a", Page(body=page.body, content_type="text/html; charset=bogus-9"))
    out = await run([result(1, a)], client, ctx)
    assert out.pages[0].status == "ok"
    assert any(w.startswith(f"{a}: ") and "unknown charset" in w for w in out.warnings)


@pytest.mark.asyncio
async def test_budget_is_respected(sim: SimWeb, client: SafeClient, ctx: RecordingContext) -> None:
    """The excerpts, labels and the text around them included, fit max_tokens; tokens says
    what the excerpts cost."""
    paragraphs = [f"Tortoise fact {i}: lifespan of {100 + i} years in the wild." for i in range(60)]
    urls = [
        sim.add(h, "/long", Page(body=article("Tortoises", *paragraphs)))
        for h in ("a.test", "b.test")
    ]
    out = await run([result(i + 1, u) for i, u in enumerate(urls)], client, ctx, max_tokens=150)
    asked = frozenset(query_terms(QUERY))
    cost = selection_cost(((e.title, e.url, e.heading, e.text) for e in out.excerpts), asked)
    assert out.excerpts
    assert cost + frame_cost(out.pages, out.warnings) <= 150
    assert out.tokens == cost


@pytest.mark.asyncio
async def test_excerpts_are_grouped_by_source_in_rank_order(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """Excerpts come grouped by source, in provider rank order, one id per source from 1."""
    urls = [sim.add(h, "/p", tortoise_page(h)) for h in ("a.test", "b.test", "c.test")]
    results = [
        result(i + 1, u, f"{h} tortoise lifespan years")
        for i, (u, h) in enumerate(zip(urls, ("a.test", "b.test", "c.test"), strict=True))
    ]
    out = await run(results, client, ctx)
    order = [urls.index(e.url) for e in out.excerpts]
    assert order == sorted(order)
    assert set(order) == {0, 1, 2}
    assert [e.id for e in out.excerpts] == [o + 1 for o in order]


@pytest.mark.asyncio
async def test_progress_event_per_finished_page(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """Each page that finishes reports progress with a running count and the total."""
    a = sim.add("a.test", "/a", tortoise_page("Aldabra"))
    b = sim.add("b.test", "/missing-page", Page(status=404, body="gone"))
    await run([result(1, a), result(2, b)], client, ctx)
    assert sorted(m for m, _, _ in ctx.events) == [f"fetched {a}", f"http_error: {b}"]
    assert [(d, t) for _, d, t in ctx.events] == [(1, 2), (2, 2)]


@pytest.mark.asyncio
async def test_per_host_concurrency_is_limited(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """With a per-host limit of 1, one host never serves two of our fetches at once."""
    urls = [
        sim.add("a.test", f"/{i}", Page(body=article("t", "tortoise"), delay_s=0.05))
        for i in range(3)
    ]
    out = await run([result(i + 1, u) for i, u in enumerate(urls)], client, ctx, per_host=1)
    assert [p.status for p in out.pages] == ["ok", "ok", "ok"]
    assert sim.peak["a.test"] == 1


@pytest.mark.asyncio
async def test_only_the_top_pages_are_fetched(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """Results beyond ``pages`` are not fetched and have no page status."""
    urls = [sim.add(h, "/p", tortoise_page(h)) for h in ("a.test", "b.test", "c.test")]
    out = await run([result(i + 1, u) for i, u in enumerate(urls)], client, ctx, pages=2)
    assert [p.url for p in out.pages] == urls[:2]
    assert ("c.test", "/p") not in sim.seen


@pytest.mark.asyncio
async def test_one_host_gets_one_round_of_fetches(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """Beyond ``max_pages_per_host`` pages of one host, a result is not fetched and has no
    page status; its snippet still competes, and other hosts are still read."""
    urls = [sim.add("a.test", f"/{i}", tortoise_page(f"A{i}")) for i in range(3)]
    other = sim.add("b.test", "/b", tortoise_page("B"))
    results = [result(i + 1, u) for i, u in enumerate(urls)]
    results[2] = result(3, urls[2], "Third tortoise lifespan snippet: 150 years.")
    results.append(result(4, other))
    out = await run_excerpts(
        QUERY, results, client=client, ctx=ctx, pages=5, deadline_s=5.0, max_tokens=1500,
        per_host_concurrency=2, max_pages_per_host=2,
    )  # fmt: skip
    assert [p.url for p in out.pages] == [urls[0], urls[1], other]
    assert ("a.test", "/2") not in sim.seen
    assert [e.start for e in out.excerpts if e.url == urls[2]] == [-1]


def test_one_round_keeps_rank_order_and_the_first_pages_of_each_host() -> None:
    """Only the first pages of a host are kept, in rank order; no cap keeps them all."""
    results = [
        result(1, "https://a.test/1"),
        result(2, "https://A.test/2"),
        result(3, "https://b.test/1"),
        result(4, "https://a.test/3"),
    ]
    assert [r.rank for r in one_round(results, 2)] == [1, 2, 3]
    assert [r.rank for r in one_round(results, 1)] == [1, 3]
    assert one_round(results, None) == results


@pytest.mark.asyncio
async def test_the_provenance_line_given_is_what_the_excerpts_leave_room_for(
    sim: SimWeb, client: SafeClient, ctx: RecordingContext
) -> None:
    """With the header known, the excerpts may spend what a blind reserve would keep (at
    some budgets that is one more passage), and never more than the header leaves."""
    paragraphs = [f"Tortoise {i} lived for {100 + i} years, a long lifespan." for i in range(40)]
    url = sim.add("a.test", "/a", Page(body=article("Tortoises", *paragraphs)))
    header = "[cache: miss · mock]"
    gained = []
    for budget in range(200, 500, 15):
        blind, known = [
            await run_excerpts(
                QUERY, [result(1, url)], client=client, ctx=ctx, pages=1, deadline_s=5.0,
                max_tokens=budget, header=given,
            )
            for given in ("", header)
        ]  # fmt: skip
        assert known.tokens <= budget - frame_cost(known.pages, known.warnings, header=header)
        gained.append(known.tokens - blind.tokens)
    assert min(gained) >= 0
    assert max(gained) > 0


def test_one_round_counts_a_host_however_its_url_spells_it() -> None:
    """A host written in Unicode, in IDNA form or with a trailing dot is one host, as the
    URL policy and the per-host fetch limits see it."""
    results = [
        result(1, "https://bücher.test/1"),
        result(2, "https://xn--bcher-kva.test/2"),
        result(3, "https://BÜCHER.test./3"),
    ]
    assert [r.rank for r in one_round(results, 1)] == [1]
