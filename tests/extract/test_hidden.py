"""Hidden elements: panels a click reveals are page text, hidden chrome is not."""

from __future__ import annotations

from insomnia_web.extract import extract_html
from insomnia_web.extract.clean import strip_invisible
from insomnia_web.extract.parse import parse_html

INTRO = "".join(
    f"<p>Paragraph {i} introduces the espresso grinder, its burrs, its motor and how fine "
    f"it grinds for each brewing method a reader might use at home.</p>"
    for i in range(4)
)


def _page(extra: str) -> str:
    return f"<html><body><main><h1>Grinder</h1>{INTRO}{extra}</main></body></html>"


def test_hidden_tab_panel_is_kept() -> None:
    """A tab panel hidden until its tab is clicked keeps its text."""
    html = _page(
        "<div role='tabpanel' hidden><p>Specifications: conical steel burrs of 54 mm.</p></div>"
    )
    assert "conical steel burrs" in extract_html(html, mode="full").text


def test_hidden_accordion_fold_is_kept() -> None:
    """An accordion body hidden by an inline style (named by its class) keeps its text."""
    html = _page(
        "<div class='accordion-body' style='display:none'><p>Warranty covers two years.</p></div>"
    )
    assert "Warranty covers two years" in extract_html(html, mode="full").text


def test_fold_with_a_css_module_class_is_kept() -> None:
    """A fold named in camel case by CSS modules ("Faq_accordionContent__x1") keeps its text."""
    html = _page(
        "<div class='Faq_accordionContent__x1' aria-hidden='true'><p>Descale twice a year.</p>"
        "</div>"
    )
    assert "Descale twice a year" in extract_html(html, mode="full").text


def test_panel_named_by_a_toggle_button_is_kept() -> None:
    """A hidden element whose id a button names in ``aria-controls`` is revealed text."""
    html = _page(
        "<button aria-controls='care'>Care</button>"
        "<div id='care' hidden><p>Clean the burrs once a month with a brush.</p></div>"
        "<a data-bs-target='#faq'>FAQ</a>"
        "<div id='faq' class='d-none'><p>Beans stay fresh in the hopper.</p></div>"
    )
    text = extract_html(html, mode="full").text
    assert "Clean the burrs once a month" in text
    assert "Beans stay fresh" in text


def test_hidden_chrome_stays_dropped() -> None:
    """A hidden menu, dialog or plain hidden block stays out even when a button names it."""
    html = _page(
        "<button aria-controls='m'>Menu</button>"
        "<div id='m' class='mobile-menu' hidden><p>Shop all grinders</p></div>"
        "<button aria-controls='d'>Open</button>"
        "<div id='d' role='dialog' hidden><p>Sign in to your account</p></div>"
        "<div hidden><p>Sale ends soon</p></div>"
    )
    text = extract_html(html, mode="full").text
    assert "Shop all grinders" not in text
    assert "Sign in to your account" not in text
    assert "Sale ends soon" not in text


def test_sibling_panes_switched_by_script_are_kept() -> None:
    """Hidden siblings of a visible pane with the same tag and class words are kept."""
    html = _page(
        "<div><ul class='plans active'><li>Basic plan grinds ten grams.</li></ul>"
        "<ul class='plans hidden'><li>Pro plan grinds twenty grams.</li></ul>"
        "<ul class='other hidden'><li>Unrelated hidden promo.</li></ul></div>"
    )
    text = extract_html(html, mode="full").text
    assert "Pro plan grinds twenty grams" in text
    assert "Unrelated hidden promo" not in text


def test_large_block_hidden_by_a_class_is_not_rescued() -> None:
    """A block hidden by a utility class stays out even when it holds most of the page."""
    rows = "".join(f"<p>Compare grinder model {i} with price and burr size.</p>" for i in range(40))
    html = (
        "<html><body><main><p>Short visible grinder note.</p>"
        f"<div class='compare hidden'>{rows}</div></main></body></html>"
    )
    text = extract_html(html, mode="full").text
    assert "Short visible grinder note" in text
    assert "Compare grinder model 3" not in text


