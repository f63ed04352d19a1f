"""What a plugin author is told when a plugin misbehaves: each message names the plugin."""

from __future__ import annotations

from typing import Any

import pytest

from insomnia_web import Decision, Manifest, Runtime, ToolCall, hookimpl, parse_manifest


class WordNotDecision:
    """A permission plugin that answers with a word instead of a Decision."""

    __name__ = "word-answers"

    @hookimpl
    def check_permission(self, call: ToolCall, manifest: Manifest) -> Any:
        return "deny"


class RaisingCheck:
    """A permission plugin with a bug."""

    __name__ = "buggy-check"

    @hookimpl
    def check_permission(self, call: ToolCall, manifest: Manifest) -> Decision | None:
        raise KeyError("boom")


def _runtime(plugin: object) -> Runtime:
    manifest = parse_manifest({"permissions": {"allow": ["SaveFinding"]}})
    return Runtime(manifest, plugins=[plugin], load_entrypoints=False)


@pytest.mark.asyncio
async def test_hook_check_permission_answer_that_is_not_a_decision_names_the_plugin() -> None:
    """A check_permission answer that is not a Decision or None fails the call naming it."""
    result = await _runtime(WordNotDecision()).call_tool("SaveFinding", _finding())
    assert result.error is not None
    assert result.error.code == "internal_error"
    assert "word-answers" in result.error.message
    assert "'deny'" in result.error.message
    assert not result.error.retryable


@pytest.mark.asyncio
async def test_hook_check_permission_that_raises_names_the_plugin() -> None:
    """A check_permission that raises fails the call with internal_error naming the plugin."""
    result = await _runtime(RaisingCheck()).call_tool("SaveFinding", _finding())
    assert result.error is not None
    assert result.error.code == "internal_error"
    assert "buggy-check" in result.error.message
    assert "KeyError" in result.error.message
    assert not result.error.retryable


def test_pending_prompt_of_a_failing_permission_plugin_is_none() -> None:
    """pending_prompt asks nothing when a permission plugin fails; call_tool reports it."""
    assert _runtime(RaisingCheck()).pending_prompt("SaveFinding", _finding()) is None


def _finding() -> dict[str, Any]:
    """A valid SaveFinding input: the call never runs, as the permission step fails."""
    return {"query": "what is tea", "content": "Tea is a drink."}
