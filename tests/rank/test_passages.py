"""Splitting page text into passages."""

from __future__ import annotations

import random
import re

import pytest

from insomnia_web.rank.passages import MAX_HEADING_CHARS, MAX_WORDS, Passage, split_passages

SENTENCE = "The river carries fine silt from the northern hills to the delta."  # 12 words


def paragraph(sentences: int, tag: str = "") -> str:
    """Return a paragraph of *sentences* twelve-word sentences, optionally tagged."""
    return " ".join(f"{SENTENCE[:-1]} {tag}." if tag else SENTENCE for _ in range(sentences))


def bodies(text: str, passages: list[Passage]) -> list[str]:
    """Return the page slice of each passage."""
    return [text[p.start : p.end] for p in passages]


def test_offsets_index_the_page_text_exactly() -> None:
    """For every passage, page_text[start:end] is its text without any prefix."""
    text = "# Title\n\n" + "\n\n".join(paragraph(4, str(i)) for i in range(12))
    passages = split_passages(text)
    assert len(passages) > 1
    for p in passages:
        assert p.text(text) == p.prefix + text[p.start : p.end]
        assert text[p.start : p.end] == text[p.start : p.end].strip()


def test_passages_stay_within_the_word_limit() -> None:
    """Passages built from small paragraphs hold at most MAX_WORDS words."""
    text = "\n\n".join(paragraph(3) for _ in range(30))
    passages = split_passages(text)
    assert len(passages) >= 5
    assert all(len(body.split()) <= MAX_WORDS for body in bodies(text, passages))


def test_small_paragraphs_are_merged_up_to_the_limit() -> None:
    """Consecutive 36-word paragraphs are packed together rather than returned one by one."""
    text = "\n\n".join(paragraph(3) for _ in range(8))
    passages = split_passages(text)
    assert len(passages) < 8
    assert all(len(body.split()) >= 60 for body in bodies(text, passages)[:-1])


def test_passages_break_at_block_boundaries() -> None:
    """Each passage starts at the start of a paragraph and ends at the end of one."""
    paragraphs = [paragraph(5, f"p{i}") for i in range(10)]
    text = "\n\n".join(paragraphs)
    for body in bodies(text, split_passages(text)):
        blocks = body.split("\n\n")
        assert all(block in paragraphs for block in blocks)


def test_an_overlong_paragraph_is_split_at_sentence_ends() -> None:
    """A 240-word paragraph is cut only after a full stop."""
    text = paragraph(20)
    passages = split_passages(text)
    assert len(passages) >= 2
    for body in bodies(text, passages):
        assert body.endswith(".")
        assert body.startswith("The river")


def test_a_sentence_without_stops_is_cut_by_words() -> None:
    """A single 400-word run with no sentence end is still split into bounded pieces."""
    text = " ".join(f"word{i}" for i in range(400))
    passages = split_passages(text)
    assert len(passages) >= 3
    assert " ".join(bodies(text, passages)) == text


def test_heading_path_is_attached() -> None:
    """A passage under '## Linux' inside '# Install' carries the path 'Install > Linux'."""
    text = (
        "# Install\n\n" + paragraph(6) + "\n\n## Linux\n\n" + paragraph(6, "apt") + "\n\n"
        "## Windows\n\n" + paragraph(6, "msi") + "\n\n# Usage\n\n" + paragraph(6, "run")
    )
    tags = ("apt", "msi", "run")
    found = {
        next((t for t in tags if f" {t}." in text[p.start : p.end]), "intro"): p.heading
        for p in split_passages(text)
    }
    assert found == {
        "intro": "Install",
        "apt": "Install > Linux",
        "msi": "Install > Windows",
        "run": "Usage",
    }


def test_passage_never_ends_on_a_dangling_heading() -> None:
    """A heading that starts a new section begins the next passage, not the previous one."""
    text = paragraph(10) + "\n\n## Next part\n\n" + paragraph(10, "next")
    passages = split_passages(text)
    assert not any(text[p.start : p.end].endswith("Next part") for p in passages)
    assert any(text[p.start : p.end].startswith("## Next part") for p in passages)


def table(rows: int) -> str:
    """Return a Markdown table with a header row and *rows* body rows."""
    body = "\n".join(f"| item {i} | {paragraph(1)} |" for i in range(rows))
    return "| Name | Description |\n|---|---|\n" + body


def test_a_split_table_repeats_its_header_row() -> None:
    """Every chunk of a long table starts with the header row and separator."""
    text = table(30)
    passages = split_passages(text)
    assert len(passages) >= 2
    for p in passages:
        assert p.text(text).startswith("| Name | Description |\n|---|---|\n")
    later = passages[1:]
    assert all(p.prefix == "| Name | Description |\n|---|---|\n" for p in later)
    assert all(text[p.start : p.end].startswith("| item") for p in later)


