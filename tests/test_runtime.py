"""The reference runtime: registry, permission flow, prompts and history."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest

from insomnia_web import (
    AutoApprovePrompter,
    Manifest,
    MemoryHistory,
    PromptRequest,
    Runtime,
    Tool,
    ToolContext,
    ToolError,
    ToolOutput,
    hookimpl,
    parse_manifest,
)
from insomnia_web.errors import ManifestError, PluginError
from insomnia_web.history import PermissionEvent, ProgressEvent, ToolCallEvent, ToolResultEvent
from insomnia_web.prompts import Answer
from insomnia_web.tools.base import CallSubject, ToolAnnotations
from tests.plugins import echo_provider, policy_veto


class EchoIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Echo input."""

    host: str
    text: str = "hi"
    fail: str | None = None


class EchoOut(msgspec.Struct, kw_only=True):
    """Echo output."""

    text: str


class EchoTool(Tool[EchoIn, EchoOut]):
    """A fixture tool touching one host; can fail on request."""

    name: ClassVar[str] = "Echo"
    input_type = EchoIn
    output_type = EchoOut
    annotations = ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=False
    )

    def description(self) -> str:
        return "Echo the text."

    def subject(self, args: EchoIn, ctx: ToolContext) -> CallSubject:
        return CallSubject(domains=(args.host,), summary=f"echo {args.text!r} at {args.host}")

    async def run(self, args: EchoIn, ctx: ToolContext) -> ToolOutput[EchoOut]:
        ctx.progress("working", 1, 2)
        if args.fail == "tool":
            raise ToolError("timeout", "too slow", details={"phase": "total"})
        if args.fail == "bug":
            raise RuntimeError("boom")
        return ToolOutput(output=EchoOut(text=args.text), text=args.text)


class EchoPlugin:
    """Registers EchoTool."""

    __name__ = "echo-plugin"

    @hookimpl
    def register_tools(self, register: Callable[[Tool[Any, Any]], None]) -> None:
        register(EchoTool(Manifest()))


