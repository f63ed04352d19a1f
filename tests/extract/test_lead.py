"""A story's lead paragraph, held in its header above the body, stays in the text."""

from __future__ import annotations

from pathlib import Path

from lxml.html import document_fromstring

from insomnia_web.extract import extract_html
from insomnia_web.extract.lead import add_lead, story_lead

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


_BODY = "".join(
    f"<p>Der Gemeinderat hat am Montag über den Neubau der Brücke beraten, Absatz {n}, und "
    "nach langer Debatte über Kosten, Verkehr und Naturschutz einen Beschluss gefasst.</p>"
    for n in range(8)
)
_NAMED_LEAD = (
    "Die alte Brücke über den Fluss wird abgerissen und bis zum Herbst des kommenden Jahres "
    "durch einen Neubau ersetzt."
)


def _story(after_headline: str) -> str:
    return (
        "<html lang='de'><body><div class='page'><div class='head'>"
        f"<h1>Neue Brücke für die Stadt</h1>{after_headline}</div>"
        f"<div class='article-body'>{_BODY}</div></div></body></html>"
    )


def test_a_lead_named_by_its_class_under_the_headline_is_kept() -> None:
    """A lead paragraph that no header holds but its class names is kept under the headline."""
    page = _story(
        f"<div class='byline'>Von Anna Berg</div><p class='article-intro'>{_NAMED_LEAD}</p>"
    )
    text = extract_html(page).text
    assert _NAMED_LEAD in text
    assert text.index(_NAMED_LEAD) < text.index("Absatz 0")


def test_a_named_summary_far_below_the_headline_is_no_lead() -> None:
    """A block named like a lead after much other text is another story's summary, not a lead."""
    filler = "<div class='kicker'>" + "Ein Wort " * 30 + "</div>"
    page = _story(f"{filler}<p class='teaser-intro'>{_NAMED_LEAD}</p>")
    assert _NAMED_LEAD not in extract_html(page).text


def test_a_lead_photo_caption_is_no_lead() -> None:
    """A block named a lead that holds a photo is the lead picture and its caption."""
    page = _story(f"<div class='ArticlePage-lead'><img src='a.jpg'><p>{_NAMED_LEAD}</p></div>")
    assert _NAMED_LEAD not in extract_html(page).text


def test_the_first_paragraph_under_the_headline_is_the_lead() -> None:
    """A paragraph of prose right under the headline, unnamed and outside the body, is kept."""
    page = _story(f"<div class='byline'>Von Anna Berg</div><p>{_NAMED_LEAD}</p>")
    text = extract_html(page).text
    assert _NAMED_LEAD in text
    assert text.index(_NAMED_LEAD) < text.index("Absatz 0")


def test_a_photo_caption_under_the_headline_is_no_lead() -> None:
    """The only paragraph beside a photo under the headline is its caption, not a lead."""
    page = _story(f"<div class='photo'><img src='a.jpg'><p>{_NAMED_LEAD}</p></div>")
    assert _NAMED_LEAD not in extract_html(page).text


def test_a_paragraph_in_a_block_named_a_caption_is_no_lead() -> None:
    """A paragraph in a block named a caption or credit under the headline is no lead."""
    page = _story(f"<div class='media-caption'><div><p>{_NAMED_LEAD}</p></div></div>")
    assert _NAMED_LEAD not in extract_html(page).text


def test_a_lead_with_a_drop_cap_is_not_added_again() -> None:
    """A lead whose first letter stands apart ("W hile") is the text's own first paragraph."""
    text = "# Title\n\nWhile the bridge stood, the town grew.\n\nBody."
    assert add_lead(text, ["W hile the bridge stood, the town grew."]) == text


def test_the_first_paragraph_after_a_wrapped_headline_is_its_lead() -> None:
    """A headline in a wrapper gets the first paragraph after the wrapper, not one before it."""
    before = "Ein Absatz vor der Überschrift gehört zur Seite, nicht zur Geschichte, die folgt."
    root = document_fromstring(
        "<html lang='de'><body><div class='page'>"
        f"<div class='teaser-box'><p>{before}</p></div>"
        "<div class='title-wrap'><div><h1>Neue Brücke für die Stadt</h1></div></div>"
        f"<div class='content'><p>{_NAMED_LEAD}</p>{_BODY}</div></div></body></html>"
    )
    assert story_lead(root) == [_NAMED_LEAD]


def test_a_lead_is_added_unless_the_text_holds_its_words() -> None:
    """A lead the text holds as it stands is not added; a capital sigma read in another
    context is another word, so a lead ending in one is added after a longer word."""
    text = "# Title\n\nThe lead.\n\nBody."
    assert add_lead(text, ["The lead."]) == text
    assert add_lead("# Τίτλος\n\nΟΔΟΣΑ", ["ΟΔΟΣ"]) == "# Τίτλος\n\nΟΔΟΣ\n\nΟΔΟΣΑ"
