"""What a tool is, to the runtime: a name, a description, typed input and output, and ``run``.

Input and output are msgspec Structs; their JSON Schemas (refs inlined) are the published
``input_schema`` and ``output_schema``. A tool raises :class:`~insomnia_web.errors.ToolError`
for every failure it can name; the runtime turns it into a result for the model.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

import msgspec

from ..config import inline_schema

if TYPE_CHECKING:
    from ..config import Manifest
    from ..net.client import SafeClient
    from ..net.urlpolicy import UrlPolicy
    from ..rank.rerank import Reranker
    from ..search.base import SearchProvider
    from .call_client import CallClient

__all__ = [
    "CallSubject",
    "Tool",
    "ToolAnnotations",
    "ToolContext",
    "ToolOutput",
    "ToolSpec",
    "compact_schema",
    "tool_spec",
]

InT = TypeVar("InT", bound=msgspec.Struct)
OutT = TypeVar("OutT", bound=msgspec.Struct)

PermissionProbe = Callable[[str, str], "Literal['allow', 'ask', 'deny']"]
HopApprover = Callable[[str, str, str], "Awaitable[Literal['allow', 'ask', 'deny']]"]
"""(tool, location, host) -> verdict; *host* is the URL policy's normalised host."""


def _collapse_optional(node: dict[str, Any]) -> None:
    """``anyOf: [{type: T}, {type: null}]`` -> ``type: [T, "null"]``: same meaning, fewer tokens."""
    any_of = node.get("anyOf")
    if not (isinstance(any_of, list) and len(any_of) == 2 and {"type": "null"} in any_of):
        return
    other = next(x for x in any_of if x != {"type": "null"})
    scalar = other.get("type") in ("string", "integer", "number", "boolean")
    if scalar and not set(other) & {"anyOf", "enum", "properties", "items"}:
        # Keywords like minimum or pattern only constrain values of their own type.
        del node["anyOf"]
        node.update({**other, "type": [other["type"], "null"]})
    elif set(other) == {"enum"}:
        del node["anyOf"]
        node["enum"] = [*other["enum"], None]


def compact_schema(schema: Any, *, keep_defaults: bool = True, _described: bool = False) -> Any:
    """A tool schema trimmed for the model's context without changing what it accepts.

    Drops msgspec's generated ``title``s, the description of every object (a Struct's
    docstring is for Python readers; the tool's own description says what a call does), an
    item's docstring where its array already has a description, a description that only
    restates its property's name (``url: "URL."``), null and empty defaults (all defaults
    for outputs); writes optional scalars as ``type: [T, "null"]``.
    """
    if isinstance(schema, list):
        return [compact_schema(x, keep_defaults=keep_defaults) for x in schema]
    if not isinstance(schema, dict):
        return schema
    node = dict(schema)
    node.pop("title", None)  # msgspec's class names; the tool name says it
    if _described or "properties" in node:
        node.pop("description", None)
    if not keep_defaults or node.get("default", 0) in (None, []):
        node.pop("default", None)
    _collapse_optional(node)
    has_desc = "description" in node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {
                name: compact_schema(_unless_restated(name, prop), keep_defaults=keep_defaults)
                for name, prop in value.items()
            }
        elif key in ("items", "anyOf"):
            sub = value if isinstance(value, list) else [value]
            done = [
                compact_schema(x, keep_defaults=keep_defaults, _described=has_desc) for x in sub
            ]
            out[key] = done if isinstance(value, list) else done[0]
        else:
            out[key] = value
    return out


def _unless_restated(name: str, prop: Any) -> Any:
    """*prop* without its description when that only says the property's name again."""
    if not isinstance(prop, dict) or not isinstance(prop.get("description"), str):
        return prop
    said = prop["description"].strip().rstrip(".").lower()
    if said not in (name.lower(), name.lower().replace("_", " ")):
        return prop
    return {k: v for k, v in prop.items() if k != "description"}


