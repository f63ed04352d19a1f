"""The base of insomnia-web's own tools: they share one :class:`~..services.WebServices`."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from ..config import Manifest
from .base import Tool
from .services import WebServices

__all__ = ["WebTool"]

InT = TypeVar("InT", bound=msgspec.Struct)
OutT = TypeVar("OutT", bound=msgspec.Struct)


class WebTool(Tool[InT, OutT]):
    """A tool using the shared client, cache and providers (built lazily, closed once)."""

    def __init__(self, manifest: Manifest, services: WebServices | None = None) -> None:
        super().__init__(manifest)
        self.services = services or WebServices(manifest)

    async def aclose(self) -> None:
        """Release the shared client, cache and providers (once for all tools)."""
        await self.services.aclose()
