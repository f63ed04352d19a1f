"""WebSearch results as the model reads them: a provenance line, then numbered results.

::

    [cache: miss · brave]
    <<<UNTRUSTED WEB CONTENT>>>
    [1] Title - https://example.com/page
        Snippet text (2 days ago)
    <<<END UNTRUSTED WEB CONTENT>>>

Titles and snippets come from the web, so they sit inside the untrusted-content delimiters;
a title is shown without the words of it that read as an address
(:func:`~insomnia_web.modeltext.label_title`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..modeltext import label_title, one_line, wrap_untrusted
from ..schemas import ResultItem
from ..search.base import SearchHit

__all__ = ["EMPTY_HINT", "render_results", "result_items"]

EMPTY_HINT = (
    "Hint: broaden the query: use fewer or more general terms, drop quotes, or remove the "
    "freshness and domain filters."
)


def result_items(hits: Iterable[SearchHit], provider: str) -> list[ResultItem]:
    """Number *hits* from 1 in their order, as output items."""
    return [
        ResultItem(
            rank=rank, title=h.title, url=h.url, snippet=h.snippet, age=h.age, provider=provider
        )
        for rank, h in enumerate(hits, start=1)
    ]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render_results(
    items: Sequence[ResultItem],
    *,
    header: str,
    filtered: int = 0,
    warnings: Sequence[str] = (),
) -> str:
    """The model-facing text of a results-mode answer (see the module docstring)."""
    lines = [header]
    if items:
        blocks = []
        for item in items:
            title = label_title(item.title)
            block = f"[{item.rank}] {title} - {item.url}" if title else f"[{item.rank}] {item.url}"
            detail = _one_line(item.snippet)
            if item.age:
                detail = f"{detail} ({_one_line(item.age)})".lstrip()
            if detail:
                block += f"\n    {detail}"
            blocks.append(block)
        lines.append(wrap_untrusted("\n".join(blocks)))
    else:
        lines.append("No results.")
        lines.append(EMPTY_HINT)
    if filtered:
        noun = "result was" if filtered == 1 else "results were"
        lines.append(f"{filtered} {noun} hidden by the URL policy or a deny rule.")
    lines.extend(f"Warning: {one_line(w)}" for w in warnings)  # a provider's words too
    return "\n".join(lines)
