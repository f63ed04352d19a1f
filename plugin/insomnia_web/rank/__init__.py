r"""Passage ranking for excerpt search: split pages, rank passages, dedup, fit a token budget.

Pure and synchronous: no I/O, no event loop. The pipeline calls :func:`select_excerpts`
with the fetched pages of one search and renders what it returns:

>>> page = "# Install\n\nRun `pip install tokio-py`.\n\n# License\n\nMIT."
>>> docs = [
...     SourceDoc(url="https://a.example/", title="Docs", text=page, rank=1),
...     SourceDoc(url="https://b.example/", title="Blog", text="", rank=2,
...               snippet="How to install tokio-py on Linux."),
... ]
>>> for e in select_excerpts("install tokio-py", docs, max_tokens=200):
...     print(e.id, e.kind, e.heading, repr(e.text), e.start, e.end)
1 page Install 'Run `pip install tokio-py`.\n\n# License\n\nMIT.' 11 55
2 snippet None 'How to install tokio-py on Linux.' -1 -1

(Sections shorter than ``MIN_WORDS`` merge, so this small page is one passage; its leading
heading line is left out of the text, since the heading path says it.) Excerpts are meant
to be shown grouped by source under one label line ``[id] title - url`` each (plus a
heading line where the title does not say it); :mod:`insomnia_web.rank.budget` prices that
layout into ``max_tokens``.
"""

from __future__ import annotations

from .models import Excerpt, SourceDoc
from .ranker import Method, select_excerpts
from .tokens import estimate_tokens

__all__ = ["Excerpt", "Method", "SourceDoc", "estimate_tokens", "select_excerpts"]
