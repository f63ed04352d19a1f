"""What a plugin author is told when a plugin misbehaves: each message names the plugin."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, ClassVar

import msgspec
import pytest

from insomnia_web import (
    Decision,
    Manifest,
    MockProvider,
    PluginError,
    PromptRequest,
    Reranker,
    Runtime,
    SearchProvider,
    Tool,
    ToolAnnotations,
    ToolCall,
    ToolContext,
    ToolOutput,
    hookimpl,
    parse_manifest,
)
from insomnia_web.prompts import Answer
from insomnia_web.runtime import SLOW_PERMISSION_S


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


class SlowCheck:
    """A permission plugin that takes its time, as one asking a server would."""

    __name__ = "slow-check"

    @hookimpl
    def check_permission(self, call: ToolCall, manifest: Manifest) -> Decision | None:
        time.sleep(SLOW_PERMISSION_S * 1.5)
        return None


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


def test_a_slow_check_permission_is_a_warning_naming_the_plugin(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A check_permission that holds the event loop longer than SLOW_PERMISSION_S is logged
    as a warning naming the plugin and the time; its answer still counts."""
    with caplog.at_level(logging.WARNING, logger="insomnia_web.runtime"):
        level = _runtime(SlowCheck()).permission_for("WebFetch", "example.com")
    assert level == "ask"
    assert "plugin 'slow-check' held the event loop for" in caplog.text
    assert "in check_permission" in caplog.text


def _finding() -> dict[str, Any]:
    """A valid SaveFinding input: the call never runs, as the permission step fails."""
    return {"query": "what is tea", "content": "Tea is a drink."}


