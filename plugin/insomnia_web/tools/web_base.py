"""The base of insomnia-web's own tools: they share one :class:`~..services.WebServices`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import msgspec

from ..config import Manifest
from .base import Tool, ToolContext
from .services import WebServices

__all__ = ["WebTool", "fetch_allowed", "fetch_verdict"]

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


def fetch_verdict(ctx: ToolContext) -> Callable[[str], str]:
    """host -> the WebFetch verdict for it under *ctx*'s rules, without prompting anyone
    (``"allow"``, ``"ask"`` or ``"deny"``): what an excerpt search may read."""
    return lambda host: ctx.permission_for("WebFetch", host)


def fetch_allowed(ctx: ToolContext) -> Callable[[str], bool]:
    """Whether WebFetch may read a host without asking anyone, by *ctx*'s rules: what a
    page's robots.txt may be read from when it redirects to another host."""
    verdict = fetch_verdict(ctx)
    return lambda host: verdict(host) == "allow"
