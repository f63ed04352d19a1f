"""Plugin loading and the registries of tools and search providers.

Built-in plugins are registered exactly like third-party ones. Third-party plugins come from
the ``insomnia`` entry-point group; the ``INSOMNIA_PLUGINS`` environment variable restricts
which (a comma-separated list of entry-point names; empty loads none). Set
``INSOMNIA_TRACE_HOOKS=1`` to print every hook call to stderr.

Whatever stops a plugin from starting (its import fails, a hook does not match the specs, a
register hook raises or registers something wrong) is a
:class:`~insomnia_web.errors.PluginError` naming the plugin, with the plugin's exception or
our refusal as its cause.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec
import pluggy

from . import hookspecs
from .config import Manifest
from .errors import ManifestError, PluginError
from .permissions import TOOL_NAME, parse_rule, tool_alias
from .rank.rerank import Reranker
from .search.base import SearchProvider
from .tools.base import Tool

__all__ = [
    "DEFAULT_PLUGINS",
    "ENV_PLUGINS",
    "ENV_TRACE",
    "RegisteredProvider",
    "RegisteredReranker",
    "RegisteredTool",
    "check_names",
    "collect_providers",
    "collect_rerankers",
    "collect_tools",
    "installed_plugins",
    "make_plugin_manager",
    "plugin_callers",
    "unknown_reranker",
    "wanted_plugins",
]

ENV_PLUGINS = "INSOMNIA_PLUGINS"
ENV_TRACE = "INSOMNIA_TRACE_HOOKS"
ENTRY_POINT_GROUP = "insomnia"

BUILTIN_TOOLS = ("SaveFinding", "WebFetch", "WebSearch")
"""Tools of the built-in plugin: rules may name them even when the manifest disables them."""

_TOOL_NAME = re.compile(TOOL_NAME)

DEFAULT_PLUGINS: tuple[tuple[str, str], ...] = (
    # (plugin name, module): the name equals our entry point's, so it is not loaded twice.
    ("web", "insomnia_web.hooks"),
)


class RegisteredTool(msgspec.Struct, frozen=True):
    """A tool and the plugin that registered it."""

    tool: Tool[Any, Any]
    plugin: str


class RegisteredProvider(msgspec.Struct, frozen=True):
    """A search provider class and the plugin that registered it."""

    cls: type[SearchProvider]
    plugin: str


class RegisteredReranker(msgspec.Struct, frozen=True):
    """A reranker class and the plugin that registered it."""

    cls: type[Reranker]
    plugin: str


def wanted_plugins(env: Mapping[str, str] | None = None) -> set[str] | None:
    """The entry-point names ``INSOMNIA_PLUGINS`` (in *env*, default ``os.environ``) says
    to load: ``None`` means all."""
    value = (os.environ if env is None else env).get(ENV_PLUGINS)
    if value is None:
        return None
    return {n.strip() for n in value.split(",") if n.strip()}


def installed_plugins() -> list[str]:
    """The entry-point names of the installed plugins, sorted, the built-in ones left out."""
    builtin = {name for name, _ in DEFAULT_PLUGINS}
    found = {ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(found - builtin)


def make_plugin_manager(
    *, plugins: Iterable[object] = (), load_entrypoints: bool = True
) -> pluggy.PluginManager:
    """A plugin manager with the built-ins, the allowed entry points and *plugins* registered.

    Hook implementations are validated against the specs (a misspelled hook is an error).
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    for name, module in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(module), name=name)
    if load_entrypoints:
        wanted = wanted_plugins()
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
                continue
            if wanted is not None and ep.name not in wanted:
                continue
            _register(pm, _load(ep), ep.name)
    for plugin in plugins:
        _register(pm, plugin, _plugin_name(pm, plugin))
    _check_pending(pm)
    if os.environ.get(ENV_TRACE):
        pm.trace.root.setwriter(sys.stderr.write)
        pm.enable_tracing()
    return pm


def _load(ep: importlib.metadata.EntryPoint) -> object:
    """The object entry point *ep* names; an import that fails is the plugin's error."""
    try:
        return ep.load()
    except Exception as exc:
        raise PluginError(
            f"plugin {ep.name!r} could not be loaded ({ep.value}): {type(exc).__name__}: {exc}",
            plugin=ep.name,
        ) from exc


def _register(pm: pluggy.PluginManager, plugin: object, name: str) -> None:
    """Register *plugin* as *name*; hooks that do not match their specs are its error, said
    on one line (pluggy's lines after its first, which only names the plugin and hook)."""
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        lines = str(exc).splitlines()
        said = "; ".join(line.strip() for line in lines[1:] or lines)
        raise PluginError(f"plugin {name!r}: {said}", plugin=name) from exc


def _plugin_name(pm: pluggy.PluginManager, plugin: object) -> str:
    """The name *plugin* goes by: its ``__name__`` (a module's, or one the object sets), else
    its class name, numbered when that class is already registered."""
    name = getattr(plugin, "__name__", None)
    if isinstance(name, str) and name:
        return name
    base = type(plugin).__qualname__
    name, count = base, 1
    while pm.has_plugin(name) or pm.is_blocked(name):
        count += 1
        name = f"{base}-{count}"
    return name