class RaisesWhileRegistering:
    """A tool plugin whose register_tools has a bug."""

    __name__ = "broken-tools"

    @hookimpl
    def register_tools(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        raise RuntimeError("my bug")


class ReturnsItsRerankers:
    """A plugin that returns its classes instead of passing them to register."""

    __name__ = "returns-classes"

    @hookimpl
    def register_rerankers(self, register: Callable[[type[Reranker]], None]) -> list[Any]:
        return [Reranker]


class RegistersAToolClass:
    """A plugin that registers its tool class where an instance is wanted."""

    __name__ = "class-not-instance"

    @hookimpl
    def register_tools(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        register(Nameless)


class Nameless(Tool[Any, Any]):
    """A tool class that forgot its name."""

    def description(self) -> str:
        return "No name."

    async def run(self, args: Any, ctx: Any) -> Any:
        """Never called: the tool cannot be registered."""
        raise AssertionError


class RegistersANamelessTool:
    """A plugin whose tool has no name."""

    __name__ = "nameless-tool"

    @hookimpl
    def register_tools(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        register(Nameless(manifest))


class ClaimsBrave:
    """A plugin that registers a provider under a built-in provider's name."""

    __name__ = "claims-brave"

    @hookimpl
    def register_search_providers(self, register: Callable[[type[SearchProvider]], None]) -> None:
        register(MockProvider.named("brave", lambda request: []))


def test_a_register_hook_that_raises_is_a_plugin_error_naming_it() -> None:
    """An exception a register hook raises stops the runtime with a PluginError naming the
    plugin, the hook and the exception, which is kept as its cause."""
    with pytest.raises(PluginError) as caught:
        Runtime(plugins=[RaisesWhileRegistering()], load_entrypoints=False)
    assert caught.value.plugin == "broken-tools"
    assert caught.value.hook == "register_tools"
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert caught.value.message == (
        "plugin 'broken-tools' failed in register_tools: RuntimeError: my bug"
    )
    assert "INSOMNIA_PLUGINS" in caught.value.hint


def _refusal(plugin: object) -> PluginError:
    """The PluginError that stops a runtime with *plugin* registered."""
    with pytest.raises(PluginError) as caught:
        Runtime(plugins=[plugin], load_entrypoints=False)
    return caught.value


def test_hook_register_rerankers_return_value_is_refused() -> None:
    """A register hook that returns what it should register is refused naming the plugin."""
    refused = _refusal(ReturnsItsRerankers())
    assert refused.plugin == "returns-classes"
    assert refused.hook == "register_rerankers"
    assert "call register(...) once for each thing to register" in refused.message


def test_registering_a_tool_class_says_to_register_an_instance() -> None:
    """Registering a Tool subclass instead of an instance says how to register an instance;
    the TypeError register raised inside the hook is the cause."""
    refused = _refusal(RegistersAToolClass())
    assert refused.plugin == "class-not-instance"
    assert isinstance(refused.__cause__, TypeError)
    assert refused.message == (
        "plugin 'class-not-instance' registered the class Nameless, where a Tool instance "
        "is wanted: register(Nameless(manifest))"
    )


def test_registering_a_tool_without_a_name_is_refused() -> None:
    """A tool whose class sets no name is refused naming the plugin and the class."""
    refused = _refusal(RegistersANamelessTool())
    assert isinstance(refused.__cause__, TypeError)
    assert "Nameless of plugin 'nameless-tool' has no name" in refused.message


def test_a_duplicate_of_a_built_in_name_names_both_plugins_without_blame() -> None:
    """A provider named like a built-in one is refused naming both plugins, the first first."""
    refused = _refusal(ClaimsBrave())
    assert refused.plugin == "claims-brave"
    assert isinstance(refused.__cause__, ValueError)
    assert refused.message.startswith("plugins 'web' and 'claims-brave' both register")


class TextIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Some text."""

    text: str


class TextOut(msgspec.Struct, kw_only=True):
    """The text back."""

    text: str


class Sloppy(Tool[TextIn, TextOut]):
    """A tool that returns the wrong shapes on request."""

    name: ClassVar[str] = "Sloppy"
    input_type = TextIn
    output_type = TextOut
    annotations = ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=False
    )

    def description(self) -> str:
        return "Returns what it was asked to get wrong."

    async def run(self, args: TextIn, ctx: ToolContext) -> Any:
        if args.text == "dict":
            return {"text": "a"}
        return ToolOutput(output={"text": "a"}, text="a")


class SloppyPlugin:
    """Registers Sloppy."""

    __name__ = "sloppy-plugin"

    @hookimpl
    def register_tools(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        register(Sloppy(manifest))


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("text", "wanted"),
    [("dict", "returned dict, not a ToolOutput"), ("output", "output is dict, not TextOut")],
)
async def test_a_tool_run_of_the_wrong_shape_names_the_tool_and_its_plugin(
    text: str, wanted: str
) -> None:
    """A run that returns no ToolOutput of its output_type is internal_error naming both."""
    manifest = parse_manifest({"permissions": {"allow": ["Sloppy"]}})
    runtime = Runtime(manifest, plugins=[SloppyPlugin()], load_entrypoints=False)
    result = await runtime.call_tool("Sloppy", {"text": text})
    assert result.error is not None
    assert result.error.code == "internal_error"
    assert "Sloppy" in result.error.message
    assert "sloppy-plugin" in result.error.message
    assert wanted in result.error.message
    assert not result.error.retryable


class Misspelled:
    """A plugin whose hook name has a typo."""

    __name__ = "typo-plugin"

    @hookimpl
    def register_tool(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        """Misspelled on purpose: register_tools is meant."""


def test_a_misspelled_hook_names_the_plugin_and_the_hooks_there_are() -> None:
    """An unknown hook is refused naming the plugin by name and the closest real hook."""
    refused = _refusal(Misspelled())
    assert refused.plugin == "typo-plugin"
    message = refused.message
    assert "plugin 'typo-plugin'" in message
    assert "did you mean register_tools?" in message
    assert " object at 0x" not in message


class Unnamed:
    """A plugin object without a ``__name__``."""

    @hookimpl
    def register_rerankers(self, register: Callable[[type[Reranker]], None]) -> None:
        register(Quiet)


class Quiet(Reranker):
    """A reranker with no opinion."""

    name: ClassVar[str] = "quiet"

    def score(self, query: str, passages: Any) -> list[float]:
        return [0.0 for _ in passages]


def test_a_plugin_object_without_a_name_goes_by_its_class_name() -> None:
    """An object passed as a plugin without __name__ is named after its class, not an id."""
    runtime = Runtime(plugins=[Unnamed()], load_entrypoints=False)
    assert runtime.rerankers["quiet"].plugin == "Unnamed"
    two = Runtime(plugins=[Silent(), Silent()], load_entrypoints=False)
    assert {"Silent", "Silent-2"} <= {name for name, _ in two.pm.list_name_plugin()}


class Silent:
    """A plugin object that implements no hook."""


def test_built_in_tools_come_first_then_plugins_in_load_order() -> None:
    """Tools are listed built-ins first, then each plugin's in the order plugins were given."""
    manifest = parse_manifest({"permissions": {"allow": ["Sloppy"]}})
    runtime = Runtime(manifest, plugins=[SloppyPlugin()], load_entrypoints=False)
    assert [spec.name for spec in runtime.tool_specs()] == [
        "WebSearch",
        "WebFetch",
        "SaveFinding",
        "Sloppy",
    ]


class Spaced(Sloppy):
    """A tool whose name no permission rule could name."""

    name: ClassVar[str] = "Loud Echo"


class SpacedPlugin:
    """Registers Spaced."""

    __name__ = "spaced-plugin"

    @hookimpl
    def register_tools(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        register(Spaced(manifest))


def test_a_tool_name_no_rule_could_name_is_refused() -> None:
    """A tool name with a space is refused at registration, naming the plugin and the grammar."""
    with pytest.raises(PluginError, match=r"spaced-plugin.*'Loud Echo'.*letters, digits"):
        Runtime(plugins=[SpacedPlugin()], load_entrypoints=False)


class RegistersAnInstance:
    """A plugin that registers a reranker instance where the class is wanted."""

    __name__ = "instance-not-class"

    @hookimpl
    def register_rerankers(self, register: Callable[[Any], None]) -> None:
        register(Quiet())


def test_registering_an_instance_where_a_class_is_wanted_says_to_register_the_class() -> None:
    """A reranker instance registered in place of its class is refused saying what to write."""
    wanted = r"instance-not-class.*instance of Quiet.*register\(Quiet\)"
    with pytest.raises(PluginError, match=wanted):
        Runtime(plugins=[RegistersAnInstance()], load_entrypoints=False)


class Asker:
    """A prompter that records the questions and answers once."""

    def __init__(self) -> None:
        self.asked: list[PromptRequest] = []

    async def ask(self, request: PromptRequest) -> Answer:
        self.asked.append(request)
        return "once"


@pytest.mark.asyncio
async def test_a_tool_without_a_summary_is_asked_about_with_its_input() -> None:
    """A plugin tool that says no summary is put to the person with its input, never blank."""
    asker = Asker()
    runtime = Runtime(plugins=[SloppyPlugin()], load_entrypoints=False, prompter=asker)
    await runtime.call_tool("Sloppy", {"text": "hi"})
    [question] = asker.asked
    assert question.call.summary == 'run with {"text":"hi"}'
    long = runtime.pending_prompt("Sloppy", {"text": "x" * 500})
    assert long is not None
    assert len(long.call.summary) <= 200
    assert long.call.summary.endswith("…")


class ExtraArgument:
    """A plugin whose hook asks for an argument the hook does not have."""

    __name__ = "extra-arg"

    @hookimpl
    def check_permission(self, call: ToolCall, manifest: Manifest, extra: int) -> None:
        """Never called: the plugin cannot be registered."""


def test_a_hook_with_an_unknown_argument_is_one_line_naming_it() -> None:
    """A hook implementation asking for an argument the spec lacks is refused in one line
    naming the plugin, the implementation and the argument."""
    refused = _refusal(ExtraArgument())
    assert refused.plugin == "extra-arg"
    assert "\n" not in refused.message
    assert refused.message.startswith("plugin 'extra-arg': ")
    assert "check_permission(call: " in refused.message
    assert "{'extra'}" in refused.message
