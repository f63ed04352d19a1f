"""A story's lead paragraph, held in its header above the body, stays in the text."""

from __future__ import annotations

from pathlib import Path

from insomnia_web.extract import extract_html
from insomnia_web.extract.lead import add_lead

PAGES = Path(__file__).parent / "pages"


def test_the_lead_under_the_headline_is_kept() -> None:
    """The lead paragraph in the story's header comes with the body, the site's header does not."""
    text = extract_html((PAGES / "lead-de.html").read_text(encoding="utf-8")).text
    assert "Eine dicke Schneedecke kann die Module" in text
    assert "Viele Policen decken Schneedruck nur" in text
    assert "Landblatt" not in text
    assert "Impressum" not in text
    assert text.count("Eine dicke Schneedecke") == 1


def test_a_lead_already_in_the_text_is_not_added_again() -> None:
    """A lead that the text holds, however it is spaced or marked up, is not repeated."""
    text = "# Title\n\n**Eine dicke  Schneedecke** belastet die Module.\n\nBody."
    assert add_lead(text, ["Eine dicke Schneedecke belastet die Module."]) == text


def test_a_missing_lead_goes_under_the_headline() -> None:
    """The lead is put right after the headline line, before the body."""
    text = add_lead("# Title\n\nBody.", ["The lead."])
    assert text == "# Title\n\nThe lead.\n\nBody."