class RecordingPrompter:
    """Answers with a fixed answer and records what it was asked."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.requests: list[PromptRequest] = []

    async def ask(self, request: PromptRequest) -> Answer:
        self.requests.append(request)
        return self.answer


def make_runtime(
    permissions: dict[str, Any] | None = None,
    *,
    prompter: Any = None,
    plugins: tuple[object, ...] = (),
) -> Runtime:
    manifest = parse_manifest({"permissions": permissions or {}})
    return Runtime(
        manifest,
        prompter=prompter,
        plugins=(EchoPlugin(), *plugins),
        load_entrypoints=False,
        history=MemoryHistory(),
    )


def events(runtime: Runtime) -> list[Any]:
    assert isinstance(runtime.history, MemoryHistory)
    return runtime.history.events


def test_hook_register_tools_stamps_each_tool_with_its_plugin() -> None:
    """The built-in plugin registers WebSearch, WebFetch and SaveFinding under the name web."""
    runtime = Runtime(load_entrypoints=False)
    assert {n: r.plugin for n, r in runtime.tools.items()} == {
        "WebSearch": "web",
        "WebFetch": "web",
        "SaveFinding": "web",
    }


def test_disabled_tools_are_not_registered() -> None:
    """Tools the manifest disables are not registered at all."""
    manifest = parse_manifest({"web": {"fetch": {"enabled": False}, "cache": {"findings": False}}})
    assert set(Runtime(manifest, load_entrypoints=False).tools) == {"WebSearch"}
    off = parse_manifest({"web": {"enabled": False}})
    assert Runtime(off, load_entrypoints=False).tools == {}


def test_hook_register_search_providers_stamps_the_plugin_name() -> None:
    """A provider plugin registers through register_search_providers and is attributed to it."""
    runtime = Runtime(plugins=[echo_provider], load_entrypoints=False)
    reg = runtime.providers["echo"]
    assert reg.cls is echo_provider.EchoProvider
    assert reg.plugin == "tests.plugins.echo_provider"


def test_duplicate_tool_name_is_refused() -> None:
    """Two plugins registering one tool name is an error naming both plugins."""

    class Dup:
        __name__ = "dup-plugin"

        @hookimpl
        def register_tools(self, register: Callable[[Tool[Any, Any]], None]) -> None:
            register(EchoTool(Manifest()))

    with pytest.raises(PluginError, match=r"'Echo'.*dup-plugin|dup-plugin.*'Echo'"):
        make_runtime(plugins=(Dup(),))


def test_registering_a_non_tool_is_refused() -> None:
    """Registering something that is not a Tool is a PluginError naming the plugin."""

    class Bad:
        __name__ = "bad-plugin"

        @hookimpl
        def register_tools(self, register: Callable[[Any], None]) -> None:
            register("not a tool")

    with pytest.raises(PluginError, match="bad-plugin"):
        Runtime(plugins=[Bad()], load_entrypoints=False)


def test_misspelled_hook_is_an_error() -> None:
    """A plugin implementing an unknown hook fails at load time (check_pending)."""

    class Typo:
        __name__ = "typo-plugin"

        @hookimpl
        def register_tool(self, register: Any) -> None:
            """Misspelled on purpose."""

    with pytest.raises(PluginError, match="register_tool"):
        Runtime(plugins=[Typo()], load_entrypoints=False)


@pytest.mark.asyncio
async def test_allowed_call_leaves_events_in_order() -> None:
    """An allowed call records tool_call, permission, progress and tool_result, in order."""
    runtime = make_runtime({"allow": ["Echo"]})
    result = await runtime.call_tool("Echo", {"host": "a.example", "text": "yo"})
    assert result.ok
    assert result.text == "yo"
    assert result.output == {"text": "yo"}
    kinds = [type(e) for e in events(runtime)]
    assert kinds == [ToolCallEvent, PermissionEvent, ProgressEvent, ToolResultEvent]
    perm = events(runtime)[1]
    assert (perm.decision, perm.by, perm.rule) == ("allow", "rule", "Echo")
    assert {e.call_id for e in events(runtime)} == {result.call_id}


@pytest.mark.asyncio
async def test_deny_rule_beats_allow_rule() -> None:
    """A deny rule wins over an allow rule for the same call."""
    runtime = make_runtime({"allow": ["Echo"], "deny": ["Echo(domain:*.bad.example)"]})
    result = await runtime.call_tool("Echo", {"host": "x.bad.example"})
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert "Echo(domain:*.bad.example)" in result.error.message
    ok = await runtime.call_tool("Echo", {"host": "good.example"})
    assert ok.ok


@pytest.mark.asyncio
async def test_ask_calls_the_prompter_with_what_will_happen() -> None:
    """An ask decision calls the prompter, which sees the summary and domains."""
    prompter = RecordingPrompter("once")
    runtime = make_runtime({"ask": ["Echo"]}, prompter=prompter)
    result = await runtime.call_tool("Echo", {"host": "a.example", "text": "yo"})
    assert result.ok
    [req] = prompter.requests
    assert req.call.domains == ("a.example",)
    assert req.call.summary == "echo 'yo' at a.example"
    perm = next(e for e in events(runtime) if isinstance(e, PermissionEvent))
    assert (perm.decision, perm.by) == ("allow", "user")


@pytest.mark.asyncio
async def test_always_answer_is_remembered_per_domain() -> None:
    """Answering always allows later calls on that domain without asking, not other domains."""
    prompter = RecordingPrompter("always")
    runtime = make_runtime(prompter=prompter)  # default: ask
    assert (await runtime.call_tool("Echo", {"host": "a.example"})).ok
    assert (await runtime.call_tool("Echo", {"host": "a.example"})).ok
    assert len(prompter.requests) == 1
    assert runtime.permission_for("Echo", "a.example") == "allow"
    assert runtime.permission_for("Echo", "b.example") == "ask"


@pytest.mark.asyncio
async def test_default_prompter_denies_and_says_which_rule_to_add() -> None:
    """With no terminal, an ask is a denial whose hint names the allow rule to add."""
    runtime = make_runtime()
    result = await runtime.call_tool("Echo", {"host": "a.example"})
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert "Echo(domain:a.example)" in result.error.hint
    perm = next(e for e in events(runtime) if isinstance(e, PermissionEvent))
    assert (perm.decision, perm.by) == ("deny", "default")
    assert "nobody can be asked" in perm.reason


def test_pending_prompt_is_the_question_call_tool_would_ask() -> None:
    """pending_prompt returns the ask question, or None when no question would be asked."""
    runtime = make_runtime(
        {"allow": ["Echo(domain:ok.example)"]}, prompter=RecordingPrompter("once")
    )
    question = runtime.pending_prompt("Echo", {"host": "a.example", "text": "yo"})
    assert question is not None
    assert question.call.summary == "echo 'yo' at a.example"
    assert "default is ask" in question.reason
    assert runtime.pending_prompt("Echo", {"host": "ok.example"}) is None
    assert runtime.pending_prompt("Echo", {"host": 3}) is None
    assert runtime.pending_prompt("Nope", {}) is None


@pytest.mark.asyncio
async def test_pending_prompt_respects_session_grants() -> None:
    """After an always answer, the same domain needs no question."""
    runtime = make_runtime(prompter=RecordingPrompter("always"))
    assert (await runtime.call_tool("Echo", {"host": "a.example"})).ok
    assert runtime.pending_prompt("Echo", {"host": "a.example"}) is None
    assert runtime.pending_prompt("Echo", {"host": "b.example"}) is not None


@pytest.mark.asyncio
async def test_manifest_default_applies_without_opinions() -> None:
    """With no rule and no plugin opinion, permissions.default decides."""
    runtime = make_runtime({"default": "allow"})
    await runtime.call_tool("Echo", {"host": "a.example"})
    perm = next(e for e in events(runtime) if isinstance(e, PermissionEvent))
    assert (perm.decision, perm.by) == ("allow", "default")


@pytest.mark.asyncio
async def test_hook_check_permission_deny_vetoes_manifest_allow() -> None:
    """Any plugin's deny wins over the manifest's allow rule."""
    runtime = make_runtime({"allow": ["Echo"]}, plugins=(policy_veto,))
    vetoed = await runtime.call_tool("Echo", {"host": "veto.example"})
    assert vetoed.error is not None
    assert vetoed.error.code == "permission_denied"
    assert "vetoed" in vetoed.error.message


@pytest.mark.asyncio
async def test_plugin_ask_beats_allow_and_passes_its_prompt() -> None:
    """A plugin's ask outranks an allow rule, and its prompt text reaches the prompter."""
    prompter = RecordingPrompter("deny")
    runtime = make_runtime({"allow": ["Echo"]}, prompter=prompter, plugins=(policy_veto,))
    result = await runtime.call_tool("Echo", {"host": "ask.example"})
    assert not result.ok
    assert prompter.requests[0].prompt == "Really fetch ask.example?"


