"""The reference host: load plugins, decide permissions, run tools, record history.

A Python agent runtime can embed :class:`Runtime` as it is, or copy its flow::

    validate input -> preflight (e.g. not_configured) -> permission (hooks; deny > ask >
      allow; none = manifest default) -> ask? prompter -> run -> result

Every call leaves ``tool_call``, ``permission`` (when the input was valid), any ``progress``
and one ``tool_result`` event in the history, in that order. Failures become results with
an error; they never raise out of :meth:`Runtime.call_tool`. A call stopped from outside
(its task cancelled, Ctrl-C) ends with a ``tool_result`` whose error code is ``cancelled``,
written before the cancellation propagates.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, NoReturn, get_args

import msgspec

from .closing import AsyncClosing
from .config import Manifest, validation_location
from .errors import ErrorInfo, ManifestError, ToolError, plugin_remedy, relay
from .history import (
    Event,
    HistorySink,
    JsonlHistory,
    MemoryHistory,
    MultiHistory,
    PermissionEvent,
    ProgressEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from .hosts.addresses import parse_ip
from .hosts.names import idna_host, syntax_problem
from .modeltext import one_line, render_error
from .permissions import Decision, Level, ToolCall, combine
from .plugins import (
    RegisteredProvider,
    RegisteredReranker,
    RegisteredTool,
    check_names,
    collect_providers,
    collect_rerankers,
    collect_tools,
    make_plugin_manager,
    plugin_callers,
)
from .prompts import Answer, DenyPrompter, Prompter, PromptRequest
from .search.base import SearchProvider
from .textcheck import MAX_DEPTH, MAX_INT, first_bad_input, recordable
from .tools.base import CallSubject, Tool, ToolContext, ToolOutput, ToolSpec, tool_spec

if TYPE_CHECKING:
    from .net.client import SafeClient

__all__ = ["Runtime", "ToolResult"]

log = logging.getLogger(__name__)

Who = Literal["rule", "user", "default"]

_ANSWERS: tuple[str, ...] = get_args(Answer)
"""What a prompter may answer; anything else refuses the call rather than allowing it."""


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


def _cancel_requested() -> bool:
    """Whether the running task was asked to stop (``task.cancel()``), not just handed a
    cancelled future."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


_BAD_INPUT: dict[str, tuple[str, str]] = {
    "nested": (
        f"nested more than {MAX_DEPTH} lists or objects deep",
        "as the tool's schema describes it",
    ),
    "surrogate": (
        "contains a lone surrogate code point, which is not valid Unicode text",
        "as valid UTF-8 text",
    ),
    "integer": (
        "the integer is outside the 64-bit range",
        f"as an integer between {-MAX_INT - 1} and {MAX_INT}",
    ),
}
"""What is wrong with an input value, and how to send it instead, by
:func:`~insomnia_web.textcheck.first_bad_input`'s reason."""


def _refuse_input(field: str, why: str) -> NoReturn:
    """Raise ``invalid_input`` naming *field*, a string with a lone surrogate (*why*
    ``"surrogate"``), an integer beyond the 64-bit range (``"integer"``) or lists and
    mappings nested too deep (``"nested"``)."""
    problem, instead = _BAD_INPUT[why]
    raise ToolError(
        "invalid_input",
        f"{field}: {problem}",
        hint=f"Send {field} {instead}.",
        details={"field": field},
    )


def _failed(call_id: str, name: str, exc: ToolError) -> ToolResult:
    info = exc.info()
    return ToolResult(call_id=call_id, tool=name, ok=False, text=render_error(info), error=info)


def _stops_the_host(exc: BaseException) -> bool:
    """True for what asks the whole program to stop (Ctrl-C, ``SystemExit``), alone or in a
    group; any other ``BaseException`` a tool raises is a failure of that call."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup((KeyboardInterrupt, SystemExit)) is not None
    return isinstance(exc, KeyboardInterrupt | SystemExit)


def _unexpected(name: str, what: str) -> ToolError:
    return ToolError("internal_error", f"{name} failed unexpectedly: {what}")


SLOW_PERMISSION_S = 0.05
"""A plugin's ``check_permission`` that takes longer is logged as a warning: it runs on the
event loop, so every call in flight waited for it."""

SUMMARY_CHARS = 200
"""The longest summary made from a call's input, for a tool that gives none."""


