"""Blocks whose class or id glues "related" to other words are related stories, and go."""

from __future__ import annotations

from lxml.html import document_fromstring

from insomnia_web.extract.boilerplate import prune_boilerplate
from insomnia_web.extract.serialize import serialize

_PAGE = """<html lang="de"><body><div class="bodyText">
<h1>Neue Radwege für die Stadt</h1>
<p>Der Stadtrat hat am Dienstag beschlossen, in den kommenden drei Jahren zwölf neue
Radverbindungen zwischen den Stadtteilen zu bauen; die Verwaltung rechnet mit Kosten von
rund 40 Millionen Euro, die zur Hälfte aus Fördermitteln des Landes kommen sollen.</p>
<p>Die ersten Abschnitte entstehen entlang der Ringstraße und am Flussufer, wo bisher
Radfahrende und Fußgänger sich einen schmalen Weg teilen müssen.</p>
<div class="{name}"><ul><li><a href="/a/parken"><strong>Parken</strong>
<span>Die Stadt erhöht die Gebühren in der Innenstadt um einen Euro pro Stunde</span>
</a></li></ul></div>
</div></body></html>"""


def _page_text(name: str) -> str:
    root = document_fromstring(_PAGE.replace("{name}", name))
    return serialize(prune_boilerplate(root, "de"))


def test_a_joined_related_name_goes() -> None:
    """A block named "relatedArticlesText" or "postrelated" leaves the page text."""
    for name in ("relatedArticlesText", "postrelated"):
        text = _page_text(name)
        assert "rund 40 Millionen Euro" in text
        assert "einen Euro pro Stunde" not in text


def test_a_name_without_related_stays() -> None:
    """The same block named for its layout stays: the name, not the links, decides here."""
    assert "einen Euro pro Stunde" in _page_text("articleBox")
