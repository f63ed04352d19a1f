"""``AsyncClosing``: ``async with obj:`` calls ``await obj.aclose()`` on the way out."""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["AsyncClosing"]


class AsyncClosing:
    """Mixin for objects with an ``aclose()`` coroutine, usable as async context managers."""

    async def aclose(self) -> None:
        """Release what the object holds (the default holds nothing)."""
        return None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
