"""A fixture plugin with permission opinions: deny veto.example, ask for ask.example."""

from __future__ import annotations

from insomnia_web import Decision, Manifest, ToolCall, hookimpl


@hookimpl
def check_permission(call: ToolCall, manifest: Manifest) -> Decision | None:
    """Deny veto.example, ask for ask.example, allow allow.example, no opinion otherwise."""
    if "veto.example" in call.domains:
        return Decision.deny(reason="veto.example is vetoed by the fixture plugin", rule="veto")
    if "ask.example" in call.domains:
        return Decision.ask(reason="fixture plugin asks", prompt="Really fetch ask.example?")
    if "allow.example" in call.domains:
        return Decision.allow(reason="fixture plugin allows")
    return None
