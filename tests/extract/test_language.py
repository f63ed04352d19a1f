"""The page language: declared in the markup, or guessed cheaply from the text."""

from __future__ import annotations

import lxml.html
import pytest

from insomnia_web.extract.document import read_document
from insomnia_web.extract.language import guess_language, page_language
from insomnia_web.net.result import FetchResult


def _root(html: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(html)


def test_html_lang_gives_the_primary_subtag() -> None:
    """``<html lang="fr-CA">`` is French."""
    assert page_language(_root('<html lang="fr-CA"><body><p>x</p></body></html>')) == "fr"


def test_content_language_meta_is_read_when_lang_is_missing() -> None:
    """A Content-Language meta tag declares the language of a page without ``lang``."""
    meta = '<meta http-equiv="Content-Language" content="de, en">'
    html = f"<html><head>{meta}</head><body></body></html>"
    assert page_language(_root(html)) == "de"


def test_a_content_language_header_is_used_when_the_markup_is_silent() -> None:
    """The header value passed in is the fallback before guessing."""
    assert page_language(_root("<html><body><p>x</p></body></html>"), "es-MX") == "es"


def test_scripts_are_guessed_from_their_characters() -> None:
    """Kana is Japanese, Hangul Korean, Han alone Chinese."""
    assert guess_language("これはテストです") == "ja"
    assert guess_language("한국어 문장입니다") == "ko"
    assert guess_language("杭州地铁十号线北延段于本周六正式开通运营") == "zh"


def test_common_words_tell_latin_languages_apart() -> None:
    """Text full of German function words is German; a few words decide nothing."""
    german = (
        "Die Stadt und das Land sind nicht mit den Plänen auf der Seite der Bürger für die " * 2
    )
    assert guess_language(german) == "de"
    assert guess_language("Hello world") is None


def _fetched(html: str, headers: dict[str, str]) -> FetchResult:
    return FetchResult(
        url="https://a.example/",
        final_url="https://a.example/",
        status=200,
        headers=headers,
        content_type="text/html",
        charset="utf-8",
        body=html.encode(),
        truncated=False,
        bytes_read=len(html),
        redirects=[],
        elapsed_s=0.0,
    )


@pytest.mark.asyncio
async def test_the_content_language_header_selects_the_phrases_of_a_fetched_page() -> None:
    """A page whose markup and words tell nothing gets the rules of its header's language."""
    story = "<p>" + "Hamburg, Bremen, Kiel: Windparks, Häfen, Werften, Schleusen. " * 8 + "</p>"
    related = "<section><h2>Ähnliche Artikel</h2><p>Sturmflut an der Elbe</p></section>"
    html = f"<html><body><main><article>{story}{related}</article></main></body></html>"
    plain = await read_document(_fetched(html, {}), "readable", timeout_s=5, max_chars=10**6)
    german = await read_document(
        _fetched(html, {"content-language": "de-DE"}), "readable", timeout_s=5, max_chars=10**6
    )
    assert "Sturmflut" in plain.extracted.text
    assert "Sturmflut" not in german.extracted.text
    assert "Windparks" in german.extracted.text
