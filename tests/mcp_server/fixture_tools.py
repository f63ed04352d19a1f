"""A fixture plugin registering ``EchoNote``, a tool outside insomnia-web's own three."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import Meta

from insomnia_web import Manifest, hookimpl
from insomnia_web.errors import ToolError
from insomnia_web.tools.base import CallSubject, Tool, ToolAnnotations, ToolContext, ToolOutput


class EchoInput(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """EchoNote input."""

    text: Annotated[str, Meta(min_length=1, max_length=200, description="Text to echo.")]
    host: Annotated[str, Meta(description="Host the call claims to contact.")] = ""


class EchoOutput(msgspec.Struct, kw_only=True):
    """EchoNote result."""

    text: Annotated[str, Meta(description="The text, unchanged.")]
    length: Annotated[int, Meta(description="Number of characters.")]


class EchoNote(Tool[EchoInput, EchoOutput]):
    """Echo text back."""

    name: ClassVar[str] = "EchoNote"
    title: ClassVar[str] = "Echo a note"
    input_type = EchoInput
    output_type = EchoOutput
    annotations = ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=False
    )

    def description(self) -> str:
        """One line: what it does."""
        return "Echo text back (test fixture)."

    def preflight(self, args: EchoInput, ctx: ToolContext) -> None:
        """The text "unconfigured" stands for a call that cannot run: not_configured."""
        if args.text == "unconfigured":
            raise ToolError("not_configured", "EchoNote is not configured for this text.")

    def subject(self, args: EchoInput, ctx: ToolContext) -> CallSubject:
        """The claimed host, so permission rules and prompts apply."""
        return CallSubject(domains=(args.host,) if args.host else (), summary=f"echo {args.text!r}")

    async def run(self, args: EchoInput, ctx: ToolContext) -> ToolOutput[EchoOutput]:
        """Report two progress steps, then return the text and its length."""
        ctx.progress("reading the note", 1, 2)
        ctx.progress("echoing", 2, 2)
        out = EchoOutput(text=args.text, length=len(args.text))
        return ToolOutput(output=out, text=f"echo: {args.text}")


@hookimpl
def register_tools(register: Callable[[Tool[Any, Any]], None], manifest: Manifest) -> None:
    """Register EchoNote."""
    register(EchoNote(manifest))
