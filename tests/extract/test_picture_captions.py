"""Unnamed captions under a story's pictures leave readability's article; content beside a
picture stays."""

from __future__ import annotations

from insomnia_web.extract import extract_html

_STORY = "".join(
    f"<p>The council voted on the new bridge, paragraph {n}, after a long debate over costs, "
    "traffic and the river's wildlife, and work will start in the spring.</p>"
    for n in range(10)
)


def _page(extra: str) -> str:
    return (
        "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>Bridge</h1>{_STORY[:600]}{extra}{_STORY[600:]}</article>"
        "<footer><a href='/contact'>Contact</a></footer></body></html>"
    )


def test_a_caption_under_a_picture_goes() -> None:
    """The short text a theme sets under a picture, named neither caption nor credit, goes."""
    photo = (
        "<div class='visual'><picture><img src='/bridge.jpg' alt=''></picture>"
        "<div class='description'>The old bridge at dawn. Photo: Ana Ruiz</div></div>"
    )
    text = extract_html(_page(photo)).text
    assert "paragraph 9" in text
    assert "Ana Ruiz" not in text


def test_a_credit_after_the_image_in_a_paragraph_goes() -> None:
    """An emphasised line after the ``<img>`` in the same paragraph is that image's caption."""
    photo = "<p><img src='/river.jpg'><br><em>Figure 2: the river at high water.</em></p>"
    text = extract_html(_page(photo)).text
    assert "paragraph 9" in text
    assert "high water" not in text


def test_a_step_beside_its_picture_stays() -> None:
    """A how-to step in a list item keeps its text, though a picture stands beside it."""
    steps = (
        "<ol><li><p><img src='/step1.png'></p><p>Click Save to keep the drawing.</p></li>"
        "<li><p><img src='/step2.png'></p><p>Close the window when it is done.</p></li></ol>"
    )
    text = extract_html(_page(steps)).text
    assert "Click Save to keep the drawing." in text
    assert "Close the window when it is done." in text


def test_cards_of_a_grid_stay() -> None:
    """Boxes of a picture and a line, side by side with the same class, are a grid's cards."""
    cards = "".join(
        f"<div class='feature'><img src='/f{n}.png'><p>Feature {n} saves you an hour a week.</p>"
        "</div>"
        for n in range(3)
    )
    text = extract_html(_page(cards)).text
    assert "Feature 1 saves you an hour a week." in text


def test_a_picture_box_with_a_heading_stays() -> None:
    """A picture beside a headed block is a section of the page, not a caption."""
    box = (
        "<div class='service'><img src='/s.png'><div><h4>Fast delivery</h4>"
        "<p>Parts reach the site within a day.</p></div></div>"
    )
    text = extract_html(_page(box)).text
    assert "Parts reach the site within a day." in text