@pytest.mark.asyncio
@pytest.mark.parametrize(("answer", "names_rule"), [("deny", False), ("unavailable", True)])
async def test_a_refusal_names_an_allow_rule_only_when_nobody_declined(
    answer: Answer, names_rule: bool
) -> None:
    """A call the person declined is not answered with the allow rule that would overrule
    them; one that nobody could be asked about names it, as the person's remedy and in the
    model's hint, in the same words."""
    runtime = make_runtime({"ask": ["Echo"]}, prompter=RecordingPrompter(answer))
    result = await runtime.call_tool("Echo", {"host": "ask.example"})
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert ("Echo(domain:ask.example) to [permissions] allow" in result.error.hint) is names_rule
    remedy = "Add Echo(domain:ask.example) to [permissions] allow in the manifest."
    assert result.error.remedy == (remedy if names_rule else None)
    said = f"(The user can {remedy[0].lower()}{remedy[1:]})"
    assert result.error.hint.endswith(said) is names_rule


@pytest.mark.asyncio
async def test_a_host_plugin_speaks_for_a_tie_with_the_manifest_rules() -> None:
    """When a host's plugin and a manifest rule give the same level, the plugin's reason,
    rule and prompt are the ones used (pluggy's order: the last-loaded plugin first)."""
    prompter = RecordingPrompter("deny")
    runtime = make_runtime({"ask": ["Echo"]}, prompter=prompter, plugins=(policy_veto,))
    await runtime.call_tool("Echo", {"host": "ask.example"})
    assert prompter.requests[0].prompt == "Really fetch ask.example?"
    vetoed = make_runtime({"deny": ["Echo"]}, plugins=(policy_veto,))
    result = await vetoed.call_tool("Echo", {"host": "veto.example"})
    assert result.error is not None
    assert result.error.details["rule"] == "veto"
    assert "vetoed by the fixture plugin" in result.error.message