def _input_summary(raw: Mapping[str, Any]) -> str:
    """What a prompt says a call will do when its tool says nothing: its input, as JSON."""
    return one_line("run with " + msgspec.json.encode(raw).decode(), SUMMARY_CHARS)


def _plugin_failed(plugin: str, what: str) -> ToolError:
    """The error of a call a permission plugin failed: retrying meets the same plugin."""
    return ToolError(
        "internal_error",
        f"The permission check of plugin {plugin!r} failed: check_permission {what}.",
        hint="A plugin of the host failed; do not retry. Tell the user it needs fixing.",
        remedy=plugin_remedy(plugin),
        retryable=False,
        details={"plugin": plugin},
    )


def _cancelled(call_id: str, name: str, reason: str) -> ToolResult:
    return _failed(call_id, name, ToolError("cancelled", f"{name} did not finish: {reason}."))


def _jsonl_history(path: str, *, max_bytes: int | None, backups: int) -> JsonlHistory:
    """The history file of ``web.history_path``, refused now if it cannot be written."""
    sink = JsonlHistory(path, max_bytes=max_bytes, backups=backups)
    problem = sink.problem()
    if problem is not None:
        raise ManifestError(f"web.history_path: {problem}", key="web.history_path")
    return sink


def _is_ip(text: str) -> bool:
    try:
        parse_ip(text)
    except ValueError:
        return False
    return True


_REFUSED = "Do not retry this call; ask the user, or use another source."
"""What the model can do about any refusal."""


def _allow_remedy(call: ToolCall, decision: Decision, who: Who) -> str | None:
    """The allow rule that would let such calls through, as a person's remedy; None when
    no rule would help.

    An allow rule cannot override a deny (any deny wins), nor match a call whose hosts are
    unknown; it can lift a refusal by the default, or an ask that nobody could answer. A
    person who has just declined is not pointed at a rule that would overrule them.
    """
    if decision.level == "deny" or call.hosts_unknown or who == "user":
        return None
    rule = call.tool + (f"(domain:{call.domains[0]})" if len(call.domains) == 1 else "")
    return f"Add {rule} to [permissions] allow in the manifest."


