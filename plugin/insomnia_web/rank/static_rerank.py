"""The built-in ``"static"`` reranker: cosine similarity of static word embeddings.

It uses `wordllama <https://pypi.org/project/wordllama/>`_ (MIT; numpy-only inference), whose
wheel ships the weights and the tokenizer, installed by the optional extra ``rerank``
(``pip install 'insomnia-web[rerank]'``). Nothing is ever downloaded: the model is loaded from
the installed package folder with downloads disabled (wordllama would otherwise look for its
tokenizer in a cache folder and fetch what it misses). A missing package or model file is a
``not_configured`` error naming the extra.

A passage is read with its heading path and the title of its page, so a passage under
"Side effects" of a page about a drug matches a question about that drug's side effects.
Its score is the mean of two similarities to the query, each min-max scaled over the
passages of the call:

- *pooled*: the cosine of the mean token embeddings of query and passage (wordllama's own
  sentence embedding), which rewards a passage on the query's topic;
- *max-sim*: for each distinct query token, its best cosine with any token of the passage,
  averaged over the query's tokens, which rewards a passage that says each thing the query
  asks about, in its own words ("jury" for "jurors", "gut" for "bowel").

Both come from one tokenization and the same embedding table. On the tuning half of
``bench/qa-dev.json`` the pair found more answers at 1000 tokens than either alone, and on
the check half no fewer (``bench/recall.py --ablate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from ..errors import ToolError, relay
from .rerank import Reranker, RerankPassage

__all__ = ["EXTRA", "StaticReranker", "load_wordllama"]

EXTRA = "rerank"
"""The optional extra that installs the model."""
_INSTALL = (
    f"Install the {EXTRA} extra (pip install 'insomnia-web[{EXTRA}]'), or set "
    'web.pipeline.rerank = "none".'
)
MAX_PASSAGE_CHARS = 2000


def _not_configured(reason: str) -> ToolError:
    return ToolError(
        "not_configured",
        f'web.pipeline.rerank = "static" needs the {EXTRA!r} extra: {reason}',
        hint=relay(_INSTALL, then="Do not retry."),
        remedy=_INSTALL,
        details={"key": "web.pipeline.rerank", "extra": EXTRA},
    )


def load_wordllama() -> Any:
    """The wordllama model from its installed package folder; never downloads."""
    try:
        import wordllama
    except ImportError as exc:
        raise _not_configured("the wordllama package is not installed") from exc
    folder = Path(wordllama.__file__).parent
    try:
        return wordllama.WordLlama.load(cache_dir=folder, disable_download=True)
    except (OSError, ValueError) as exc:  # FileNotFoundError: the wheel lacks the model
        raise _not_configured(f"its model could not be loaded ({exc})") from exc


class StaticReranker(Reranker):
    """Scores passages by static-embedding similarity to the query (wordllama, 256 dims)."""

    name: ClassVar[str] = "static"

    def __init__(self, model: Any = None) -> None:
        """Load the bundled model (or use *model*: anything with wordllama's ``tokenizer``, a
        ``tokenizers.Tokenizer``, and ``embedding``, a token x dimension array)."""
        self.model = model if model is not None else load_wordllama()

    def score(self, query: str, passages: Sequence[RerankPassage]) -> Sequence[float]:
        """The mean of the scaled pooled and max-sim similarities of each passage (with its
        title and heading) to *query* (see the module docstring)."""
        if not passages:
            return []
        pooled, max_sim = self.similarities(query, passages)
        return [(a + b) / 2 for a, b in zip(_scaled(pooled), _scaled(max_sim), strict=True)]

    def similarities(
        self, query: str, passages: Sequence[RerankPassage]
    ) -> tuple[list[float], list[float]]:
        """The pooled and the max-sim similarity of each passage to *query*, unscaled."""
        import numpy as np  # installed with wordllama; not a dependency of the core

        texts = [
            "\n".join(x for x in (p.title, p.heading or "", p.text[:MAX_PASSAGE_CHARS]) if x)
            for p in passages
        ]
        table = self.model.embedding
        encoded = self.model.tokenizer.encode_batch([query, *texts], add_special_tokens=False)
        ids = [
            np.clip(np.asarray(e.ids)[np.asarray(e.attention_mask, dtype=bool)], 0, len(table) - 1)
            for e in encoded
        ]
        pooled = [0.0] * len(passages)
        max_sim = [0.0] * len(passages)
        if not len(ids[0]):
            return pooled, max_sim
        query_vectors = _unit(table[np.unique(ids[0])])
        query_mean = _unit(table[ids[0]].mean(axis=0, keepdims=True))[0]
        for i, token_ids in enumerate(ids[1:]):
            if len(token_ids):
                rows = table[token_ids]
                pooled[i] = float(_unit(rows.mean(axis=0, keepdims=True))[0] @ query_mean)
                best = (query_vectors @ _unit(table[np.unique(token_ids)]).T).max(axis=1)
                max_sim[i] = float(best.mean())
        return pooled, max_sim


def _unit(rows: Any) -> Any:
    """*rows* (a 2-D array) scaled to unit length each (an all-zero row stays zero)."""
    import numpy as np

    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, 1e-12)


def _scaled(scores: list[float]) -> list[float]:
    """*scores* min-max scaled to ``[0, 1]``; all 0 when they are all equal."""
    low, high = min(scores), max(scores)
    span = high - low
    return [(s - low) / span if span > 0 else 0.0 for s in scores]