@pytest.mark.asyncio
async def test_invalid_input_names_the_field_and_skips_permission() -> None:
    """Invalid input returns invalid_input naming the field, before any permission check."""
    runtime = make_runtime({"allow": ["Echo"]})
    result = await runtime.call_tool("Echo", {"host": 3})
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert result.error.details["field"] == "$.host"
    assert [type(e) for e in events(runtime)] == [ToolCallEvent, ToolResultEvent]


@pytest.mark.asyncio
async def test_unknown_field_and_unknown_tool_are_invalid_input() -> None:
    """Unknown fields and unknown tool names are refused with invalid_input."""
    runtime = make_runtime({"allow": ["Echo"]})
    r1 = await runtime.call_tool("Echo", {"host": "a", "colour": 1})
    assert r1.error is not None
    assert r1.error.details["field"] == "$.colour"
    r2 = await runtime.call_tool("Nope", {})
    assert r2.error is not None
    assert r2.error.code == "invalid_input"
    assert "Echo" in r2.error.message


@pytest.mark.asyncio
async def test_tool_errors_become_results() -> None:
    """A ToolError becomes an error result with its code and hint, rendered for the model."""
    runtime = make_runtime({"allow": ["Echo"]})
    result = await runtime.call_tool("Echo", {"host": "a", "fail": "tool"})
    assert result.error is not None
    assert result.error.code == "timeout"
    assert result.error.retryable
    assert result.text.startswith("Error [timeout]: too slow\nHint: ")
    last = events(runtime)[-1]
    assert isinstance(last, ToolResultEvent)
    assert not last.ok
    assert last.error == result.error