def _check_pending(pm: pluggy.PluginManager) -> None:
    """``pm.check_pending()`` (the same loop), as a :class:`PluginError` naming the plugin
    and suggesting the closest hook."""
    for name in list(pm.hook.__dict__):
        caller = getattr(pm.hook, name)
        if name.startswith("_") or caller.has_spec():
            continue
        for impl in caller.get_hookimpls():
            if impl.optionalhook:
                continue
            hooks = sorted(
                n for n in dir(hookspecs) if hasattr(getattr(hookspecs, n), "insomnia_spec")
            )
            close = difflib.get_close_matches(name, hooks, n=1)
            guess = f"; did you mean {close[0]}?" if close else ""
            raise PluginError(
                f"plugin {impl.plugin_name!r} implements {name}, which is no insomnia hook"
                f"{guess} (hooks: {', '.join(hooks)})",
                plugin=impl.plugin_name,
            )


def plugin_callers(
    pm: pluggy.PluginManager, hook_name: str
) -> tuple[tuple[str, Callable[..., list[Any]]], ...]:
    """``(plugin name, caller)`` for each plugin implementing *hook_name*, in load order:
    the built-in plugin, the entry points, then the objects a host passed.

    Each caller is a pluggy hook caller holding that plugin alone, so tracing and hook-call
    monitoring see its calls like any other hook call, and what it returns or raises can be
    put down to the plugin.
    """
    callers = []
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        others = [p for p in pm.get_plugins() if p is not impl.plugin]
        callers.append((impl.plugin_name, pm.subset_hook_caller(hook_name, remove_plugins=others)))
    return tuple(callers)


def _call_each(
    pm: pluggy.PluginManager,
    hook_name: str,
    make_register: Callable[[str], Callable[[Any], None]],
    **kwargs: Any,
) -> None:
    """Call one hook plugin by plugin, each with a ``register`` that knows the plugin's name."""
    for plugin, caller in plugin_callers(pm, hook_name):
        _call_one(plugin, hook_name, caller, make_register(plugin), kwargs)


def _call_one(
    plugin: str,
    hook_name: str,
    caller: Callable[..., list[Any]],
    register: Callable[[Any], None],
    kwargs: dict[str, Any],
) -> None:
    """Call one plugin's register hook; a :class:`PluginError` when it fails.

    Our refusal of what it registered keeps its words (they name the plugin); any other
    exception is named with its type. Either is the error's cause. A hook that returns what
    it should have registered is refused too.
    """
    refusals: list[Exception] = []

    def checked(item: Any) -> None:
        try:
            register(item)
        except Exception as exc:
            refusals.append(exc)
            raise

    try:
        returned = caller(register=checked, **kwargs)
    except Exception as exc:
        if any(exc is refused for refused in refusals):
            said = str(exc)
        else:
            said = f"plugin {plugin!r} failed in {hook_name}: {type(exc).__name__}: {exc}"
        raise PluginError(said, plugin=plugin, hook=hook_name) from exc
    if returned:
        raise PluginError(
            f"plugin {plugin!r} returned {returned[0]!r:.80} from {hook_name}, which "
            "returns nothing: call register(...) once for each thing to register",
            plugin=plugin,
            hook=hook_name,
        )


def _duplicate(kind: str, name: str, plugin: str, first: str) -> ValueError:
    """The error of a second registration of *name*, naming both plugins."""
    return ValueError(
        f"plugins {first!r} and {plugin!r} both register a {kind} named {name!r}; "
        f"{kind} names must be unique"
    )