def published_schema(struct: type[msgspec.Struct], *, keep_defaults: bool) -> dict[str, Any]:
    """The compact schema of a tool's input or output Struct, as clients receive it."""
    schema: dict[str, Any] = compact_schema(inline_schema(struct), keep_defaults=keep_defaults)
    return schema


class ToolAnnotations(msgspec.Struct, frozen=True, kw_only=True):
    """Behaviour hints for hosts and MCP clients (set truthfully)."""

    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool


class CallSubject(msgspec.Struct, frozen=True, kw_only=True):
    """What a call will touch: the hosts it contacts and a one-line summary for prompts.

    ``hosts_unknown=True`` says the call contacts hosts that cannot be named in advance:
    every domain deny (and ask) rule then applies to it, and no domain allow rule does.
    """

    domains: tuple[str, ...] = ()
    summary: str = ""
    hosts_unknown: bool = False


class ToolOutput(msgspec.Struct, Generic[OutT], frozen=True, kw_only=True):
    """A successful run: the structured output and the text the model reads."""

    output: OutT
    text: str
    truncated: bool = False


class ToolContext:
    """Per-call services the runtime hands to ``Tool.run``.

    Built by the runtime for each call: hosts run tools through
    :class:`~insomnia_web.Runtime`, as the context carries the call's permission (:attr:`client`
    reaches only the hosts the call was allowed), its approvals of redirects and pages, and
    its history. The constructor takes those parts and is not a stable API.

    *http* returns the runtime's shared :class:`~insomnia_web.net.SafeClient`, built on
    first use; :attr:`client` hands it to the tool once the call is authorized.
    """

    def __init__(
        self,
        *,
        call_id: str,
        manifest: Manifest,
        progress: Callable[[str, int | None, int | None], None],
        permission_probe: PermissionProbe,
        search_providers: Mapping[str, type[SearchProvider]],
        rerankers: Mapping[str, type[Reranker]] | None = None,
        hop_approver: HopApprover | None = None,
        page_approver: HopApprover | None = None,
        tool: str = "",
        http: Callable[[], SafeClient] | None = None,
    ) -> None:
        self.call_id = call_id
        self.manifest = manifest
        self.tool = tool
        self._http = http
        self._approved: CallSubject | None = None
        self._client: CallClient | None = None
        self._policy: UrlPolicy | None = None
        self._progress = progress
        self._probe = permission_probe
        self._hop_approver = hop_approver
        self._page_approver = page_approver
        self.search_providers = search_providers
        self.rerankers: Mapping[str, type[Reranker]] = rerankers or {}

    def progress(self, message: str, done: int | None = None, total: int | None = None) -> None:
        """Append a progress event to the visible history."""
        self._progress(message, done, total)

    def checked_host(self, url: str) -> str:
        """*url*'s host as the URL policy normalises it (IDNA, lower case, no trailing dot).

        Runs the manifest's static URL policy (no I/O) and raises its ``ToolError``
        (``blocked_address``, ``scheme_not_allowed``...) for a URL it refuses: called from
        ``preflight`` or ``subject``, nobody is asked to approve a URL that cannot be read.
        """
        if self._policy is None:
            from ..net.urlpolicy import UrlPolicy

            self._policy = UrlPolicy(self.manifest.web.url_policy)
        return self._policy.check(url).host

    def authorize(self, subject: CallSubject) -> None:
        """Record that the call was allowed to contact *subject*'s hosts (the runtime calls
        this after the permission step, before ``run``)."""
        self._approved = subject

    @property
    def client(self) -> CallClient:
        """The runtime's bounded, policy-checked HTTP client, for this call's hosts only.

        Usable in ``run`` (once the call is authorized), never in ``preflight`` or
        ``subject``: nothing is fetched before the permission step.
        """
        if self._approved is None or self._http is None:
            raise RuntimeError(
                f"ctx.client of {self.tool or 'a tool'} is for run(): the call is not "
                "authorized yet, or the host gave no HTTP client"
            )
        if self._client is None:
            from .call_client import CallClient

            self._client = CallClient(
                self._http(), tool=self.tool, subject=self._approved, probe=self._probe
            )
        return self._client

    def permission_for(self, tool: str, host: str) -> Literal["allow", "ask", "deny"]:
        """The policy's verdict for *tool* on *host*, without prompting anyone.

        Used to decide whether to follow a cross-host redirect, or to drop search results
        whose hosts the policy denies.
        """
        return self._probe(tool, host)

    async def approve_redirect(
        self, tool: str, location: str, host: str
    ) -> Literal["allow", "ask", "deny"]:
        """The verdict for following a redirect to *location* (on *host*) within this call.

        Like :meth:`permission_for`, except that a host the rules ask about may be put to
        the person (when the host runtime was told to, e.g. the CLI's ``--yes``); ``ask``
        means nobody was asked, so the redirect goes back to the model. A person who declines
        raises ``permission_denied``.
        """
        if self._hop_approver is None:
            return self._probe(tool, host)
        return await self._hop_approver(tool, location, host)

    async def approve_page(self, tool: str, url: str, host: str) -> Literal["allow", "ask", "deny"]:
        """The verdict for reading *url* (on *host*) as part of this call, e.g. an excerpt page.

        Like :meth:`permission_for`, except that where the person approved every question in
        advance (the CLI's ``--yes``) an ``ask`` is allowed and recorded as their answer.
        Nobody is asked mid-call otherwise.
        """
        if self._page_approver is None:
            return self._probe(tool, host)
        return await self._page_approver(tool, url, host)


class ToolSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A tool as an LLM API is told about it (see :meth:`Runtime.tool_specs`)."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    annotations: ToolAnnotations
    plugin: str


class Tool(ABC, Generic[InT, OutT]):
    """Base class of a tool the runtime can register and call."""

    name: ClassVar[str]
    input_type: ClassVar[type[msgspec.Struct]]
    output_type: ClassVar[type[msgspec.Struct]]
    annotations: ClassVar[ToolAnnotations]
    title: ClassVar[str] = ""

    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest

    @abstractmethod
    def description(self) -> str:
        """What the model reads: when to use it, what it returns, limits, failures."""

    def input_schema(self) -> dict[str, Any]:
        """JSON Schema of the input: refs inlined, compact (see :func:`compact_schema`)."""
        return published_schema(self.input_type, keep_defaults=True)

    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of the structured output: compact, without defaults."""
        return published_schema(self.output_type, keep_defaults=False)

    def precheck(self, raw: Mapping[str, Any]) -> None:
        """Checks on the raw input before decoding (e.g. a dedicated error code); default none."""
        return None

    def preflight(self, args: InT, ctx: ToolContext) -> None:
        """Fail fast, before any permission prompt, when the call cannot run at all.

        For configuration problems (``not_configured``) a person should not be asked to
        approve a call that is bound to fail. Must not touch the network. Default: nothing.
        """
        return None

    def subject(self, args: InT, ctx: ToolContext) -> CallSubject:
        """The hosts this call contacts and a summary for permission prompts."""
        return CallSubject()

    @abstractmethod
    async def run(self, args: InT, ctx: ToolContext) -> ToolOutput[OutT]:
        """Do the work; raise ``ToolError`` for failures the model should read."""

    async def aclose(self) -> None:
        """Release what the tool holds (sessions, files); called once by the runtime."""
        return None


def tool_spec(tool: Tool[Any, Any], *, plugin: str) -> ToolSpec:
    """The :class:`ToolSpec` of *tool*, registered by *plugin*."""
    return ToolSpec(
        name=tool.name,
        title=tool.title,
        description=tool.description(),
        input_schema=tool.input_schema(),
        output_schema=tool.output_schema(),
        annotations=tool.annotations,
        plugin=plugin,
    )