def test_fenced_code_stays_in_one_piece() -> None:
    """A short fenced code block is never cut, even with blank lines inside it."""
    code = "```python\nimport os\n\n\nprint(os.getcwd())\n```"
    text = paragraph(8) + "\n\n" + code + "\n\n" + paragraph(8)
    assert any(code in body for body in bodies(text, split_passages(text)))


def test_list_items_are_units() -> None:
    """A long list is split between items, never inside one."""
    items = [f"- {paragraph(2, f'item{i}')}" for i in range(15)]
    text = "\n".join(items)
    for body in bodies(text, split_passages(text)):
        assert all(line in items for line in body.split("\n"))


def test_empty_and_blank_text_have_no_passages() -> None:
    """Empty or whitespace-only text yields no passages."""
    assert split_passages("") == []
    assert split_passages(" \n\n\t \n") == []


def test_unicode_text_keeps_exact_offsets() -> None:
    """Offsets stay exact for accented, CJK and emoji text with unusual line breaks."""
    text = (
        "# Café 東京\n\nÉté à Paris 🌞. Ça va très bien.\u2028Deuxième ligne.\n\n"
        "東京都庁は新宿区にあります。とても大きいです。\r\n\r\n- élément un\n- élément deux"
    )
    passages = split_passages(text, min_words=1, max_words=5)
    assert passages
    for p in passages:
        body = text[p.start : p.end]
        assert body
        assert body == body.strip()
    joined = re.sub(r"\s+", "", "".join(bodies(text, passages)))
    assert joined == re.sub(r"\s+", "", text)


def test_overlong_headings_are_shortened_in_the_path() -> None:
    """A heading title longer than MAX_HEADING_CHARS is cut with an ellipsis in the path."""
    title = "word " * 40
    text = f"## {title}\n\n" + paragraph(6)
    (passage,) = split_passages(text)
    assert passage.heading is not None
    assert len(passage.heading) == MAX_HEADING_CHARS
    assert passage.heading.endswith("…")
    assert text[passage.start : passage.end].startswith(f"## {title.strip()}")


def test_heading_closing_hashes_are_dropped_but_not_part_of_a_word() -> None:
    """'## Title ##' gives 'Title', '## C#' keeps 'C#', and '#tag' is not a heading."""
    assert [p.heading for p in split_passages("## Title ##\n\nbody")] == ["Title"]
    assert [p.heading for p in split_passages("## C#\n\nbody")] == ["C#"]
    assert [p.heading for p in split_passages("#tag\n\nbody")] == [None]


@pytest.mark.timeout(10)
def test_heading_with_a_huge_space_run_is_parsed_in_linear_time() -> None:
    """A heading line holding 200k spaces is parsed (a backtracking regex would never end)."""
    text = "# a" + " " * 200_000 + "b\n\nbody"
    assert [p.heading for p in split_passages(text)] == ["a…"]


LINE_KINDS = (
    "# Heading one",
    "### Deep heading ###",
    "- list item with some words",
    "1. numbered item",
    "| a | b |",
    "|---|---|",
    "```",
    "~~~",
    "",
    "   ",
    "Plain sentence here. Another one follows!",
    "東京都庁は新宿区にあります。",
    "word " * 90,
    "[link](https://example.com/a_(b))",
    "\t indented continuation",
)


def test_random_markdown_keeps_every_character_in_order() -> None:
    """On seeded random Markdown-like pages, passages are ordered, disjoint, exact and cover
    every non-space character of the page."""
    rng = random.Random(1234)
    for _ in range(300):
        lines = [rng.choice(LINE_KINDS) for _ in range(rng.randint(0, 60))]
        text = rng.choice(["\n", "\r\n", "\n\n"]).join(lines)
        passages = split_passages(text)
        previous_end = 0
        for p in passages:
            assert previous_end <= p.start < p.end <= len(text)
            body = text[p.start : p.end]
            assert body == body.strip()
            assert p.text(text).endswith(body)
            previous_end = p.end
        covered = "".join(bodies(text, passages))
        assert re.sub(r"\s+", "", covered) == re.sub(r"\s+", "", text)


def test_an_overlong_cjk_paragraph_is_split_at_its_full_stops() -> None:
    """A Japanese paragraph too long for one passage is cut after a 。, though no space
    follows it, not in the middle of a sentence."""
    text = "これは長い段落の一文です。" * 60
    passages = split_passages(text)
    assert len(passages) > 1
    assert all(text[p.start : p.end].endswith("。") for p in passages)
