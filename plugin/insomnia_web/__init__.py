"""insomnia-web: bounded, observable web tools for LLM agent runtimes."""

from __future__ import annotations

__all__: list[str] = []
