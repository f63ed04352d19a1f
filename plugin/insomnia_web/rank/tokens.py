"""The one token estimator used for every budget in excerpt search.

``estimate_tokens`` approximates what a BPE tokenizer (the GPT/Claude family) would count,
without shipping a tokenizer. Two cheap rules of thumb, each wrong in a known direction:

- ``utf8_bytes / 4``: English prose averages about 4 characters per token. Counting UTF-8
  bytes instead of characters keeps the rule honest for non-Latin scripts: a CJK character is
  3 bytes and usually 1 token, which ``chars / 4`` would undercount by 4x.
- ``words * 1.3``: about 1.3 tokens per whitespace-separated word for English; it catches text
  with many short words, numbers and punctuation, where ``bytes / 4`` runs low.

The estimate is the larger of the two, rounded up, so a budget is rarely exceeded. Both
counts run in C (``str.encode`` and ``str.split``), so calling it for every passage is cheap.
"""

from __future__ import annotations

__all__ = ["BYTES_PER_TOKEN", "TOKENS_PER_WORD_X10", "estimate_tokens", "utf8_size"]

BYTES_PER_TOKEN = 4
TOKENS_PER_WORD_X10 = 13


def estimate_tokens(text: str) -> int:
    """Estimate how many LLM tokens *text* costs: ``ceil(max(utf8_bytes / 4, words * 1.3))``."""
    if not text:
        return 0
    by_bytes = -(-utf8_size(text) // BYTES_PER_TOKEN)
    by_words = -(-len(text.split()) * TOKENS_PER_WORD_X10 // 10)
    return max(by_bytes, by_words)


def utf8_size(text: str) -> int:
    """Size of *text* in UTF-8 bytes (without encoding it when it is ASCII)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