def test_hidden_block_after_a_heading_is_kept() -> None:
    """A hidden block right after a heading is a fold its title opens (an FAQ answer)."""
    html = _page(
        "<div class='faq'><h3>Is it loud?</h3>"
        "<div style='display: none'><p>It hums at 60 decibels.</p></div></div>"
    )
    assert "hums at 60 decibels" in extract_html(html, mode="full").text


def test_details_content_is_kept() -> None:
    """The body of a closed ``<details>`` element is page text."""
    html = _page("<details><summary>Specs</summary><p>Burr size 54 mm.</p></details>")
    text = extract_html(html).text
    assert "Specs" in text
    assert "Burr size 54 mm" in text


def test_deeply_nested_hidden_folds_finish() -> None:
    """100k nested hidden folds and headings neither recurse too deep nor lose their words."""
    depth = 100_000
    html = (
        "<html><body><p>before</p>"
        + "<h3>t</h3><div class='collapse' hidden>w " * depth
        + "</div>" * depth
        + "</body></html>"
    )
    text = extract_html(html, mode="full").text
    assert text.split().count("w") == depth


def test_popover_is_hidden_unless_manual() -> None:
    """An auto popover (a prompt or menu shown when opened) is dropped; a manual one stays."""
    html = _page(
        "<div popover><p>Allow notifications from this site?</p></div>"
        "<div popover='manual'><p>Grinds 30 grams a minute.</p></div>"
    )
    text = extract_html(html, mode="full").text
    assert "Allow notifications" not in text
    assert "Grinds 30 grams a minute" in text


def test_hidden_fold_with_form_fields_stays_dropped() -> None:
    """A fold that holds form fields (a shipping estimate) is a form, not page text."""
    html = _page(
        "<div class='collapse'><label>Country</label><select><option>Norway</option>"
        "<option>Sweden</option></select><p>Please enter a valid postal code.</p></div>"
    )
    assert "valid postal code" in extract_html(html, mode="full").text  # shown: kept
    hidden = html.replace("class='collapse'", "class='collapse' hidden")
    assert "valid postal code" not in extract_html(hidden, mode="full").text


def test_fold_title_button_is_kept_as_text() -> None:
    """An FAQ question in a fold-opening button stays in the readable text; short toggles
    ("Show more") and menu buttons do not."""
    faq = "".join(
        f"<div class='faq-item'><button aria-expanded='false' aria-controls='a{i}'>"
        f"How often should burr set {i} be replaced?</button>"
        f"<div id='a{i}' hidden><p>Replace burr set {i} after about five hundred kilograms "
        f"of coffee beans have passed through it.</p></div></div>"
        for i in range(3)
    )
    html = _page(
        faq + "<button aria-expanded='false'>Show more</button>"
        "<button aria-expanded='false' aria-haspopup='menu'>Open the account menu</button>"
    )
    text = extract_html(html).text
    assert "How often should burr set 1 be replaced?" in text
    assert "Show more" not in text
    assert "account menu" not in text


def test_tooltip_bubble_is_dropped_and_its_term_kept() -> None:
    """A glossary tooltip's bubble goes; the term it explains stays in its sentence."""
    html = _page(
        "<p>Track your <span class='Term_component__a1'><dfn>keyword</dfn>"
        "<span class='Term_tooltipBubble__b2'><strong>Keyword</strong><br>A keyword is what "
        "users type into a search engine.</span></span> rankings every week.</p>"
    )
    text = extract_html(html, mode="full").text
    assert "Track your keyword rankings every week." in text
    assert "what users type" not in text


def test_invisible_blocks_inside_invisible_blocks_go_and_the_text_after_stays() -> None:
    """Hidden and script blocks nested in each other go once; the words after each stay."""
    root = parse_html(
        "<html><head><script>a()</script><style>b{}</style></head><body>"
        "<p>Before <span hidden>x<b hidden>y</b>z<script>c()</script>w</span> after"
        "<svg><title>icon</title><script>d()</script></svg> end.</p></body></html>"
    )
    assert root is not None
    strip_invisible(root)
    assert root.find("head") is None
    assert " ".join(root.text_content().split()) == "Before after end."
