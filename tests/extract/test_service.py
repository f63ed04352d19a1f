"""Service pages: the offer is content; the marketing sections around it are not."""

from __future__ import annotations

import pytest

from insomnia_web.extract import extract_html

OFFER = "".join(
    f"<section><h2>Service {i}</h2><p>Our team audits data pipeline {i}, documents every "
    f"source and builds the reports your finance staff rely on each quarter.</p></section>"
    for i in range(6)
)


@pytest.mark.parametrize(
    "heading",
    [
        "Client Successes",
        "Data Analytics Success Stories from Leading Enterprises",
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
