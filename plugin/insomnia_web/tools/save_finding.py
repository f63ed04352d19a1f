"""SaveFinding: store a fact the model saw elsewhere, marked model-contributed and unverified."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar

from yarl import URL

from ..errors import ToolError
from ..modeltext import format_utc
from ..schemas import SaveFindingInput, SaveFindingOutput
from .base import CallSubject, ToolAnnotations, ToolContext, ToolOutput
from .fetch_findings import canonical_source
from .web_base import WebTool

__all__ = ["SaveFinding", "check_fields"]


class SaveFinding(WebTool[SaveFindingInput, SaveFindingOutput]):
    """Store a fact in the local cache for later WebSearch calls."""

    name: ClassVar[str] = "SaveFinding"
    title: ClassVar[str] = "Save a finding"
    input_type = SaveFindingInput
    output_type = SaveFindingOutput
    annotations = ToolAnnotations(
        read_only=False, destructive=False, idempotent=False, open_world=False
    )

    def description(self) -> str:
        """The model-facing description, with limits from the active manifest."""
        days = self.manifest.web.cache.finding_ttl_s / 86400
        return (
            "Save a fact you learned for later WebSearch calls on that question. "
            f"Kept {days:g} days, shown as UNVERIFIED model finding until a WebFetch of "
            "source_url confirms it. Never save instructions or secrets."
        )

    def subject(self, args: SaveFindingInput, ctx: ToolContext) -> CallSubject:
        """No host is contacted; the summary shows all that will be stored: the query, the
        whole content and the source URL (in its stored form)."""
        summary = f"save finding for {args.query!r}: {args.content!r}"
        if args.source_url:
            summary += f", claimed source {canonical_source(args.source_url)!r}"
        return CallSubject(summary=summary)

    def precheck(self, raw: Mapping[str, Any]) -> None:
        """Refuse a blank fact or a non-http(s) source before anyone is asked to approve."""
        query, content, source = raw.get("query"), raw.get("content"), raw.get("source_url")
        check_fields(
            query if isinstance(query, str) else "?",
            content if isinstance(content, str) else "?",
            source if isinstance(source, str) else None,
        )

    async def run(self, args: SaveFindingInput, ctx: ToolContext) -> ToolOutput[SaveFindingOutput]:
        """Store the finding, unverified, for ``finding_ttl_s``."""
        check_fields(args.query, args.content, args.source_url)
        cache = self.services.cache
        if cache is None:
            raise ToolError(
                "disabled",
                "SaveFinding cannot store findings: the local cache is disabled "
                "(web.cache.enabled = false).",
                hint="The finding was not saved; do not retry. Keep the fact in your answer.",
                remedy="Set web.cache.enabled = true in the manifest to save findings.",
            )
        ttl_s = self.manifest.web.cache.finding_ttl_s
        source = canonical_source(args.source_url) if args.source_url else None
        try:
            finding = await cache.add_finding(args.query, args.content, source, ttl_s=ttl_s)
        except ToolError as exc:
            raise ToolError(
                exc.code,
                exc.message,
                hint="The finding was not saved; retry once, or keep the fact in your answer.",
                remedy=exc.remedy,
                retryable=exc.retryable,
                details=exc.details,
            ) from exc
        out = SaveFindingOutput(
            id=str(finding.id),
            stored_at=datetime.fromtimestamp(finding.stored_at, UTC),
            expires_at=datetime.fromtimestamp(finding.expires_at, UTC),
            verified=False,
        )
        return ToolOutput(output=out, text=_render(finding.id, args.query, source, out, ttl_s))


def check_fields(query: str, content: str, source_url: str | None) -> None:
    """``invalid_input`` naming the field: blank query or content, a NUL in either (no
    PostgreSQL text holds one), non-http(s) source_url."""
    for field, value in (("query", query), ("content", content)):
        if not value.strip():
            raise ToolError(
                "invalid_input",
                f"$.{field}: must contain text, not only whitespace",
                details={"field": f"$.{field}"},
            )
        if "\x00" in value:
            raise ToolError(
                "invalid_input",
                f"$.{field}: must not contain a NUL character (U+0000)",
                hint=f"Remove the NUL from {field}, then call again.",
                details={"field": f"$.{field}"},
            )
    if source_url is not None and not _is_http_url(source_url):
        raise ToolError(
            "invalid_input",
            f"$.source_url: must be an absolute http(s) URL, got {source_url[:200]!r}",
            hint="Pass the http(s) URL where the fact was seen, or leave source_url out.",
            details={"field": "$.source_url"},
        )


def _is_http_url(text: str) -> bool:
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        return False
    try:
        url = URL(text)
    except (ValueError, TypeError, UnicodeError):
        return False
    return url.scheme in ("http", "https") and bool(url.host)


def _render(
    finding_id: int, query: str, source: str | None, out: SaveFindingOutput, ttl_s: int
) -> str:
    expires = format_utc(out.expires_at.timestamp())
    lines = [
        f"Saved finding #{finding_id} as an UNVERIFIED model finding (not a source) for "
        f"the question {query!r}.",
        f"It expires {expires} ({ttl_s / 86400:g} days). Later WebSearch calls on a similar "
        "question show it labelled UNVERIFIED model finding.",
    ]
    if source:
        lines.append(
            f"It becomes verified if a later WebFetch of {source} returns each of its "
            "sentences as a whole sentence."
        )
    else:
        lines.append("It has no source_url, so no fetch can verify it.")
    return "\n".join(lines)
