"""The reference host: load plugins, decide permissions, run tools, record history.

A Python agent runtime can embed :class:`Runtime` as it is, or copy its flow::

    validate input -> preflight (e.g. not_configured) -> permission (hooks; deny > ask >
      allow; none = manifest default) -> ask? prompter -> run -> result

Every call leaves ``tool_call``, ``permission`` (when the input was valid), any ``progress``
and one ``tool_result`` event in the history, in that order. Failures become results with
an error; they never raise out of :meth:`Runtime.call_tool`.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

import msgspec
from yarl import URL

from .closing import AsyncClosing
from .config import Manifest, validation_location
from .errors import ErrorInfo, ToolError
from .history import (
    HistorySink,
    JsonlHistory,
    MemoryHistory,
    MultiHistory,
    PermissionEvent,
    ProgressEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from .hosts.names import idna_host
from .modeltext import render_error
from .permissions import Decision, Level, ToolCall, combine
from .plugins import (
    RegisteredProvider,
    RegisteredReranker,
    RegisteredTool,
    collect_providers,
    collect_rerankers,
    collect_tools,
    make_plugin_manager,
)
from .prompts import DenyPrompter, Prompter, PromptRequest
from .search.base import SearchProvider
from .tools.base import Tool, ToolContext, ToolSpec, tool_spec

__all__ = ["Runtime", "ToolResult"]

log = logging.getLogger(__name__)

Who = Literal["rule", "user", "default"]


class ToolResult(msgspec.Struct, frozen=True, kw_only=True):
    """What the model receives for one call: text plus structured output, or an error."""

    call_id: str
    tool: str
    ok: bool
    text: str
    output: dict[str, Any] | None = None
    error: ErrorInfo | None = None
    truncated: bool = False
    duration_ms: int = 0


class _Prepared(NamedTuple):
    tool: Tool[Any, Any]
    args: Any
    ctx: ToolContext
    call: ToolCall


def _field_error(exc: msgspec.ValidationError) -> ToolError:
    """An ``invalid_input`` error naming the field (``$.count``) and the rule."""
    field, rule = validation_location(exc)
    return ToolError(
        "invalid_input",
        f"{field}: {rule}",
        hint=f"Fix {field} to follow the rule, then call again.",
        details={"field": field},
    )


class Runtime(AsyncClosing):
    """A host runtime for insomnia plugins.

    :param manifest: the manifest (defaults when omitted).
    :param prompter: asks a person on ``ask`` decisions; default denies (no terminal).
    :param history: where events go; default an in-memory list (``runtime.history``).
    :param plugins: extra plugin objects to register (tests, embedding hosts).
    :param load_entrypoints: load installed plugins from the ``insomnia`` entry-point group.
    :param ask_on_redirect: put a cross-host redirect to a host the rules ask about to the
        prompter, as a question of its own (a person who said ``--yes`` follows it like
        ``curl -L``); by default such a redirect is returned to the model instead.
    """

    def __init__(
        self,
        manifest: Manifest | None = None,
        *,
        prompter: Prompter | None = None,
        history: HistorySink | None = None,
        plugins: Iterable[object] = (),
        load_entrypoints: bool = True,
        ask_on_redirect: bool = False,
    ) -> None:
        self.manifest = manifest or Manifest()
        self.ask_on_redirect = ask_on_redirect
        self.prompter: Prompter = prompter or DenyPrompter()
        sink: HistorySink = history if history is not None else MemoryHistory()
        web = self.manifest.web
        if web.history_path:
            cap = int(web.history_max_mb * 1024 * 1024) or None
            jsonl = JsonlHistory(web.history_path, max_bytes=cap, backups=web.history_backups)
            sink = MultiHistory(sink, jsonl)
        self.history = sink
        self.pm = make_plugin_manager(plugins=plugins, load_entrypoints=load_entrypoints)
        self.tools: dict[str, RegisteredTool] = collect_tools(self.pm, self.manifest)
        self.providers: dict[str, RegisteredProvider] = collect_providers(self.pm)
        self._provider_classes = MappingProxyType(
            {name: reg.cls for name, reg in self.providers.items()}
        )
        self.rerankers: dict[str, RegisteredReranker] = collect_rerankers(self.pm)
        self._reranker_classes = MappingProxyType(
            {name: reg.cls for name, reg in self.rerankers.items()}
        )
        self._grants: set[tuple[str, str]] = set()
        self._closed = False

    # --- registry ----------------------------------------------------------------------

    def get_tool(self, name: str) -> Tool[Any, Any]:
        """The registered tool called *name* (``KeyError`` if none)."""
        return self.tools[name].tool

    @property
    def search_providers(self) -> Mapping[str, type[SearchProvider]]:
        """Provider classes by name (fixed when the runtime starts)."""
        return self._provider_classes

    def tool_specs(self) -> list[ToolSpec]:
        """What an LLM API needs to offer the registered tools to a model, in order.

        Each spec has the tool's name, title, description (with this manifest's limits),
        input and output JSON Schemas (refs inlined), behaviour annotations and the plugin
        that registered it.
        """
        return [tool_spec(reg.tool, plugin=reg.plugin) for reg in self.tools.values()]

    # --- permissions -------------------------------------------------------------------

    def decide(self, call: ToolCall) -> tuple[Decision, Literal["rule", "default"]]:
        """Combine every plugin's answer for *call*; no opinion means the manifest default."""
        answers = self.pm.hook.check_permission(call=call, manifest=self.manifest)
        decision = combine(answers)
        if decision is not None:
            return decision, "rule"
        level = self.manifest.permissions.default
        return Decision(level=level, reason=f"no rule matched; default is {level}"), "default"

    @staticmethod
    def _grant_keys(call: ToolCall) -> list[tuple[str, str]]:
        return [(call.tool, idna_host(d)) for d in call.domains or ("*",)]

    def _effective(self, call: ToolCall) -> tuple[Decision, Level, Who]:
        """The decision, and the level after this session's "always" answers."""
        decision, by = self.decide(call)
        if decision.level == "ask" and all(k in self._grants for k in self._grant_keys(call)):
            return decision, "allow", "user"
        return decision, decision.level, by

    def permission_for(self, tool: str, host: str) -> Level:
        """The verdict for *tool* on *host* without prompting (session grants count)."""
        call = ToolCall(id="probe", tool=tool, input={}, domains=(host.lower(),))
        return self._effective(call)[1]

    async def _settle(self, call: ToolCall) -> tuple[Level, Who, str, Decision]:
        """The final level of *call* after any prompt, recorded as a ``permission`` event."""
        decision, level, who = self._effective(call)
        reason = decision.reason
        if decision.level == "ask":
            if level == "allow":
                reason = "allowed always for this session"
            else:
                answer = await self.prompter.ask(
                    PromptRequest(
                        call=call,
                        reason=decision.reason,
                        rule=decision.rule,
                        prompt=decision.prompt,
                    )
                )
                if answer == "unavailable":
                    who, level = "default", "deny"
                    reason = f"{decision.reason}, and nobody can be asked here"
                else:
                    who = "user"
                    if answer == "always":
                        self._grants.update(self._grant_keys(call))
                    level = "deny" if answer == "deny" else "allow"
                    reason = f"user answered {answer}"
        self.history.append(
            PermissionEvent(
                call_id=call.id,
                decision="allow" if level == "allow" else "deny",
                by=who,
                rule=decision.rule,
                reason=reason,
            )
        )
        return level, who, reason, decision

    async def _authorize(self, call: ToolCall) -> None:
        level, who, reason, decision = await self._settle(call)
        if level != "allow":
            rule_hint = (
                f"add {call.tool}"
                + (f"(domain:{call.domains[0]})" if call.domains else "")
                + " to [permissions] allow"
            )
            raise ToolError(
                "permission_denied",
                f"{call.tool} call refused: {reason}.",
                hint="Do not retry this call; ask the user, or use another source. "
                f"(The user can {rule_hint}.)",
                details={"by": who, "rule": decision.rule},
            )

    async def _approve_hop(self, call_id: str, tool: str, location: str) -> Level:
        """The verdict for following a redirect of call *call_id* to *location*.

        ``allow`` and ``deny`` come from the rules (and this session's grants). An ``ask``
        is put to the prompter when ``ask_on_redirect`` is set, as its own question about
        the new host; ``ask`` is returned when nobody was asked or nobody could answer.
        """
        host = idna_host(URL(location).host or "")
        level = self.permission_for(tool, host)
        if level != "ask" or not self.ask_on_redirect:
            return level
        hop = ToolCall(
            id=call_id,
            tool=tool,
            input={"url": location},
            domains=(host,),
            summary=f"follow a redirect to {location}",
        )
        settled, who, _, _ = await self._settle(hop)
        if settled == "allow":
            return "allow"
        return "deny" if who == "user" else "ask"

    # --- calls -------------------------------------------------------------------------

    async def call_tool(
        self, name: str, args: Mapping[str, Any] | None = None, *, call_id: str | None = None
    ) -> ToolResult:
        """Validate, authorize and run one tool call; always returns a :class:`ToolResult`."""
        call_id = call_id or f"call_{secrets.token_hex(6)}"
        raw = dict(args or {})
        started = time.monotonic()
        self.history.append(ToolCallEvent(call_id=call_id, tool=name, input=raw))
        try:
            result = await self._call(name, raw, call_id)
        except ToolError as exc:
            info = exc.info()
            result = ToolResult(
                call_id=call_id, tool=name, ok=False, text=render_error(info), error=info
            )
        except Exception as exc:  # the agent loop must survive any tool bug
            log.exception("tool %s failed", name)
            info = ToolError(
                "internal_error", f"{name} failed unexpectedly: {type(exc).__name__}"
            ).info()
            result = ToolResult(
                call_id=call_id, tool=name, ok=False, text=render_error(info), error=info
            )
        duration_ms = int((time.monotonic() - started) * 1000)
        result = msgspec.structs.replace(result, duration_ms=duration_ms)
        self.history.append(
            ToolResultEvent(
                call_id=call_id,
                ok=result.ok,
                output=result.output,
                error=result.error,
                text=result.text,
                truncated=result.truncated,
                bytes=len(result.text.encode("utf-8")),
                duration_ms=duration_ms,
            )
        )
        return result

    def _prepare(self, name: str, raw: dict[str, Any], call_id: str) -> _Prepared:
        """Validate and preflight a call; the steps before permission, shared by all paths."""
        reg = self.tools.get(name)
        if reg is None:
            known = ", ".join(sorted(self.tools)) or "none"
            raise ToolError(
                "invalid_input",
                f"No tool named {name!r} is registered (available: {known}).",
                hint="Call one of the available tools.",
            )
        tool = reg.tool
        tool.precheck(raw)
        try:
            args = msgspec.convert(raw, tool.input_type, str_keys=True)
        except msgspec.ValidationError as exc:
            raise _field_error(exc) from exc
        ctx = ToolContext(
            call_id=call_id,
            manifest=self.manifest,
            progress=lambda m, d, t: self.history.append(
                ProgressEvent(call_id=call_id, message=m, done=d, total=t)
            ),
            permission_probe=self.permission_for,
            hop_approver=lambda tool, location: self._approve_hop(call_id, tool, location),
            search_providers=self.search_providers,
            rerankers=self._reranker_classes,
        )
        tool.preflight(args, ctx)
        subject = tool.subject(args, ctx)
        call = ToolCall(
            id=call_id, tool=name, input=raw, domains=subject.domains, summary=subject.summary
        )
        return _Prepared(tool=tool, args=args, ctx=ctx, call=call)

    def pending_prompt(
        self, name: str, args: Mapping[str, Any] | None = None
    ) -> PromptRequest | None:
        """The question :meth:`call_tool` would ask for this call, or ``None`` if it would not.

        For hosts that must ask before calling (a protocol where the client answers first).
        Invalid or unrunnable calls need no question: ``call_tool`` reports them directly.
        """
        try:
            prepared = self._prepare(name, dict(args or {}), "pending")
        except ToolError:
            return None
        decision, level, _ = self._effective(prepared.call)
        if level != "ask":
            return None
        return PromptRequest(
            call=prepared.call, reason=decision.reason, rule=decision.rule, prompt=decision.prompt
        )

    async def _call(self, name: str, raw: dict[str, Any], call_id: str) -> ToolResult:
        prepared = self._prepare(name, raw, call_id)
        await self._authorize(prepared.call)
        out = await prepared.tool.run(prepared.args, prepared.ctx)
        return ToolResult(
            call_id=call_id,
            tool=name,
            ok=True,
            text=out.text,
            output=msgspec.to_builtins(out.output),
            truncated=out.truncated,
        )

    # --- lifecycle ---------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close every tool once (network sessions, cache files)."""
        if self._closed:
            return
        self._closed = True
        for reg in self.tools.values():
            try:
                await reg.tool.aclose()
            except Exception:
                log.exception("closing tool %s failed", reg.tool.name)