@pytest.mark.asyncio
async def test_unexpected_exception_becomes_internal_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A bug in a tool becomes internal_error; the agent loop never sees an exception."""
    runtime = make_runtime({"allow": ["Echo"]})
    result = await runtime.call_tool("Echo", {"host": "a", "fail": "bug"})
    assert result.error is not None
    assert result.error.code == "internal_error"
    assert "boom" not in result.text  # no traceback details reach the model
    assert "boom" in caplog.text


@pytest.mark.asyncio
async def test_web_search_without_provider_is_not_configured() -> None:
    """WebSearch with no provider is registered and fails with not_configured."""
    runtime = Runtime(
        parse_manifest({"permissions": {"allow": ["WebSearch"]}}),
        load_entrypoints=False,
        prompter=AutoApprovePrompter(),
    )
    result = await runtime.call_tool("WebSearch", {"query": "hello"})
    assert result.error is not None
    assert result.error.code == "not_configured"
    await runtime.aclose()


@pytest.mark.asyncio
async def test_query_too_long_suggests_a_shorter_query() -> None:
    """An over-long query gives query_too_long with a suggestion that fits."""
    runtime = Runtime(load_entrypoints=False)
    result = await runtime.call_tool("WebSearch", {"query": "word " * 80})
    assert result.error is not None
    assert result.error.code == "query_too_long"
    suggestion = result.error.details["suggested_query"]
    assert len(suggestion.split()) == 50
    await runtime.aclose()


def test_hook_tracing_env_var_prints_hook_calls(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """INSOMNIA_TRACE_HOOKS=1 writes each hook call to stderr, the register hooks included."""
    monkeypatch.setenv("INSOMNIA_TRACE_HOOKS", "1")
    runtime = Runtime(load_entrypoints=False)
    runtime.permission_for("WebFetch", "a.example")
    err = capsys.readouterr().err
    for hook in ("register_tools", "register_search_providers", "check_permission"):
        assert hook in err


@pytest.mark.asyncio
async def test_preflight_failure_skips_the_permission_prompt() -> None:
    """A call that cannot run fails before anyone is asked to approve it."""

    class Unready(EchoTool):
        name: ClassVar[str] = "Unready"

        def preflight(self, args: EchoIn, ctx: ToolContext) -> None:
            raise ToolError("not_configured", "set web.echo.key")

    class UnreadyPlugin:
        __name__ = "unready"

        @hookimpl
        def register_tools(self, register: Callable[[Tool[Any, Any]], None]) -> None:
            register(Unready(Manifest()))

    prompter = RecordingPrompter("once")
    runtime = make_runtime(prompter=prompter, plugins=(UnreadyPlugin(),))
    result = await runtime.call_tool("Unready", {"host": "a.example"})
    assert result.error is not None
    assert result.error.code == "not_configured"
    assert prompter.requests == []
    assert [type(e) for e in events(runtime)] == [ToolCallEvent, ToolResultEvent]


@pytest.mark.asyncio
async def test_always_answer_covers_both_spellings_of_a_host() -> None:
    """An "always" grant for a Unicode host also covers its IDNA spelling."""
    runtime = make_runtime(prompter=RecordingPrompter("always"))
    assert (await runtime.call_tool("Echo", {"host": "bücher.example"})).ok
    assert runtime.permission_for("Echo", "xn--bcher-kva.example") == "allow"


class UnknownHostsTool(EchoTool):
    """A fixture tool that cannot say which hosts it will contact."""

    name: ClassVar[str] = "Roam"

    def subject(self, args: EchoIn, ctx: ToolContext) -> CallSubject:
        return CallSubject(summary="roam", hosts_unknown=True)


class RoamPlugin:
    """Registers UnknownHostsTool."""

    __name__ = "roam-plugin"

    @hookimpl
    def register_tools(self, register: Callable[[Tool[Any, Any]], None]) -> None:
        register(UnknownHostsTool(Manifest()))


@pytest.mark.asyncio
async def test_always_is_never_remembered_for_unknown_hosts() -> None:
    """Answering "always" for a call with unknown hosts allows that call only."""
    prompter = RecordingPrompter("always")
    runtime = make_runtime(prompter=prompter, plugins=(RoamPlugin(),))
    for _ in range(2):
        assert (await runtime.call_tool("Roam", {"host": "x"})).ok
    assert len(prompter.requests) == 2
    assert runtime.permission_for("Roam", "") == "ask"


@pytest.mark.asyncio
async def test_unknown_hosts_are_refused_by_domain_deny_rules() -> None:
    """A deny rule for some domain refuses a call whose hosts are unknown, and its hint
    suggests no rule."""
    runtime = make_runtime(
        {"allow": ["Roam"], "deny": ["Roam(domain:*.internal.example)"]}, plugins=(RoamPlugin(),)
    )
    result = await runtime.call_tool("Roam", {"host": "x"})
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert "[permissions]" not in result.error.hint
    assert runtime.permission_for("Roam", "xn--zz.internal.example") == "deny"
    assert runtime.permission_for("Roam", "ok.example") == "allow"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"host": "ok.example", "text": "a\ud800b"}, "$.text"),
        ({"host": "ok.example\udfff"}, "$.host"),
    ],
)
async def test_lone_surrogate_is_invalid_input(args: dict[str, Any], field: str) -> None:
    """A lone surrogate in any string argument is invalid_input naming the field, and the
    call is still recorded (with U+FFFD in its place)."""
    runtime = make_runtime({"allow": ["Echo"]})
    result = await runtime.call_tool("Echo", args)
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert result.error.details["field"] == field
    first = events(runtime)[0]
    assert isinstance(first, ToolCallEvent)
    assert "\ufffd" in msgspec.json.encode(first).decode()


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["text", "x"])
async def test_deeply_nested_input_is_invalid_input(key: str) -> None:
    """An argument nested thousands of lists deep is invalid_input naming the field, and
    the call is recorded: checking it raised RecursionError out of call_tool (and
    pending_prompt), which must never raise for a model's input."""
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    args = {"host": "ok.example", key: deep}
    runtime = make_runtime({"allow": ["Echo"]})
    assert runtime.pending_prompt("Echo", args) is None
    result = await runtime.call_tool("Echo", args)
    assert result.error is not None
    assert result.error.code == "invalid_input"
    assert result.error.details["field"].startswith(f"$.{key}[0][0]")
    assert "nested" in result.error.message
    assert [type(e) for e in events(runtime)] == [ToolCallEvent, ToolResultEvent]


