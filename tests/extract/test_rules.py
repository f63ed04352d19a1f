"""Visible-text rules are data: phrases keyed by rule and language, read by one matcher."""

from __future__ import annotations

import pytest

from insomnia_web.extract import extract_html
from insomnia_web.extract.counts import BlockCounts
from insomnia_web.extract.listing import drop_card_labels
from insomnia_web.extract.rules import (
    PHRASES,
    SEARCHED,
    any_pattern,
    has_phrases,
    matches,
    matches_any,
    searched_phrases,
)
from tests.extract.support import body_of, words_of


def test_every_rule_compiles_in_every_language_it_lists() -> None:
    """Each rule's phrases form one valid pattern per language, and searched rules exist."""
    assert PHRASES.keys() >= SEARCHED
    for rule, by_language in PHRASES.items():
        for language in by_language:
            matches(rule, language, "x")


def test_a_phrase_matches_the_whole_text_with_marks_around_it() -> None:
    """ "» Related articles:" is the closing heading; "Related articles on tax law" is not."""
    assert matches("closing_heading", "en", "» Related articles:")
    assert not matches("closing_heading", "en", "Related articles on tax law and more")
    assert matches("card_badge", "en", "· Sponsored ·")


def test_an_unknown_language_matches_no_phrase() -> None:
    """Without a language, no visible-text rule applies; a language without phrases neither."""
    assert not matches("card_badge", None, "Sponsored")
    assert not matches("card_badge", "fi", "Sponsored")
    with pytest.raises(KeyError):
        matches("no such rule", "en", "x")


def test_has_phrases_says_whether_a_rule_can_match_in_a_language() -> None:
    """A rule without phrases in the language (or no language) can match nothing at all."""
    assert has_phrases("post_control", "en")
    assert not has_phrases("post_control", "fi")
    assert not has_phrases("post_control", None)
    assert has_phrases("quote_attribution", "de")


def test_matches_any_is_true_when_one_of_its_rules_matches() -> None:
    """One pattern of two rules' phrases matches what either rule matches, and only that."""
    rules = ("post_control", "poster_stat")
    for text in ("Reply", "Posts: 710", "29,553 posts", "Reply to posts", "Hello"):
        expected = any(matches(rule, "en", text) for rule in rules)
        assert matches_any(rules, "en", text) is expected, text
    assert matches_any(rules, "en", "» Reply")
    assert not matches_any(rules, "fi", "Reply")
    pattern = any_pattern(rules, "en")
    assert pattern is not None
    assert pattern.fullmatch("Posts: 710")
    assert any_pattern(rules, "fi") is None
    with pytest.raises(ValueError, match="searched"):
        matches_any(("legal_line",), "en", "All rights reserved")


def test_searched_rules_find_their_phrase_inside_the_text() -> None:
    """An attribution ends its line, a copyright notice may sit anywhere in it."""
    assert matches("quote_attribution", "en", "On 8/26/2024 at 5:29 PM, Sam said:")
    assert not matches("quote_attribution", "en", "Sam said it twice, then left")
    assert matches("legal_line", "de", "2024 Stadtwerke, alle Rechte vorbehalten.")


def test_searched_phrases_find_what_matches_finds() -> None:
    """A searched rule's patterns, looked up once, find a phrase where :func:`matches` does."""
    for text in ("Copyright 2024 Acme", "2024 Acme. All rights reserved.", "Acme makes desks"):
        found = any(p.search(text) for p in searched_phrases("legal_line", "en"))
        assert found is matches("legal_line", "en", text), text
    assert searched_phrases("legal_line", None) == ()
    assert searched_phrases("legal_line", "fi") == ()
    with pytest.raises(ValueError, match="searched"):
        searched_phrases("closing_heading", "en")


def test_card_labels_follow_the_page_language() -> None:
    """A German page drops "Anzeige" and "12 Kommentare" on its cards; an English one keeps them."""
    cards = "".join(
        f"<article><h2><a href='/a{i}'>Neue Radwege {i}</a></h2>"
        f"<span>Anzeige</span><a href='/a{i}#c'>{i + 12} Kommentare</a></article>"
        for i in range(3)
    )
    for language, kept in (("de", False), ("en", True)):
        body = body_of(f"<html><body><main>{cards}</main></body></html>")
        drop_card_labels(body, BlockCounts(body), language)
        text = words_of(body)
        assert ("Anzeige" in text) is kept
        assert ("Kommentare" in text) is kept
        assert "Neue Radwege 2" in text


def test_the_one_badge_vocabulary_drops_stock_labels_on_cards_everywhere() -> None:
    """ "Low stock" and "In stock" are card stickers for both card rules; "Sold out" stays."""
    cards = "".join(
        f"<li><img src='b{i}.jpg'><a href='/b{i}'>Trail boot {i}</a><span>$12{i}</span>"
        f"<div>{label}</div></li>"
        for i, label in enumerate(("Low stock", "In stock", "Sold out", "Low Stock"))
    )
    guide = "<p>" + "Boots for wet trails need a firm heel and a deep lug. " * 3 + "</p>"
    html = f"<html lang='en'><body><main><h1>Boots</h1>{guide}<ul>{cards}</ul></main></body></html>"
    text = extract_html(html).text
    assert "Trail boot 3" in text
    assert "stock" not in text.lower()
    assert "Sold out" in text
