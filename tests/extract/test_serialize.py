"""The HTML -> Markdown-like serializer (full mode shows it without pruning)."""

from __future__ import annotations

from insomnia_web.extract import extract_html


def full(body: str) -> str:
    """Full-mode text of a document with *body* inside ``<body>``."""
    return extract_html(f"<html><body>{body}</body></html>", mode="full").text


def test_headings_become_hashes() -> None:
    """Each heading level becomes that many ``#`` characters."""
    text = full("<h1>One</h1><h2>Two</h2><h6>Six</h6>")
    assert text.splitlines()[0] == "# One"
    assert "## Two" in text
    assert "###### Six" in text


def test_unordered_and_ordered_lists() -> None:
    """``ul`` items get ``- `` bullets and ``ol`` items numbers, nested lists are indented."""
    text = full("<ul><li>apple</li><li>pear<ol><li>first</li><li>second</li></ol></li></ul>")
    assert text.splitlines() == ["- apple", "- pear", "  1. first", "  2. second"]


def test_ordered_list_start() -> None:
    """An ``ol`` with ``start`` numbers its items from there."""
    assert full('<ol start="4"><li>d</li><li>e</li></ol>').splitlines() == ["4. d", "5. e"]


def test_table_as_markdown() -> None:
    """A data table becomes a Markdown table with its header row and a separator."""
    text = full(
        "<table><tr><th>Name</th><th>Age</th></tr>"
        "<tr><td>Ann</td><td>31</td></tr><tr><td>Bob|Jr</td><td>7</td></tr></table>"
    )
    assert text.splitlines() == [
        "| Name | Age |",
        "| --- | --- |",
        "| Ann | 31 |",
        "| Bob\\|Jr | 7 |",
    ]


def test_layout_table_cells_are_separated() -> None:
    """Cells of a table that nests another table are kept apart, never glued."""
    text = full(
        "<table><tr><td>left</td><td><table><tr><td>in</td><td>ner</td></tr></table></td>"
        "<td>right</td></tr></table>"
    )
    words = text.replace("|", " ").split()
    assert "left" in words
    assert "right" in words
    assert "leftright" not in text


def test_one_row_menu_table_is_not_a_markdown_table() -> None:
    """A one-row table of menu links stays plain text with its cells apart, not a table."""
    text = full(
        "<table><tr>"
        + "".join(f"<td><a href='/m{i}'>Menu item {i}</a></td>" for i in range(4))
        + "</tr></table>"
    )
    assert "|" not in text
    assert "Menu item 0" in text
    assert "Menu item 3" in text
    assert "0Menu" not in text


def test_link_heavy_and_presentation_tables_are_not_markdown_tables() -> None:
    """Tables of links and tables marked role=presentation are layout, as in readable mode."""
    links = (
        "<table><tr><td><a href='/a'>Alpha page</a></td><td><a href='/b'>Beta page</a></td></tr>"
        "<tr><td><a href='/c'>Gamma page</a></td><td><a href='/d'>Delta page</a></td></tr></table>"
    )
    layout = (
        "<table role='presentation'><tr><td>left</td><td>right</td></tr>"
        "<tr><td>below</td><td>end</td></tr></table>"
    )
    assert "|" not in full(links)
    assert "|" not in full(layout)


def test_pre_is_fenced_and_verbatim() -> None:
    """``pre`` content keeps its line breaks and indentation inside a code fence."""
    text = full("<p>Run:</p><pre>def f():\n    return   1</pre>")
    assert "```\ndef f():\n    return   1\n```" in text


def test_br_is_a_line_break() -> None:
    """``<br>`` ends the line."""
    assert full("<p>one<br>two<br/>three</p>").splitlines() == ["one", "two", "three"]


def test_adjacent_blocks_are_not_glued() -> None:
    """Words of adjacent blocks end up on separate lines, inline elements stay joined."""
    assert full("<div>foo</div><div>bar</div>") == "foo\nbar"
    assert full("<p><span>in</span><span>line</span> <b>bold</b></p>") == "inline bold"


def test_whitespace_collapsed_and_paragraphs_separated() -> None:
    """Runs of whitespace collapse to one space; paragraphs are separated by a blank line."""
    assert full("<p>  a \n\t b  </p><p>c</p>") == "a b\n\nc"


def test_link_text_kept() -> None:
    """Link text stays in the sentence (URLs are not needed)."""
    assert full('<p>see <a href="https://example.com/x">the docs</a> now</p>') == "see the docs now"


def test_scripts_styles_and_hidden_removed_in_full_mode() -> None:
    """Full mode still drops scripts, styles, templates and hidden elements."""
    text = full(
        "<script>var x = 1;</script><style>p {}</style><template>tpl</template>"
        "<p hidden>h1</p><p aria-hidden='true'>h2</p><p style='display: none'>h3</p>"
        "<p style='visibility:hidden'>h4</p><p>shown</p>"
    )
    assert text == "shown"


def test_unknown_elements_break_lines() -> None:
    """Custom elements are treated as blocks, so their words are not glued."""
    assert full("<x-card>one</x-card><x-card>two</x-card>") == "one\ntwo"


def test_adjacent_spans_keep_their_words_apart() -> None:
    """Two sibling spans with no space between them do not glue their words together."""
    text = full("<a href='/t'><span>The North Face</span><span>Wawona 6 Tent</span></a>")
    assert text == "The North Face Wawona 6 Tent"
    assert full("<p>un<b>believ</b>able</p>") == "unbelievable"


def test_adjacent_links_keep_their_labels_apart() -> None:
    """Sibling links with nothing between them (tag pills) are separate labels."""
    html = "<div><a href='/s'>SQL</a><a href='/d'>Data analytics</a><a href='/l'>Looker</a></div>"
    assert full(html) == "SQL Data analytics Looker"
    assert full("<p><a href='/a'>one</a>, <a href='/b'>two</a></p>") == "one, two"
