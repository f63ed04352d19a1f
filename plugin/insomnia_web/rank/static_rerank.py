"""The built-in ``"static"`` reranker: cosine similarity of static word embeddings.

It uses `wordllama <https://pypi.org/project/wordllama/>`_ (MIT; numpy-only inference), whose
wheel ships the weights and the tokenizer, installed by the optional extra ``rerank``
(``pip install 'insomnia-web[rerank]'``). Nothing is ever downloaded: the model is loaded from
the installed package folder with downloads disabled (wordllama would otherwise look for its
tokenizer in a cache folder and fetch what it misses). A missing package or model file is a
``not_configured`` error naming the extra.

A passage is embedded with its heading path and the title of its page, so a passage under
"Side effects" of a page about a drug matches a question about that drug's side effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from ..errors import ToolError
from .rerank import Reranker, RerankPassage

__all__ = ["EXTRA", "StaticReranker", "load_wordllama"]

EXTRA = "rerank"
"""The optional extra that installs the model."""
MAX_PASSAGE_CHARS = 2000


def _not_configured(reason: str) -> ToolError:
    return ToolError(
        "not_configured",
        f'web.pipeline.rerank = "static" needs the {EXTRA!r} extra: {reason}',
        hint=f"Tell the user to run: pip install 'insomnia-web[{EXTRA}]' (or set "
        'web.pipeline.rerank = "none"); do not retry.',
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
    """Scores passages by embedding similarity to the query (wordllama, 256 dimensions)."""

    name: ClassVar[str] = "static"

    def __init__(self, model: Any = None) -> None:
        """Load the bundled model (or use *model*, anything with ``embed(texts, norm=True)``)."""
        self.model = model if model is not None else load_wordllama()

    def score(self, query: str, passages: Sequence[RerankPassage]) -> Sequence[float]:
        """Cosine similarity of each passage (with its title and heading) to *query*."""
        if not passages:
            return []
        texts = [
            "\n".join(x for x in (p.title, p.heading or "", p.text[:MAX_PASSAGE_CHARS]) if x)
            for p in passages
        ]
        vectors = self.model.embed([query, *texts], norm=True)
        return [float(x) for x in vectors[1:] @ vectors[0]]
