"""Repeated blocks and copyright lines are dropped from the kept content."""

from __future__ import annotations

import pytest
from lxml.etree import SubElement

from insomnia_web.extract import extract_html
from insomnia_web.extract.tidy import drop_legal_lines, drop_repeated_blocks
from tests.extract.support import body_of as _body
from tests.extract.support import words_of as _text

_TEXT = "A sturdy desk frame made of steel that holds three hundred pounds."


def test_a_repeated_paragraph_is_kept_once() -> None:
    body = _body(f"<div class=m><p>{_TEXT}</p></div><div class=d><p>{_TEXT}</p><p>Other.</p></div>")
    drop_repeated_blocks(body)
    assert _text(body).count("sturdy desk") == 1
    assert "Other." in _text(body)


def test_short_repeated_labels_stay() -> None:
    """A short label that every card repeats stays on each card."""
    cards = "".join(
        f"<li><a href=/{n}>{n}</a><p>Add to cart now</p></li>" for n in ("Desk", "Chair")
    )
    body = _body(f"<ul>{cards}</ul>")
    drop_repeated_blocks(body)
    assert _text(body).count("Add to cart") == 2


def test_repeats_in_tables_and_code_stay() -> None:
    row = "<tr><td>same value in every single row here</td><td>x</td></tr>"
    code = "print('the same line of code again and again')"
    body = _body(f"<table>{row}{row}</table><pre>{code}\n{code}</pre><pre>{code}</pre>")
    drop_repeated_blocks(body)
    assert _text(body).count("same value") == 2
    assert _text(body).count("same line of code") == 3


def test_copyright_lines_go_and_prose_about_copyright_stays() -> None:
    prose = " ".join(["The copyright on the design ran out, and all rights reserved lapsed."] * 3)
    body = _body(
        f"<p>{prose}</p><p>© 2026 Example Ltd.</p><div>Copyright 2024 Shop</div>"
        "<p>Example Inc. All rights reserved.</p>"
    )
    drop_legal_lines(body)
    assert _text(body) == prose


def test_page_extraction_drops_a_responsive_duplicate() -> None:
    intro = "Our standing desks are built from steel frames and solid wood tops in our workshop."
    cards = "".join(
        f"<li class=card><a href='/p{i}'><h3>Desk model {i}</h3></a><p>From ${i}00</p></li>"
        for i in range(12)
    )
    html = (
        f"<html><body><main><h1>Standing desks</h1><div class=intro-mobile><p>{intro}</p></div>"
        f"<ul class=grid>{cards}</ul><div class=intro-desktop><p>{intro}</p></div></main>"
        "<footer><p>© 2026 Desk Co. All rights reserved.</p></footer></body></html>"
    )
    extracted = extract_html(html)
    assert extracted.method == "page"
    assert extracted.text.count("our workshop") == 1
    assert extracted.text.count("Desk model") == 12
    assert "©" not in extracted.text


def test_an_article_keeps_its_repeats() -> None:
    question = "What inspired you to start cooking for a living, and what do you cook at home?"
    answers = "".join(
        f"<p><b>{question}</b></p><p>Chef {i} answers: "
        + " ".join(f"word{i}x{j}" for j in range(40))
        + "</p>"
        for i in range(4)
    )
    html = (
        '<html><head><meta property="og:type" content="article"></head><body><article>'
        f"<h1>Four chefs</h1>{answers}<p>© 2026 Wire Service. All rights reserved.</p>"
        "</article></body></html>"
    )
    extracted = extract_html(html)
    assert extracted.method == "readability"
    assert extracted.text.count("What inspired you") == 4
    assert "Wire Service" in extracted.text


@pytest.mark.timeout(60)
def test_deep_nesting_stays_linear() -> None:
    """20k nested blocks around a repeated paragraph are walked once: it is read one time."""
    # Built element by element: the HTML parser flattens nesting this deep before we see it.
    # (Building costs time quadratic in depth inside lxml: 20k levels take 1 s, 50k 10 s.)
    body = _body("<html><body></body></html>")
    el = body
    for _ in range(20_000):
        el = SubElement(el, "div")
    for _ in range(2):
        SubElement(el, "p").text = _TEXT
    drop_repeated_blocks(body)  # a quadratic walk would not finish here
    assert _text(body).count("sturdy desk") == 1
