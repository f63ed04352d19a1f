"""Cached searches: exact and similar reuse, what never matches, and expiry."""

from __future__ import annotations

from pathlib import Path

import pytest

from insomnia_web.cache import Cache, canonical_params, content_words, normalize_query, schema

from .conftest import FakeClock

PARAMS: dict[str, object] = {"provider": "brave", "mode": "results", "count": 5, "offset": 0}
DAY = 86_400.0


def test_exact_hit_ignores_case_space_punctuation_and_width(cache: Cache) -> None:
    """A query differing only in case, spacing, surrounding punctuation or width is exact."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b'{"r": 1}')
    hit = cache.get_search("  ＰＹＴＨＯＮ   asyncio Tutorial?! ", PARAMS, max_age_s=DAY)  # noqa: RUF001
    assert hit is not None
    assert hit.match == "exact"
    assert hit.matched_query == "python asyncio tutorial"
    assert hit.provider == "brave"
    assert hit.payload == b'{"r": 1}'


def test_control_characters_in_a_query_separate_words(cache: Cache) -> None:
    """NUL and other control characters in a query (or a finding) separate words like a
    space: they neither break the full-text lookup nor make another query."""
    cache.put_search("python\x00asyncio\x1btutorial", PARAMS, "brave", b"{}")
    hit = cache.get_search("python asyncio tutorial", PARAMS, max_age_s=DAY)
    assert hit is not None
    assert hit.match == "exact"
    assert cache.get_search("tutorial\x00python asyncio", PARAMS, max_age_s=DAY) is not None
    cache.add_finding("asyncio\x00timeout", "asyncio.timeout\x00cancels the task", None, ttl_s=DAY)
    assert [f.query for f in cache.find_findings("asyncio\x00timeout")] == ["asyncio\x00timeout"]


def test_miss_on_empty_cache(cache: Cache) -> None:
    """Looking up a query that was never stored returns None."""
    assert cache.get_search("python asyncio tutorial", PARAMS, max_age_s=DAY) is None


@pytest.mark.parametrize(
    "new_query",
    [
        "tutorial for asyncio in Python",
        "How to: asyncio tutorials in python?",
        "Python's asyncio tutorials",
    ],
)
def test_similar_hit_on_same_content_words(cache: Cache, new_query: str) -> None:
    """Word order, stopwords, plurals and possessives do not stop a similar match."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b"payload")
    hit = cache.get_search(new_query, PARAMS, max_age_s=DAY)
    assert hit is not None
    assert hit.match == "similar"
    assert hit.matched_query == "python asyncio tutorial"
    assert hit.payload == b"payload"


def test_similar_hit_tolerates_one_extra_cached_word(cache: Cache) -> None:
    """A three-word query reuses a cached query with one more (non-numeric) word."""
    cache.put_search("python asyncio tutorial beginners", PARAMS, "brave", b"p")
    hit = cache.get_search("python asyncio tutorials", PARAMS, max_age_s=DAY)
    assert hit is not None
    assert hit.match == "similar"


@pytest.mark.parametrize(
    ("cached", "new"),
    [
        ("python 3.11 release date", "python 3.12 release date"),
        ("python 3.11 release date", "python release date"),
        ("python release date", "python 3.12 release date"),
        ("python tutorial", "python asyncio tutorial"),
        ("asyncio sockets", "asyncio"),
        ("rust async tutorial", "python asyncio tutorial"),
        ("python asyncio tutorial beginners video", "python asyncio tutorial"),
        ("events 2024-01-05", "events 2024-05-01"),
    ],
)
def test_no_match_for_different_numbers_or_topics(cache: Cache, cached: str, new: str) -> None:
    """Different numbers, a word the cached query lacks, or too many extra words never match."""
    cache.put_search(cached, PARAMS, "brave", b"p")
    assert cache.get_search(new, PARAMS, max_age_s=DAY) is None


NEGATIONS = {"not", "never", "without"}


@pytest.mark.parametrize(
    "cached",
    [
        "best python http library site:evil.example",
        "best python http library -site:python-requests.org",
        "best python http library -requests",
        "best python http library filetype:pdf",
        "best python http library NOT requests",
        "vaccines safe children never",
        "vaccines safe children without",
    ],
)
def test_an_extra_operator_or_negation_never_makes_a_similar_match(
    cache: Cache, cached: str
) -> None:
    """A cached query whose one extra word is a search operator (``site:``, ``filetype:``,
    an excluded ``-word``) or a negation (``not``, ``never``, ``without``) answers another
    question: one agent, steered by a page, searched ``... site:evil.example`` once, and
    every agent asking the same words without it was served that site's results."""
    cache.put_search(cached, PARAMS, "brave", b"p")
    plain = " ".join(
        w for w in cached.split() if ":" not in w and w[0] != "-" and w.lower() not in NEGATIONS
    )
    assert cache.get_search(plain, PARAMS, max_age_s=DAY) is None


