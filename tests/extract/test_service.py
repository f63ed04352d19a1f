"""Service pages: the offer is content; the marketing sections around it are not."""

from __future__ import annotations

import pytest

from insomnia_web.extract import extract_html
from insomnia_web.extract.prune import drop_titled_sections
from tests.extract.support import body_of, words_of

OFFER = "".join(
    f"<section><h2>Service {i}</h2><p>Our team audits data pipeline {i}, documents every "
    f"source and builds the reports your finance staff rely on each quarter.</p></section>"
    for i in range(6)
)


@pytest.mark.parametrize(
    "heading",
    [
        "Client Successes",
        "Our Client Success Stories",
        "Featured insights",
        "Featured client stories",
        "Latest Insights",
        "How can we help you?",
        "You may be interested in the following topics as well:",
    ],
)
def test_marketing_section_after_the_offer_is_dropped(heading: str) -> None:
    """A section under a case-study, insights or contact heading is not the offer."""
    extra = (
        f"<section><h2>{heading}</h2><p>A retailer cut its reporting time in half with a "
        f"new warehouse.</p><p>Read the story.</p></section>"
    )
    html = f"<html><body><main>{OFFER}{extra}</main></body></html>"
    text = extract_html(html).text
    assert "data pipeline 5" in text
    assert "reporting time in half" not in text


def test_an_article_section_about_success_stories_stays() -> None:
    """A heading that only mentions success stories heads a story's own section."""
    story = "<p>" + "Rural clinics changed how they book visits and follow up. " * 8 + "</p>"
    section = (
        "<section><h2>Three success stories from rural clinics</h2>"
        "<p>A clinic in the valley halved its waiting list within a year.</p></section>"
    )
    body = body_of(f"<html><body><article>{story}{section}</article></body></html>")
    drop_titled_sections(body)
    assert "halved its waiting list" in words_of(body)


def test_feedback_widgets_and_closing_contact_prompts_go() -> None:
    """Sections headed "Thanks for your feedback" or "Contact our analytics team" are chrome."""
    offer = "<p>" + "We audit, plan and run your data platform with a senior team. " * 6 + "</p>"
    html = (
        f"<div>{offer}</div>"
        "<div><h4>Contact our data analytics team</h4><p>Call 555 0100 today</p></div>"
        "<div><h4>Thanks for your feedback</h4><p>Tell us more about your visit</p></div>"
    )
    body = body_of(f"<html><body>{html}</body></html>")
    drop_titled_sections(body)
    text = words_of(body)
    assert "data platform" in text
    assert "555" not in text
    assert "your visit" not in text