def _check_tool(plugin: str, tool: object) -> None:
    """Refuse what is not a named tool instance, saying what to register instead."""
    if isinstance(tool, type) and issubclass(tool, Tool):
        raise TypeError(
            f"plugin {plugin!r} registered the class {tool.__qualname__}, where a Tool "
            f"instance is wanted: register({tool.__qualname__}(manifest))"
        )
    if not isinstance(tool, Tool):
        raise TypeError(
            f"plugin {plugin!r} registered {tool!r:.80}, which is not an "
            "insomnia_web.tools.base.Tool instance"
        )
    name = getattr(tool, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(
            f"tool {type(tool).__qualname__} of plugin {plugin!r} has no name: set the "
            "class attribute name (name: ClassVar[str] = ...)"
        )
    if not _TOOL_NAME.fullmatch(name):
        raise ValueError(
            f"plugin {plugin!r} registered a tool named {name!r}, which no permission rule "
            "could name: use letters, digits, '_', '.' and '-', not starting with a digit, "
            "'.' or '-' (EchoNote)"
        )


def collect_tools(pm: pluggy.PluginManager, manifest: Manifest) -> dict[str, RegisteredTool]:
    """Ask every plugin for its tools; a duplicate name or a non-tool is an error."""
    tools: dict[str, RegisteredTool] = {}

    def make_register(plugin: str) -> Callable[[Any], None]:
        def register(tool: Tool[Any, Any]) -> None:
            _check_tool(plugin, tool)
            if tool.name in tools:
                raise _duplicate("tool", tool.name, plugin, tools[tool.name].plugin)
            tools[tool.name] = RegisteredTool(tool=tool, plugin=plugin)

        return register

    _call_each(pm, "register_tools", make_register, manifest=manifest)
    return tools


def _collect_classes(
    pm: pluggy.PluginManager, hook: str, base: type[Any], kind: str, reserved: tuple[str, ...] = ()
) -> dict[str, tuple[type[Any], str]]:
    """Ask every plugin for its *base* subclasses through *hook*: ``{name: (class, plugin)}``.

    A non-subclass or a class without a usable ``name`` is a ``TypeError``; a name already
    registered (or *reserved*) is a ``ValueError`` naming both plugins.
    """
    found: dict[str, tuple[type[Any], str]] = {}

    def make_register(plugin: str) -> Callable[[Any], None]:
        def register(cls: type[Any]) -> None:
            if isinstance(cls, base):
                given = type(cls).__qualname__
                raise TypeError(
                    f"plugin {plugin!r} registered an instance of {given}, where the {kind} "
                    f"class is wanted: register({given})"
                )
            if not (isinstance(cls, type) and issubclass(cls, base)):
                raise TypeError(
                    f"plugin {plugin!r} registered {cls!r}, which is not a subclass of "
                    f"{base.__module__}.{base.__qualname__}"
                )
            name = getattr(cls, "name", None)
            if not isinstance(name, str) or not name or name in reserved:
                raise TypeError(f"{kind} {cls!r} of plugin {plugin!r} has no usable name")
            if name in found:
                raise _duplicate(kind, name, plugin, found[name][1])
            found[name] = (cls, plugin)

        return register

    _call_each(pm, hook, make_register)
    return found


def collect_providers(pm: pluggy.PluginManager) -> dict[str, RegisteredProvider]:
    """Ask every plugin for its search providers; a duplicate name or a non-provider fails."""
    found = _collect_classes(pm, "register_search_providers", SearchProvider, "search provider")
    return {
        name: RegisteredProvider(cls=cls, plugin=plugin) for name, (cls, plugin) in found.items()
    }


def collect_rerankers(pm: pluggy.PluginManager) -> dict[str, RegisteredReranker]:
    """Ask every plugin for its rerankers; a duplicate name or a non-reranker fails.

    ``none`` is reserved: it is the manifest's word for no rerank stage.
    """
    found = _collect_classes(pm, "register_rerankers", Reranker, "reranker", reserved=("none",))
    return {
        name: RegisteredReranker(cls=cls, plugin=plugin) for name, (cls, plugin) in found.items()
    }


def check_names(
    manifest: Manifest,
    tools: Iterable[str],
    providers: Iterable[str],
    *,
    rerankers: Iterable[str] | None = None,
    source: str = "manifest",
) -> None:
    """Refuse manifest names that would silently do nothing: a rule for no known tool, a
    search provider or (when *rerankers* are given) a reranker nobody registered.

    Plugins add tools and providers, so these names can only be checked against a
    registry: the runtime calls this once its plugins have registered. A rule may name a
    registered tool, a built-in one (even when disabled) or either by its MCP name.
    """
    known = sorted({*tools, *BUILTIN_TOOLS})
    names = {alias for name in known for alias in (name, tool_alias(name))}
    perms = manifest.permissions
    for level in ("allow", "ask", "deny"):
        for index, text in enumerate(getattr(perms, level)):
            rule = parse_rule(text)
            if rule.tool not in names:
                key = f"permissions.{level}[{index}]"
                raise ManifestError(
                    f"{source}: {key}: rule {text!r} names no known tool {rule.tool!r} "
                    f"(tools: {', '.join(known)}; their MCP names, e.g. "
                    f"{tool_alias(known[0])}, are accepted too)",
                    key=key,
                )
    search = manifest.web.search
    registered = sorted(providers)
    if search.enabled and search.provider is not None and search.provider not in registered:
        raise ManifestError(
            f"{source}: web.search.provider: no search provider named {search.provider!r} "
            f"is registered (registered: {', '.join(registered) or 'none'})",
            key="web.search.provider",
        )
    problem = None if rerankers is None else unknown_reranker(manifest, rerankers)
    if problem is not None:
        raise ManifestError(f"{source}: web.pipeline.rerank: {problem}", key="web.pipeline.rerank")


def unknown_reranker(manifest: Manifest, rerankers: Iterable[str]) -> str | None:
    """Why ``web.pipeline.rerank`` names no registered reranker (``None``: it names one, or
    ``"none"``)."""
    rerank = manifest.web.pipeline.rerank
    registered = set(rerankers)
    if rerank == "none" or rerank in registered:
        return None
    choices = ", ".join(["none", *sorted(registered)])
    return f"no reranker named {rerank!r} is registered (choices: {choices})"