@pytest.mark.parametrize(
    "other",
    [
        {**PARAMS, "count": 10},
        {**PARAMS, "provider": "searxng"},
        {**PARAMS, "freshness": "pw"},
        {**PARAMS, "allowed_domains": ["docs.python.org"]},
    ],
)
def test_no_match_with_different_params(cache: Cache, other: dict[str, object]) -> None:
    """Neither exact nor similar hits cross different search parameters."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b"p")
    assert cache.get_search("python asyncio tutorial", other, max_age_s=DAY) is None
    assert cache.get_search("asyncio tutorial python", other, max_age_s=DAY) is None


def test_params_key_is_canonical(cache: Cache) -> None:
    """Key order, None values and force_fresh do not change the cache key."""
    cache.put_search("q words here", {"b": 1, "a": [2, 3], "force_fresh": True}, "x", b"p")
    hit = cache.get_search("q words here", {"a": [2, 3], "b": 1, "c": None}, max_age_s=DAY)
    assert hit is not None
    assert hit.match == "exact"
    assert canonical_params({"b": 1, "a": None, "force_fresh": False}) == '{"b":1}'


def test_exact_hit_preferred_over_fresher_similar(cache: Cache, clock: FakeClock) -> None:
    """An exact hit wins over a similar one even if the similar one is newer."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b"exact")
    clock.advance(60)
    cache.put_search("tutorial python asyncio", PARAMS, "brave", b"similar")
    hit = cache.get_search("python asyncio tutorial", PARAMS, max_age_s=DAY)
    assert hit is not None
    assert (hit.match, hit.payload) == ("exact", b"exact")


def test_similar_prefers_fewest_extra_words_then_freshest(cache: Cache, clock: FakeClock) -> None:
    """Among similar candidates the same-words one wins, then the most recent."""
    cache.put_search("python asyncio tutorial beginners", PARAMS, "brave", b"extra")
    clock.advance(10)
    cache.put_search("asyncio tutorial python", PARAMS, "brave", b"old")
    clock.advance(10)
    cache.put_search("tutorial python asyncio", PARAMS, "brave", b"new")
    clock.advance(10)
    hit = cache.get_search("python asyncio tutorials", PARAMS, max_age_s=DAY)
    assert hit is not None
    assert hit.payload == b"new"
    assert hit.age_s == pytest.approx(10)


def test_same_words_found_behind_many_newer_near_matches(cache: Cache, clock: FakeClock) -> None:
    """A same-words match is found even when many newer one-extra-word matches exist."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b"same")
    for n in range(60):
        clock.advance(1)
        extra = chr(97 + n % 26) + chr(97 + n // 26)
        cache.put_search(f"python asyncio tutorial {extra}", PARAMS, "brave", b"x")
    hit = cache.get_search("tutorial for python asyncio", PARAMS, max_age_s=DAY)
    assert hit is not None
    assert hit.payload == b"same"


def test_put_replaces_the_same_query(cache: Cache, clock: FakeClock) -> None:
    """Storing a query again replaces its response and its age."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b"first")
    clock.advance(100)
    cache.put_search("Python asyncio tutorial", PARAMS, "brave", b"second")
    hit = cache.get_search("python asyncio tutorial", PARAMS, max_age_s=50)
    assert hit is not None
    assert (hit.payload, hit.age_s, hit.matched_query) == (b"second", 0, "Python asyncio tutorial")
    assert cache.stats().searches == 1


def test_max_age_expires_hits(cache: Cache, clock: FakeClock) -> None:
    """A response older than max_age_s is not returned, exact or similar."""
    cache.put_search("python asyncio tutorial", PARAMS, "brave", b"p")
    clock.advance(3600)
    hit = cache.get_search("python asyncio tutorial", PARAMS, max_age_s=3600)
    assert hit is not None
    assert hit.age_s == 3600
    assert cache.get_search("python asyncio tutorial", PARAMS, max_age_s=3599) is None
    assert cache.get_search("tutorial asyncio python", PARAMS, max_age_s=3599) is None


def test_expired_rows_are_pruned_by_a_later_write(cache_path: Path, clock: FakeClock) -> None:
    """A write after the TTL (and the prune interval) deletes rows older than search_ttl_s."""
    with Cache(cache_path, clock=clock, search_ttl_s=100) as cache:
        cache.put_search("old query words", PARAMS, "brave", b"p")
        clock.advance(1000)
        cache.put_search("new query words", PARAMS, "brave", b"p")
        assert cache.stats().searches == 1
        assert cache.get_search("query words old", PARAMS, max_age_s=1e9) is None


def test_without_fts5_same_words_still_match(
    cache_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without FTS5 similar matching degrades to the same content words only."""
    monkeypatch.setattr(schema, "fts5_available", lambda conn: False)
    with Cache(cache_path, clock=clock) as cache:
        cache.put_search("python asyncio tutorial", PARAMS, "brave", b"p")
        cache.put_search("rust async tutorial beginners", PARAMS, "brave", b"p")
        hit = cache.get_search("tutorials for asyncio in python", PARAMS, max_age_s=DAY)
        assert hit is not None
        assert hit.match == "similar"
        assert cache.get_search("rust async tutorial", PARAMS, max_age_s=DAY) is None
        assert cache.stats().fts5 is False


def test_normalisation_and_content_words() -> None:
    """Normalisation keeps inner punctuation; content words drop stopwords and plurals."""
    assert normalize_query("  «Python   3.12»?  ") == "python 3.12"
    assert content_words("What are the C++ classes in Node.js?") == {"c++", "class", "node.js"}
    assert content_words("queries, news and statuses") == {"query", "news", "statuse"}
