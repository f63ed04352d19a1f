"""What an excerpt costs against the token budget, label included.

The model sees each excerpt under a label line (``[n] Title - URL``; the title with its
whitespace collapsed, or the URL again when there is no title), a byline when the page
states its author or dates, a heading line when the passage has a heading path, and a blank
line between excerpts. The cost of an excerpt is
therefore ``estimate_tokens(label) + estimate_tokens(heading) + estimate_tokens(text)`` plus
:data:`SEPARATOR_TOKENS` for the line breaks. The label is priced with a three-digit ``[nnn]``
because ids are assigned only after selection. Pricing each part separately rounds each up,
so the total errs on the high side, as a budget should.
"""

from __future__ import annotations

from .tokens import estimate_tokens

__all__ = ["SEPARATOR_TOKENS", "excerpt_cost", "label_cost"]

SEPARATOR_TOKENS = 2


def label_cost(title: str, url: str, heading: str | None, byline: str | None = None) -> int:
    """Return the tokens spent on an excerpt's label, byline and heading lines and separators."""
    shown = " ".join(title.split()) or url  # what the label shows: an empty title shows the URL
    cost = estimate_tokens(f"[nnn] {shown} - {url}") + SEPARATOR_TOKENS
    if byline:
        cost += estimate_tokens(byline) + 1
    if heading:
        cost += estimate_tokens(heading) + 1
    return cost


def excerpt_cost(
    title: str, url: str, heading: str | None, text: str, byline: str | None = None
) -> int:
    """Return the full budget cost of one excerpt: label overhead plus its text."""
    return label_cost(title, url, heading, byline) + estimate_tokens(text)
