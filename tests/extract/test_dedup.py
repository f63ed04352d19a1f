"""Repeats: one normaliser, and the lines said twice on the serialized text."""

from __future__ import annotations

from insomnia_web.extract import extract_html
from insomnia_web.extract.dedup import finish_lines, repeat_key
from insomnia_web.extract.serialize import serialize
from tests.extract.support import body_of


def test_a_short_line_said_twice_in_a_row_keeps_one_copy() -> None:
    """A grid label repeated in its cell goes; a later repeat and a long line said twice stay."""
    long_line = "The foam midsole keeps its bounce in the cold and the lacing wraps the midfoot."
    text = (
        f"## Bit Count\n\nBit Count\n64\n## Bit Count\n\nBit Count\n32\n\nBit Count\n"
        f"{long_line}\n{long_line}"
    )
    finished = finish_lines(text)
    assert finished.count("Bit Count") == 3
    assert finished.count(long_line) == 2
    assert "\n\n\n" not in finished


def test_a_line_saying_one_text_twice_keeps_one_half() -> None:
    """Glued or space-joined doubles are cut to one copy; a doubled single word stays."""
    text = "EUR 20.99EUR 20.99\n- Talk to us Talk to us\nLeong Leong\nAbout this item"
    assert finish_lines(text) == "EUR 20.99\n- Talk to us\nLeong Leong\nAbout this item"


def test_code_and_table_rows_keep_their_repeats() -> None:
    """Lines inside a code fence and Markdown table rows are never cut or dropped."""
    text = (
        "Close both blocks:\n\n```\n  }\n}\nreturn x return x\nreturn x return x\n```\n\n"
        "| a | b |\n| --- | --- |\n| 1 | 1 |\n| 1 | 1 |"
    )
    assert finish_lines(text) == text


def test_lines_without_words_are_not_repeats() -> None:
    """Punctuation-only lines (a brace, a rule) say nothing a repeat could copy."""
    text = "}\n}\n* * *\n* * *"
    assert finish_lines(text) == text


def test_a_label_printed_twice_on_a_page_is_read_once() -> None:
    """On a page, a label whose screen-reader copy sits beside it is read once."""
    para = "<p>Our support team answers within a day, every day of the week, by mail or phone.</p>"
    html = (
        f"<html><body><main><h1>Support</h1>{para}"
        "<p><span>Opening hours 9 to 5</span> <span>Opening hours 9 to 5</span></p>"
        "</main></body></html>"
    )
    text = extract_html(html).text
    assert text.count("Opening hours 9 to 5") == 1
    assert "answers within a day" in text


def test_a_short_block_repeated_right_after_itself_goes() -> None:
    """A card that prints its author twice in a row (a name and a heading) keeps one."""
    body = body_of(
        "<html><body><div><a href=/u><img></a><p>Jess Lee</p></div>"
        "<div><span></span><h3>Jess Lee</h3></div></body></html>"
    )
    assert finish_lines(serialize(body)).count("Jess Lee") == 1


def test_a_repeat_differing_in_case_and_punctuation_is_still_a_repeat() -> None:
    """Every repeat rule compares lowercase words, so "Dimensions:" repeats "DIMENSIONS"."""
    assert repeat_key("## Dimensions: 20 × 30 cm") == repeat_key("DIMENSIONS 20 × 30 CM.")
    assert finish_lines("Dimensions:\n\nDIMENSIONS\n\n20 by 30 cm") == "Dimensions:\n\n20 by 30 cm"


def test_a_short_line_after_a_long_one_is_compared_with_it_whole() -> None:
    """A label following a long line that starts with the same words is no repeat of it, in
    ASCII text and in any other."""
    for long_line, label in (
        ("Bit Count is the width of the register in bits, and it limits the range", "Bit Count"),
        ("Größe der Zähler in Bits bestimmt den Wertebereich und die Breite der Register", "Größe"),
    ):
        text = f"{long_line}\n{label}\n{label}"
        assert finish_lines(text) == f"{long_line}\n{label}"


def test_only_a_short_line_in_any_script_is_read_once() -> None:
    """A short accented line said twice is read once; one of more than ten words stays twice."""
    short = "Économie — « Zürich »"
    long = "Die Straße führt über zwölf Brücken, vorbei an Gärten, Höfen und Türmen bis zur Küste."
    assert finish_lines(f"{short}\n\n{short}").strip() == short
    assert finish_lines(f"{long}\n\n{long}") == f"{long}\n\n{long}"