class BrokenSink:
    """A history sink that always fails."""

    def append(self, event: Any) -> None:
        raise OSError("disk full")


@pytest.mark.asyncio
async def test_failing_history_sink_never_fails_the_call() -> None:
    """A history sink that raises is logged; call_tool still returns the result."""
    runtime = Runtime(
        parse_manifest({"permissions": {"allow": ["Echo"]}}),
        plugins=(EchoPlugin(),),
        load_entrypoints=False,
        history=BrokenSink(),
    )
    result = await runtime.call_tool("Echo", {"host": "ok.example"})
    assert result.ok


def test_unwritable_history_path_is_a_manifest_error(tmp_path: Path) -> None:
    """A history_path that cannot be written is refused when the runtime starts."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    manifest = parse_manifest({"web": {"history_path": str(blocker / "history.jsonl")}})
    with pytest.raises(ManifestError) as info:
        Runtime(manifest, load_entrypoints=False)
    assert info.value.key == "web.history_path"


@pytest.mark.parametrize(
    ("permissions", "key"),
    [
        ({"allow": ["WebFech(domain:x.example)"]}, "permissions.allow[0]"),
        ({"deny": ["Echo", "Ecko"]}, "permissions.deny[1]"),
    ],
)
def test_rule_for_an_unknown_tool_is_refused(permissions: dict[str, Any], key: str) -> None:
    """A rule naming no registered or built-in tool is refused at start, naming the key and
    the known tools."""
    with pytest.raises(ManifestError) as info:
        make_runtime(permissions)
    assert info.value.key == key
    assert "Echo, SaveFinding, WebFetch, WebSearch" in info.value.message


@pytest.mark.asyncio
async def test_rules_may_use_mcp_names_and_disabled_builtins() -> None:
    """web_fetch is WebFetch; a built-in tool disabled by the manifest may still have rules."""
    manifest = parse_manifest(
        {
            "web": {"search": {"enabled": False}},
            "permissions": {"allow": ["echo(domain:ok.example)", "WebSearch"]},
        }
    )
    runtime = Runtime(manifest, plugins=(EchoPlugin(),), load_entrypoints=False)
    assert (await runtime.call_tool("Echo", {"host": "ok.example"})).ok


@pytest.mark.asyncio
@pytest.mark.parametrize("answer", ["yes", "", None, True])
async def test_an_answer_the_prompter_may_not_give_is_a_denial(answer: Any) -> None:
    """A prompter answer other than once, always, deny or unavailable refuses the call."""
    runtime = make_runtime(prompter=RecordingPrompter(answer))
    result = await runtime.call_tool("Echo", {"host": "a.example"})
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert repr(answer) in result.error.message
    perm = next(e for e in events(runtime) if isinstance(e, PermissionEvent))
    assert (perm.decision, perm.by) == ("deny", "default")
    assert runtime.permission_for("Echo", "a.example") == "ask"


class FailingPrompter:
    """A host's prompter whose question cannot be put (its window went away)."""

    async def ask(self, request: PromptRequest) -> Answer:
        raise RuntimeError("the window is gone")


@pytest.mark.asyncio
async def test_a_prompter_that_raises_is_a_denial_naming_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A prompter that raises refuses the call as nobody answered, saying the prompter failed
    (not that the tool did), with a permission event and its traceback logged."""
    runtime = make_runtime(prompter=FailingPrompter())
    with caplog.at_level(logging.ERROR, logger="insomnia_web.runtime"):
        result = await runtime.call_tool("Echo", {"host": "a.example"})
    assert result.error is not None
    assert result.error.code == "permission_denied"
    assert "the prompter failed (RuntimeError)" in result.error.message
    perm = next(e for e in events(runtime) if isinstance(e, PermissionEvent))
    assert (perm.decision, perm.by) == ("deny", "default")
    assert any(r.exc_info and r.exc_info[0] is RuntimeError for r in caplog.records)
