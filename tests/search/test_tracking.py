"""Tracking parameters are taken out of result URLs; every other byte of a URL is kept."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from insomnia_web import MockProvider, ProviderPlugin, Runtime, SearchHit
from insomnia_web.search.tracking import TRACKING, clean_hits, strip_tracking

from .conftest import manifest_data


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://shop.example/p.html?srsltid=AfmBOop9Vq8E", "https://shop.example/p.html"),
        (
            "https://news.example/a?id=7&utm_source=x&utm_medium=y&page=2",
            "https://news.example/a?id=7&page=2",
        ),
        ("https://news.example/a?UTM_Campaign=x#part-2", "https://news.example/a#part-2"),
        (
            "https://news.example/a?fbclid=1&gclid=2&q=caf%C3%A9",
            "https://news.example/a?q=caf%C3%A9",
        ),
        ("https://news.example/a?b=2&a=1&a=1", "https://news.example/a?b=2&a=1&a=1"),
        ("https://news.example/a?x", "https://news.example/a?x"),
        ("https://news.example/a", "https://news.example/a"),
        ("https://news.example/a?utm=keep&ga=keep", "https://news.example/a?utm=keep&ga=keep"),
    ],
)
def test_strip_tracking_drops_only_tracking_parameters(url: str, expected: str) -> None:
    """Tracking names go (any case, exact or by prefix); other parameters, their order and
    encoding, and the fragment stay."""
    assert strip_tracking(url) == expected


def test_the_table_matches_names_and_prefixes_case_insensitively() -> None:
    """A name is tracking when it is listed or starts with a listed prefix."""
    assert "srsltid" in TRACKING
    assert "Utm_Term" in TRACKING
    assert "utm" not in TRACKING
    assert "id" not in TRACKING


def test_clean_hits_lists_a_page_once_at_its_best_rank() -> None:
    """Two hits that differ only by tracking parameters become one, at the first rank."""
    hits = [
        SearchHit(title="a", url="https://a.example/x?utm_source=feed"),
        SearchHit(title="b", url="https://b.example/"),
        SearchHit(title="a again", url="https://a.example/x?fbclid=9"),
    ]
    cleaned = clean_hits(hits)
    assert [(h.title, h.url) for h in cleaned] == [
        ("a", "https://a.example/x"),
        ("b", "https://b.example/"),
    ]
    assert cleaned[1] is hits[1]


@pytest.mark.asyncio
async def test_web_search_shows_result_urls_without_tracking_parameters(
    make_runtime: Callable[..., Runtime],
) -> None:
    """WebSearch's results and text carry the cleaned URL, once."""
    provider = MockProvider.named(
        "tracked",
        lambda r: [
            SearchHit(title="Pieces", url="https://shop.example/p.html?srsltid=AfmBOo&sku=4"),
            SearchHit(title="Pieces", url="https://shop.example/p.html?sku=4&utm_source=g"),
        ],
    )
    runtime = make_runtime(
        manifest_data({"provider": "tracked", "mode": "results"}),
        plugins=(ProviderPlugin(provider),),
    )
    result = await runtime.call_tool("WebSearch", {"query": "chess pieces"})
    assert result.output is not None
    assert [r["url"] for r in result.output["results"]] == ["https://shop.example/p.html?sku=4"]
    assert "srsltid" not in result.text
    assert "utm_source" not in result.text
