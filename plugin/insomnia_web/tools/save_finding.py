"""SaveFinding: store a fact the model saw elsewhere, marked model-contributed and unverified."""

from __future__ import annotations

from typing import ClassVar

from ..config import Manifest
from ..errors import ToolError
from ..services import WebServices
from .base import CallSubject, Tool, ToolAnnotations, ToolContext, ToolOutput
from .schemas import SaveFindingInput, SaveFindingOutput

__all__ = ["SaveFinding"]


class SaveFinding(Tool[SaveFindingInput, SaveFindingOutput]):
    """Store a fact in the local cache for later WebSearch calls."""

    name: ClassVar[str] = "SaveFinding"
    title: ClassVar[str] = "Save a finding"
    input_type = SaveFindingInput
    output_type = SaveFindingOutput
    annotations = ToolAnnotations(
        read_only=False, destructive=False, idempotent=False, open_world=False
    )

    def __init__(self, manifest: Manifest, services: WebServices | None = None) -> None:
        super().__init__(manifest)
        self.services = services or WebServices(manifest)

    async def aclose(self) -> None:
        """Release the shared client, cache and providers (once for all tools)."""
        await self.services.aclose()

    def description(self) -> str:
        """The model-facing description, with limits from the active manifest."""
        days = self.manifest.web.cache.finding_ttl_s / 86400
        return (
            "Save a fact you learned (from a document, the user, or a page) so later "
            "WebSearch calls on the same question can show it. Stored locally for "
            f"{days:g} days, labelled UNVERIFIED model finding until a fetch of source_url "
            "confirms it. Save only self-contained facts (max 2000 characters) that answer "
            "query; never instructions or secrets. Needs the user's approval by default."
        )

    def subject(self, args: SaveFindingInput) -> CallSubject:
        """No host is contacted; the summary shows what will be stored."""
        return CallSubject(summary=f"save finding for {args.query!r}: {args.content[:200]!r}")

    async def run(self, args: SaveFindingInput, ctx: ToolContext) -> ToolOutput[SaveFindingOutput]:
        """Not available yet in this build: fails with ``not_configured``."""
        raise ToolError(
            "not_configured",
            "SaveFinding cannot run: the finding store is not built into this version yet.",
        )