def _refusal(call: ToolCall, reason: str, decision: Decision, who: Who) -> ToolError:
    """A refused call's error; its hint names the allow rule the remedy gives, if any."""
    remedy = _allow_remedy(call, decision, who)
    return ToolError(
        "permission_denied",
        f"{call.tool} call refused: {reason}.",
        hint=_REFUSED if remedy is None else f"{_REFUSED} ({relay(remedy, lead='The user can')})",
        remedy=remedy,
        details={"by": who, "rule": decision.rule},
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
            jsonl = _jsonl_history(web.history_path, max_bytes=cap, backups=web.history_backups)
            sink = MultiHistory(sink, jsonl)
        self.history = sink
        self.pm = make_plugin_manager(plugins=plugins, load_entrypoints=load_entrypoints)
        self.tools: dict[str, RegisteredTool] = collect_tools(self.pm, self.manifest)
        # pluggy's call order, the last-loaded plugin first: a host's plugin gives the reason,
        # rule and prompt of a tie with the manifest's rules, as when pluggy calls the hook.
        self._permission_checks = plugin_callers(self.pm, "check_permission")[::-1]
        self.providers: dict[str, RegisteredProvider] = collect_providers(self.pm)
        self.rerankers: dict[str, RegisteredReranker] = collect_rerankers(self.pm)
        check_names(self.manifest, self.tools, self.providers, rerankers=self.rerankers)
        self._provider_classes = MappingProxyType(
            {name: reg.cls for name, reg in self.providers.items()}
        )
        self._reranker_classes = MappingProxyType(
            {name: reg.cls for name, reg in self.rerankers.items()}
        )
        self._grants: set[tuple[str, str]] = set()
        self._client: SafeClient | None = None
        self._closed = False

    def _http(self) -> SafeClient:
        """The HTTP client of plugin tools (``ctx.client``), built on first use."""
        if self._closed:
            raise RuntimeError("the runtime is closed")
        if self._client is None:
            from .net.client import SafeClient

            web = self.manifest.web
            self._client = SafeClient(web.fetch, web.url_policy)
        return self._client

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
        """Combine every plugin's answer for *call*; no opinion means the manifest default.

        A plugin that raises, or answers with something other than a ``Decision`` or
        ``None``, fails the call with ``internal_error`` naming the plugin.
        """
        answers = [self._opinion(plugin, ask, call) for plugin, ask in self._permission_checks]
        decision = combine(answers)
        if decision is not None:
            return decision, "rule"
        level = self.manifest.permissions.default
        return Decision(level=level, reason=f"no rule matched; default is {level}"), "default"

    def _opinion(
        self, plugin: str, ask: Callable[..., list[Any]], call: ToolCall
    ) -> Decision | None:
        """One plugin's ``check_permission`` answer, checked for its shape; one that held
        the event loop longer than :data:`SLOW_PERMISSION_S` is logged."""
        started = time.perf_counter()
        try:
            answers = ask(call=call, manifest=self.manifest)
        except ToolError:
            raise
        except Exception as exc:
            log.exception("plugin %r failed in check_permission", plugin)
            raise _plugin_failed(plugin, f"raised {type(exc).__name__}: {exc}") from exc
        held = time.perf_counter() - started
        if held > SLOW_PERMISSION_S:
            log.warning(
                "plugin %r held the event loop for %.0f ms in check_permission; every call "
                "in flight waited (it must be fast and must not do I/O: hooks.md)",
                plugin,
                held * 1000,
            )
        for answer in answers:
            if not isinstance(answer, Decision):
                raise _plugin_failed(
                    plugin, f"answered {answer!r:.80}, which is not a Decision or None"
                )
        return combine(answers)

    @staticmethod
    def _grant_keys(call: ToolCall) -> list[tuple[str, str]]:
        """What an "always" answer remembers: the tool on each host, or on no host at all.

        A call whose hosts are unknown has no key: such an answer is never remembered.
        """
        if call.hosts_unknown:
            return []
        return [(call.tool, idna_host(d)) for d in call.domains or ("*",)]

    def _effective(self, call: ToolCall) -> tuple[Decision, Level, Who]:
        """The decision, and the level after this session's "always" answers."""
        decision, by = self.decide(call)
        keys = self._grant_keys(call)
        if decision.level == "ask" and keys and all(k in self._grants for k in keys):
            return decision, "allow", "user"
        return decision, decision.level, by

    def permission_for(self, tool: str, host: str) -> Level:
        """The verdict for *tool* on *host* without prompting (session grants count).

        A host that is not a well-formed name (empty, or an ``xn--`` label that is not
        valid IDNA) is an unknown host: every domain deny rule matches it.
        """
        name = idna_host(host)
        if syntax_problem(name) is not None and not _is_ip(name):
            call = ToolCall(id="probe", tool=tool, input={}, hosts_unknown=True)
        else:
            call = ToolCall(id="probe", tool=tool, input={}, domains=(name,))
        return self._effective(call)[1]

    async def _put(self, call: ToolCall, decision: Decision) -> tuple[Level, Who, str]:
        """Put *call*'s ``ask`` to the prompter: the level, who settled it, and why.

        Anything but a person's answer (nobody to ask, an answer it may not give, a prompter
        that raises) refuses the call, as nobody allowed it.
        """
        request = PromptRequest(
            call=call, reason=decision.reason, rule=decision.rule, prompt=decision.prompt
        )
        try:
            answer = await self.prompter.ask(request)
        except Exception as exc:  # the host's prompter: the question could not be put
            log.error("the prompter failed on a question about %s", call.tool, exc_info=True)
            failed = type(exc).__name__
            return "deny", "default", f"{decision.reason}, and the prompter failed ({failed})"
        if answer == "unavailable":
            return "deny", "default", f"{decision.reason}, and nobody can be asked here"
        if answer not in _ANSWERS:
            odd = (
                f"the prompter answered {answer!r}, which is not once, always, deny or unavailable"
            )
            return "deny", "default", f"{decision.reason}, and {odd}"
        if answer == "always":
            self._grants.update(self._grant_keys(call))
        return ("deny" if answer == "deny" else "allow"), "user", f"user answered {answer}"

    async def _settle(self, call: ToolCall) -> tuple[Level, Who, str, Decision]:
        """The final level of *call* after any prompt, recorded as a ``permission`` event."""
        decision, level, who = self._effective(call)
        reason = decision.reason
        if decision.level == "ask":
            if level == "allow":
                reason = "allowed always for this session"
            else:
                level, who, reason = await self._put(call, decision)
        self._record(
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
            raise _refusal(call, reason, decision, who)

    async def _ask_within(
        self, call_id: str, tool: str, url: str, host: str, summary: str, *, may_ask: bool
    ) -> tuple[Level, Who | None]:
        """The verdict for *tool* on *url* (on *host*) inside call *call_id*.

        ``allow`` and ``deny`` come from the rules (and this session's grants). An ``ask`` is
        put to the prompter, as its own recorded question, only when *may_ask*. Returns the
        level and who settled it (``None`` when nobody was asked).
        """
        host = idna_host(host)
        level = self.permission_for(tool, host)
        if level != "ask" or not may_ask:
            return level, None
        step = ToolCall(id=call_id, tool=tool, input={"url": url}, domains=(host,), summary=summary)
        settled, who, _, _ = await self._settle(step)
        return settled, who

    async def _approve_hop(self, call_id: str, tool: str, location: str, host: str) -> Level:
        """The verdict for following a redirect of call *call_id* to *location* on *host*
        (the host as the URL policy checked it).

        An ``ask`` is put to the prompter when ``ask_on_redirect`` is set; ``ask`` is returned
        when nobody was asked or nobody could answer, and a person who declines ends the
        call with ``permission_denied``.
        """
        summary = f"follow a redirect to {location}"
        level, who = await self._ask_within(
            call_id, tool, location, host, summary, may_ask=self.ask_on_redirect
        )
        if who is None or level == "allow":
            return level
        if who == "user":
            raise ToolError(
                "permission_denied",
                f"{tool} call refused: the user declined to follow the redirect to {location}.",
                hint=_REFUSED,
                details={"by": "user", "location": location},
            )
        return "ask"

    async def _approve_page(self, call_id: str, tool: str, url: str, host: str) -> Level:
        """The verdict for reading *url* on *host* within call *call_id* (an excerpt page).

        An ``ask`` is settled (and recorded as a ``permission`` event) only when the prompter
        approves every question in advance (``approves_every_ask``, the CLI's ``--yes``);
        otherwise nobody is asked mid-call and ``ask`` is returned.
        """
        approves = getattr(self.prompter, "approves_every_ask", False)
        level, who = await self._ask_within(
            call_id, tool, url, host, f"read {url}", may_ask=approves
        )
        if who is None:
            return level
        return "allow" if level == "allow" else "deny"

    # --- calls -------------------------------------------------------------------------

    async def call_tool(
        self, name: str, args: Mapping[str, Any] | None = None, *, call_id: str | None = None
    ) -> ToolResult:
        """Validate, authorize and run one tool call; always returns a :class:`ToolResult`.

        A call stopped from outside (its task cancelled, Ctrl-C, ``SystemExit``) records a
        ``cancelled`` result, then lets the cancellation go on to the caller; that is the only
        exception that leaves this method (any other ``BaseException`` a tool raises fails
        the call with ``internal_error``).
        """
        call_id = call_id or f"call_{secrets.token_hex(6)}"
        raw = dict(args or {})
        started = time.monotonic()
        bad = first_bad_input(raw)
        recorded = raw if bad is None else recordable(raw)
        self._record(ToolCallEvent(call_id=call_id, tool=name, input=recorded))
        try:
            result = await self._call(name, raw, call_id, bad)
        except ToolError as exc:
            result = _failed(call_id, name, exc)
        except asyncio.CancelledError:
            if not _cancel_requested():
                # A future cancelled under the tool (a worker pool shut down, a bug), while
                # nobody asked this call to stop: a failure of the tool, not a cancellation.
                log.exception("tool %s was cancelled from inside", name)
                result = _failed(call_id, name, _unexpected(name, "a cancelled task"))
            else:
                self._finish(_cancelled(call_id, name, "the call was cancelled"), started)
                raise
        except BaseException as exc:  # the agent loop must survive any tool bug
            if _stops_the_host(exc):  # Ctrl-C, SystemExit: record the end, then stop
                reason = f"the call was interrupted ({type(exc).__name__})"
                self._finish(_cancelled(call_id, name, reason), started)
                raise
            log.exception("tool %s failed", name)
            result = _failed(call_id, name, _unexpected(name, type(exc).__name__))
        return self._finish(result, started)

    def _finish(self, result: ToolResult, started: float) -> ToolResult:
        """Stamp the duration on *result* and record its terminal ``tool_result`` event."""
        duration_ms = int((time.monotonic() - started) * 1000)
        result = msgspec.structs.replace(result, duration_ms=duration_ms)
        self._record(
            ToolResultEvent(
                call_id=result.call_id,
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

    def _record(self, event: Event) -> None:
        """Append *event* to the history; a failing sink is logged, never raised to the caller."""
        try:
            self.history.append(event)
        except Exception:
            log.exception("the history sink failed to record a %s event", type(event).__name__)

    def _prepare(
        self, name: str, raw: dict[str, Any], call_id: str, bad: tuple[str, str] | None
    ) -> _Prepared:
        """Validate and preflight a call; the steps before permission, shared by all paths.

        *bad* is :func:`~.textcheck.first_bad_input` of *raw*, found once per call."""
        if bad is not None:
            _refuse_input(*bad)
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
            progress=lambda m, d, t: self._record(
                ProgressEvent(call_id=call_id, message=m, done=d, total=t)
            ),
            permission_probe=self.permission_for,
            hop_approver=lambda tool, location, host: self._approve_hop(
                call_id, tool, location, host
            ),
            page_approver=lambda tool, url, host: self._approve_page(call_id, tool, url, host),
            search_providers=self.search_providers,
            rerankers=self._reranker_classes,
            tool=name,
            http=self._http,
        )
        tool.preflight(args, ctx)
        subject = tool.subject(args, ctx)
        call = ToolCall(
            id=call_id,
            tool=name,
            input=raw,
            domains=subject.domains,
            summary=subject.summary or _input_summary(raw),
            hosts_unknown=subject.hosts_unknown,
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
            raw = dict(args or {})
            prepared = self._prepare(name, raw, "pending", first_bad_input(raw))
            decision, level, _ = self._effective(prepared.call)
        except ToolError:
            return None
        if level != "ask":
            return None
        return PromptRequest(
            call=prepared.call, reason=decision.reason, rule=decision.rule, prompt=decision.prompt
        )

    async def _call(
        self, name: str, raw: dict[str, Any], call_id: str, bad: tuple[str, str] | None
    ) -> ToolResult:
        prepared = self._prepare(name, raw, call_id, bad)
        await self._authorize(prepared.call)
        call = prepared.call
        prepared.ctx.authorize(CallSubject(domains=call.domains, hosts_unknown=call.hosts_unknown))
        out = await prepared.tool.run(prepared.args, prepared.ctx)
        self._check_output(name, out)
        return ToolResult(
            call_id=call_id,
            tool=name,
            ok=True,
            text=out.text,
            output=msgspec.to_builtins(out.output),
            truncated=out.truncated,
        )

    def _check_output(self, name: str, out: object) -> None:
        """Refuse a run that returned no ``ToolOutput`` of the tool's ``output_type``."""
        reg = self.tools[name]
        wanted = reg.tool.output_type
        if not isinstance(out, ToolOutput):
            what = f"returned {type(out).__name__}, not a ToolOutput"
        elif not isinstance(out.output, wanted):
            what = f"output is {type(out.output).__name__}, not {wanted.__name__}"
        else:
            return
        raise ToolError(
            "internal_error",
            f"{name} (plugin {reg.plugin!r}) gave a result of the wrong shape: its run {what}.",
            hint="A tool of the host is broken; do not retry. Tell the user it needs fixing.",
            remedy=plugin_remedy(reg.plugin),
            retryable=False,
            details={"plugin": reg.plugin},
        )

    # --- lifecycle ---------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close every tool once (network sessions, cache files), then the tools' client."""
        if self._closed:
            return
        self._closed = True
        for reg in self.tools.values():
            try:
                await reg.tool.aclose()
            except Exception:
                log.exception("closing tool %s failed", reg.tool.name)
        if self._client is not None:
            await self._client.aclose()
