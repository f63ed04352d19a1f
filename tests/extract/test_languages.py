"""Pages in German, French, Spanish, Japanese and Chinese lose the same chrome English pages do."""

from __future__ import annotations

from pathlib import Path

import pytest

from insomnia_web.extract import extract_html

PAGES = Path(__file__).parent / "pages"

# page -> (snippets the text must contain, snippets it must not contain)
CASES = {
    "de.html": (
        ["zwölf neue Radverbindungen", "rund 40 Millionen Euro"],
        ["Ähnliche Artikel", "Parkgebühren in der Innenstadt", "Kommentare", "Impressum"],
    ),
    "fr.html": (
        ["trois mille arbres", "jardin partagé géré par une association"],
        ["Articles similaires", "Le prix des transports", "Commentaires", "Mentions légales"],
    ),
    "es.html": (
        ["cinco estaciones nuevas", "asociación vecinal"],
        ["Artículos relacionados", "peatonalización", "Comentarios", "Aviso legal"],
    ),
    "ja.html": (
        ["観光特急バスを来月から新たに運行", "平日への拡大も検討する"],
        ["関連記事", "嵐山で新しい駐車場", "毎朝バスに乗れなくて", "利用規約"],
    ),
    "zh.html": (
        ["十号线北延段于本周六正式开通运营", "出行变得轻松了许多"],
        ["相关文章", "西湖景区", "终于等到了这条线路", "联系方式"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_page_keeps_its_story_and_loses_its_chrome(name: str) -> None:
    """The article's sentences stay; related stories, comments and the footer go."""
    wanted, unwanted = CASES[name]
    text = extract_html((PAGES / name).read_text(encoding="utf-8")).text
    for snippet in wanted:
        assert snippet in text
    for snippet in unwanted:
        assert snippet not in text


def test_undeclared_language_keeps_structural_rules_only() -> None:
    """A page in no known language keeps a heading that a known language's rules would drop."""
    source = (PAGES / "de.html").read_text(encoding="utf-8").replace('lang="de"', 'lang="xx"')
    text = extract_html(source).text
    assert "Impressum" not in text  # the footer is structure: it goes in every language
    assert "Parkgebühren in der Innenstadt" in text
