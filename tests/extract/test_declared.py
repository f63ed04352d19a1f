"""A page drawn by script: the body it declares in JSON-LD is read when its text is thin."""

from __future__ import annotations

import json
from typing import Any

from insomnia_web.extract import extract_html

STORY = (
    "The council approved the new tram line on Tuesday after a four-hour debate. "
    "Construction starts in March and the first trams run in 2028, the mayor said."
)


def _shell(data: dict[str, Any], visible: str = "Loading…") -> str:
    """An app shell: a visible line or two, the content only in JSON-LD."""
    ld = json.dumps(data)
    return (
        f'<html><head><script type="application/ld+json">{ld}</script></head>'
        f'<body><div id="root"><p>{visible}</p></div></body></html>'
    )


def test_an_app_shell_reads_its_declared_article_body() -> None:
    """A page showing one line reads the articleBody of its JSON-LD story, as plain text."""
    page = _shell({"@type": "NewsArticle", "articleBody": f"<p>{STORY}</p>"})
    assert extract_html(page).text == STORY


def test_a_how_to_reads_its_description_and_steps_in_order() -> None:
    """A how-to's description, then its steps' directions in order, make the text."""
    steps = [
        {"@type": "HowToStep", "itemListElement": {"@type": "HowToDirection", "text": "Cut it."}},
        {"@type": "HowToStep", "text": "Hem the edge with a narrow double fold all round."},
    ]
    data = {
        "@type": "HowTo",
        "description": "A round tablecloth fits any round table once you know its diameter "
        "and how far the cloth should fall towards the floor.",
        "step": steps,
    }
    text = extract_html(_shell(data)).text
    assert text.startswith("A round tablecloth fits")
    assert text.index("Cut it.") < text.index("Hem the edge")


def test_visible_text_wins_over_a_declared_body() -> None:
    """A page whose visible text holds thirty words or more keeps it, whatever JSON-LD says."""
    visible = " ".join(f"word{i}" for i in range(30))
    page = _shell({"@type": "Article", "articleBody": STORY}, visible=visible)
    assert extract_html(page).text == visible


def test_a_shorter_declared_body_is_not_taken() -> None:
    """A declared body with no more words than the thin text read is not taken."""
    page = _shell({"@type": "Article", "articleBody": "Tram."}, visible="Tram line approved today.")
    assert extract_html(page).text == "Tram line approved today."
