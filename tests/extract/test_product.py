"""Product pages: legal fine print goes, the description stays."""

from __future__ import annotations

from insomnia_web.extract import extract_html

DESCRIPTION = (
    "<h1>Trail Runner 3</h1>"
    "<p>A light trail shoe with a grippy outsole, a rock plate under the forefoot and a "
    "breathable mesh upper that drains quickly after a river crossing.</p>"
    "<p>The foam midsole keeps its bounce in the cold, and the lacing wraps the midfoot so "
    "the heel stays put on steep descents and loose gravel.</p>"
    "<ul><li>Weight: 280 g</li><li>Drop: 6 mm</li><li>Lugs: 5 mm</li></ul>"
)


def _page(extra: str) -> str:
    return f"<html><body><main>{DESCRIPTION}{extra}</main></body></html>"


def test_disclaimer_and_footnote_blocks_are_dropped() -> None:
    """Blocks named disclaimer, footnotes or legal hold fine print, not the product."""
    fine_print = (
        "<div class='common-bottom-disclaimer'><p>1. Results may vary by terrain.</p></div>"
        "<ol class='footnotes'><li>2. Weight measured on a size 9.</li></ol>"
        "<div class='legal'><p>Offer valid while stocks last, subject to change.</p></div>"
    )
    text = extract_html(_page(fine_print)).text
    assert "rock plate under the forefoot" in text
    assert "Results may vary" not in text
    assert "measured on a size" not in text
    assert "while stocks last" not in text
