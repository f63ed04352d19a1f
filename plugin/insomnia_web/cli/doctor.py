"""``insomnia-web doctor``: is this set-up usable, and if not, what to change.

Each check is a function of a :class:`Setup` that yields :class:`Finding` lines; adding a
check is writing one such function and listing it in :data:`CHECKS`. A finding is ``ok``,
``info`` (worth knowing), ``warn`` (something will not work, the rest will) or ``fail`` (the
tools cannot be used as configured); every ``warn`` and ``fail`` carries its fix. The exit
status is 1 when any check fails, else 0. Secrets are never shown: only whether the variable
that holds a key is set.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

import msgspec

from ..config import CacheConfig, Manifest, load_manifest
from ..errors import ManifestError, PluginError, ToolError, default_remedy
from ..history import JsonlHistory
from ..hosts.addresses import METADATA_ADDRESSES, parse_cidrs
from ..manifest_path import (
    ManifestSource,
    cache_file,
    expand_home,
    find_manifest,
    user_manifest_path,
    working_dir_manifest,
)
from ..plugins import (
    DEFAULT_PLUGINS,
    check_names,
    collect_providers,
    collect_rerankers,
    collect_tools,
    installed_plugins,
    make_plugin_manager,
    unknown_reranker,
    wanted_plugins,
)
from ..textcheck import terminal_safe
from ..tools.fetch_progress import format_bytes
from ..tools.services import broken_remedy

if TYPE_CHECKING:
    from ..cache import CacheStats
    from ..search.base import SearchProvider

__all__ = ["CHECKS", "Finding", "Registry", "Setup", "check_plugins", "registry", "run_doctor"]

Status = Literal["ok", "info", "warn", "fail"]


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the report: what was checked, its state, and how to fix a problem."""

    check: str
    status: Status
    detail: str
    fix: str | None = None


class Registry(msgspec.Struct, frozen=True, kw_only=True):
    """What the installed plugins register, as the runtime would see it at start-up."""

    tools: tuple[str, ...]
    providers: Mapping[str, type[SearchProvider]]
    rerankers: tuple[str, ...] = ()
    by_plugin: Mapping[str, str] = msgspec.field(default_factory=dict)
    """Each plugin's name and what it registers, in words."""
    problem: str | None = None
    """Why the plugins cannot start (a plugin raised, or registered something wrong)."""
    remedy: str | None = None
    """What the person can do about the *problem* (the CLI prints the same)."""


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """What the checks look at: the chosen manifest (or why it failed) and the environment."""

    source: ManifestSource
    manifest: Manifest | None
    error: str | None = None
    env: Mapping[str, str] = msgspec.field(default_factory=dict)
    working_dir: Path | None = None
    """An ``insomnia.toml`` in the working directory, which is read only when named."""
    plugins: Registry | None = None
    """What the installed plugins register for the manifest (None when it did not load)."""


def _fix(src: ManifestSource) -> str:
    """How to repair a manifest that did not load: its path, or what it says."""
    if src.path is not None and not src.path.is_file():
        return (
            f"create {src.path}, or correct the path given by {src.origin} "
            "(insomnia-web schema lists every key)"
        )
    return "correct the manifest where the message above says (insomnia-web schema lists every key)"


def check_manifest(setup: Setup) -> Iterator[Finding]:
    """Which manifest is in use, and whether it loads."""
    src = setup.source
    where = f"{src.path} (from {src.origin})" if src.path else "none: built-in defaults"
    if setup.error is not None:
        yield Finding(
            check="manifest", status="fail", detail=f"{where}: {setup.error}", fix=_fix(src)
        )
        return
    yield Finding(check="manifest", status="ok", detail=where)
    if src.path is None:
        yield Finding(
            check="manifest",
            status="info",
            detail=f"searched: --manifest, $INSOMNIA_WEB_MANIFEST, {user_manifest_path(setup.env)}",
        )
    local = setup.working_dir
    if local is not None and (src.path is None or src.path.resolve() != local.resolve()):
        yield Finding(
            check="manifest",
            status="info",
            detail=f"{local.name} in the working directory is not read unless named: a "
            "manifest there may come from a repository you did not write",
            fix=f"to use it: --manifest ./{local.name} (or $INSOMNIA_WEB_MANIFEST)",
        )


def registry(manifest: Manifest) -> Registry:
    """The tools, search providers and rerankers the plugins register for *manifest*.

    Built from the plugin manager, not a :class:`Runtime`: a runtime refuses to start on the
    very problems the checks are meant to report. A plugin that fails makes a registry with
    nothing in it and the *problem* said.
    """
    try:
        pm = make_plugin_manager()
        tools = collect_tools(pm, manifest)
        providers = collect_providers(pm)
        rerankers = collect_rerankers(pm)
    except PluginError as exc:  # a plugin's bug: reported as a check, not a traceback
        return Registry(tools=(), providers={}, problem=exc.message, remedy=exc.remedy)
    kinds = (("tools", tools), ("search providers", providers), ("rerankers", rerankers))
    checkers = {impl.plugin_name for impl in pm.hook.check_permission.get_hookimpls()}
    by_plugin: dict[str, str] = {}
    for plugin, _ in pm.list_name_plugin():
        parts = [
            f"{kind}: {', '.join(names)}"
            for kind, found in kinds
            if (names := [n for n, reg in found.items() if reg.plugin == plugin])
        ]
        if plugin in checkers:
            parts.append("permission checks")
        by_plugin[plugin] = "; ".join(parts) or "registers nothing"
    return Registry(
        tools=tuple(tools),
        providers={name: reg.cls for name, reg in providers.items()},
        rerankers=tuple(rerankers),
        by_plugin=by_plugin,
    )


def check_plugins(setup: Setup) -> Iterator[Finding]:
    """Each plugin and what it registers, or why the plugins cannot start."""
    found = setup.plugins
    if found is None:
        return
    if found.problem is not None:
        yield Finding(
            check="plugins",
            status="fail",
            detail=found.problem,
            fix=found.remedy,
        )
        return
    for plugin, registers in found.by_plugin.items():
        yield Finding(check=f"plugin {plugin}", status="ok", detail=registers)
    yield from _plugin_selection(setup.env)


def _plugin_selection(env: Mapping[str, str]) -> Iterator[Finding]:
    """What ``INSOMNIA_PLUGINS`` leaves out, and the names it gives that nothing is called."""
    wanted = wanted_plugins(env)
    if wanted is None:
        return
    installed = installed_plugins()
    unknown = sorted(wanted - set(installed) - {name for name, _ in DEFAULT_PLUGINS})
    if unknown:
        yield Finding(
            check="plugins",
            status="warn",
            detail=f"INSOMNIA_PLUGINS names {', '.join(unknown)}, which no installed plugin "
            "is called",
            fix="INSOMNIA_PLUGINS takes comma-separated entry-point names (installed: "
            f"{', '.join(installed) or 'none'})",
        )
    left_out = [name for name in installed if name not in wanted]
    if left_out:
        yield Finding(
            check="plugins",
            status="info",
            detail=f"installed, not loaded (not in INSOMNIA_PLUGINS): {', '.join(left_out)}",
        )


_NO_REMEDY = "set what the message names: the provider gives no remedy of its own"


def _provider_problem(manifest: Manifest, found: Registry, name: str) -> tuple[str, str] | None:
    """Why the provider *name* cannot be built from *manifest*, and what the person can do:
    the remedy its error gives (``None``: it can be built). The default remedy of a code is
    not used: ``not_configured``'s says to run this command."""
    cls = found.providers.get(name)
    if cls is None:
        known = ", ".join(sorted(found.providers))
        return (
            f"no provider named {name!r} is registered (registered: {known or 'none'})",
            f"set web.search.provider to one of {known}, or install the plugin that has it",
        )
    try:
        provider = cls.from_manifest(manifest)
    except ToolError as exc:
        remedy = exc.remedy if exc.remedy != default_remedy(exc.code) else None
        return exc.message, remedy or _NO_REMEDY
    except Exception as exc:  # the provider's bug
        return (
            f"the search provider {name!r} could not be built: {type(exc).__name__}",
            broken_remedy("search provider"),
        )
    asyncio.run(provider.aclose())
    return None


def check_provider(setup: Setup) -> Iterator[Finding]:
    """The search provider, and whether its key variable is set (never its value)."""
    manifest, found = setup.manifest, setup.plugins
    if manifest is None or found is None:
        return
    search = manifest.web.search
    if not search.enabled:
        yield Finding(check="provider", status="info", detail="WebSearch is disabled")
        return
    name = search.provider
    if not name:
        yield Finding(
            check="provider",
            status="warn",
            detail="no search provider: WebSearch answers not_configured (WebFetch works)",
            fix='set web.search.provider = "brave" (with an API key) or "searxng"',
        )
        return
    if name == "brave":
        env = search.brave.api_key_env
        state = "set" if setup.env.get(env, "").strip() else "not set"
        detail = f"brave; {env} is {state}"
    else:
        detail = name
    if found.problem is not None:
        return  # the plugins check says why
    problem = _provider_problem(manifest, found, name)
    if problem is None:
        yield Finding(check="provider", status="ok", detail=detail)
        return
    why, fix = problem
    if name == "brave" and name in found.providers:
        fix = f"export {search.brave.api_key_env}=YOUR-KEY"
    yield Finding(check="provider", status="fail", detail=f"{detail}: {why}", fix=fix)


def check_rerank(setup: Setup) -> Iterator[Finding]:
    """The reranker ``web.pipeline.rerank`` names, when it names one: a name no plugin
    registered stops the runtime from starting, and ``static`` needs the rerank extra."""
    manifest, found = setup.manifest, setup.plugins
    if manifest is None or found is None or found.problem is not None:
        return
    rerank = manifest.web.pipeline.rerank
    problem = unknown_reranker(manifest, found.rerankers)
    if problem is not None:
        fix = "set web.pipeline.rerank to one of the choices, or install the plugin that has it"
        yield Finding(check="rerank", status="fail", detail=problem, fix=fix)
    elif rerank == "static" and not all(map(_installed, extras().get("rerank", ["wordllama"]))):
        yield Finding(
            check="rerank",
            status="warn",
            detail="static: the rerank extra is not installed: excerpt searches answer "
            "not_configured",
            fix="pip install 'insomnia-web[rerank]'",
        )
    elif rerank != "none":
        yield Finding(check="rerank", status="ok", detail=rerank)


def check_permissions(setup: Setup) -> Iterator[Finding]:
    """The default decision and how many rules of each kind there are."""
    if setup.manifest is None or setup.plugins is None:
        return
    perms = setup.manifest.permissions
    counts = ", ".join(f"{len(getattr(perms, k))} {k}" for k in ("allow", "ask", "deny"))
    problem = _rule_problem(setup.manifest, setup.plugins)
    if problem is not None:
        yield Finding(
            check="permissions",
            status="fail",
            detail=problem,
            fix="name a tool (WebFetch) or its MCP name (web_fetch) in the rule",
        )
        return
    yield Finding(
        check="permissions", status="ok", detail=f"default {perms.default}; rules: {counts}"
    )


def _rule_problem(manifest: Manifest, found: Registry) -> str | None:
    """Why the runtime would refuse *manifest*'s permission rules, given what the plugins
    register (``None``: it would not).

    The provider name is the provider check's to report: it is left out here.
    """
    if found.problem is not None:
        return None  # the plugins check says why
    try:
        check_names(manifest, found.tools, found.providers)
    except ManifestError as exc:
        if (exc.key or "").startswith("permissions"):
            return exc.message
    return None


def check_url_policy(setup: Setup) -> Iterator[Finding]:
    """A warning for each URL-policy exception that opens private or metadata addresses to
    every page and every model: ``allow_hosts = ["*"]``, or an ``allow_cidrs`` range that
    holds a cloud metadata address."""
    if setup.manifest is None:
        return
    policy = setup.manifest.web.url_policy
    if "*" in policy.allow_hosts:
        yield Finding(
            check="url_policy",
            status="warn",
            detail='allow_hosts has "*": every host is exempt from the host and address '
            "block lists, private and cloud metadata addresses included",
            fix="name the hosts to exempt in web.url_policy.allow_hosts",
        )
    nets = parse_cidrs(policy.allow_cidrs)
    for net in nets:
        exposed = [str(a) for a in METADATA_ADDRESSES if a.version == net.version and a in net]
        if exposed:
            yield Finding(
                check="url_policy",
                status="warn",
                detail=f"allow_cidrs {str(net)!r} holds the cloud metadata address "
                f"{exposed[0]}: a page or a model can read this machine's credentials",
                fix="narrow web.url_policy.allow_cidrs to the addresses you mean",
            )


def _writable_dir(path: Path) -> Path | None:
    """The nearest existing directory of *path* if it is not writable, else ``None``."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return None if os.access(parent, os.W_OK) else parent


async def _store_stats(cfg: CacheConfig) -> CacheStats:
    """The store's stats: a SQLite file is not created; a PostgreSQL server is asked."""
    from ..cache import open_store

    store = open_store(cfg)
    try:
        async with asyncio.timeout(cfg.timeout_s + 1):
            return await store.stats()
    finally:
        await store.aclose()


def _stats_detail(stats: CacheStats) -> str:
    if stats.backend == "postgresql":
        return (
            f"PostgreSQL {stats.path} answers (server {stats.server_version}; "
            f"{format_bytes(stats.file_bytes)}, {stats.pages} pages, {stats.searches} searches)"
        )
    if not stats.exists:
        return f"SQLite {stats.path} (not created yet)"
    return (
        f"SQLite {stats.path} ({format_bytes(stats.file_bytes)}, {stats.pages} pages, "
        f"{stats.searches} searches)"
    )


def check_cache(setup: Setup) -> Iterator[Finding]:
    """The cache store in use (SQLite file or PostgreSQL), its size, and whether it answers."""
    if setup.manifest is None:
        return
    cfg = setup.manifest.web.cache
    if not cfg.enabled:
        yield Finding(check="cache", status="info", detail="disabled (web.cache.enabled = false)")
        return
    if not cfg.url:
        path = cache_file(cfg.path)
        blocked = _writable_dir(path)
        if blocked is not None:
            yield Finding(
                check="cache",
                status="warn",
                detail=f"SQLite {path}: {blocked} is not writable",
                fix="set web.cache.path to a writable location, or web.cache.enabled = false",
            )
            return
    try:
        stats = asyncio.run(_store_stats(cfg))
    except (ToolError, OSError, TimeoutError, ImportError) as exc:
        message = exc.message if isinstance(exc, ToolError) else f"{type(exc).__name__}: {exc}"
        fix = (
            "start the PostgreSQL server or correct web.cache.url (and the password in "
            f"${cfg.password_env}); pip install 'insomnia-web[postgres]' if it is missing"
            if cfg.url
            else "correct web.cache.path, or set web.cache.enabled = false"
        )
        yield Finding(check="cache", status="warn", detail=f"unavailable: {message}", fix=fix)
        return
    yield Finding(check="cache", status="ok", detail=_stats_detail(stats))


def check_history(setup: Setup) -> Iterator[Finding]:
    """The JSONL history file, if one is configured."""
    if setup.manifest is None:
        return
    configured = setup.manifest.web.history_path
    if not configured:
        yield Finding(check="history", status="info", detail="off (web.history_path is unset)")
        return
    path = expand_home(configured)
    problem = JsonlHistory(path).problem()  # the runtime's own start-up check
    if problem is not None:
        yield Finding(
            check="history",
            status="fail",
            detail=problem,
            fix="set web.history_path to a writable location",
        )
        return
    yield Finding(check="history", status="ok", detail=str(path))


ENABLES = {
    "mcp": "the MCP server (insomnia-web mcp)",
    "postgres": "the PostgreSQL cache store (web.cache.url)",
    "rerank": "passage re-ranking",
}
"""What each optional extra enables; every extra of the installed package is checked."""

DEVELOPER_EXTRAS = frozenset({"dev", "bench"})

_EXTRA_RE = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def extras() -> dict[str, list[str]]:
    """The installed package's optional extras and the distributions each one needs."""
    found: dict[str, list[str]] = {}
    try:
        requires = importlib.metadata.requires("insomnia-web") or []
    except importlib.metadata.PackageNotFoundError:
        return found
    for line in requires:
        extra, name = _EXTRA_RE.search(line), _NAME_RE.match(line)
        if extra and name and extra.group(1) not in DEVELOPER_EXTRAS:
            found.setdefault(extra.group(1), []).append(name.group(0))
    return found


def _installed(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def check_extras(setup: Setup) -> Iterator[Finding]:
    """Which optional extras are installed (read from the package's own metadata)."""
    for extra, dists in sorted(extras().items()):
        versions = {dist: _installed(dist) for dist in dists}
        enables = ENABLES.get(extra, f"the {extra} extra")
        if all(versions.values()):
            shown = ", ".join(f"{d} {v}" for d, v in versions.items())
            yield Finding(check=f"extra {extra}", status="ok", detail=shown)
            continue
        yield Finding(
            check=f"extra {extra}",
            status="info",
            detail=f"not installed: {enables} is unavailable",
            fix=f"pip install 'insomnia-web[{extra}]'",
        )


CHECKS: tuple[Callable[[Setup], Iterator[Finding]], ...] = (
    check_manifest,
    check_plugins,
    check_provider,
    check_rerank,
    check_permissions,
    check_url_policy,
    check_cache,
    check_history,
    check_extras,
)
"""Every check, in report order."""


def gather(explicit: str | None, env: Mapping[str, str]) -> Setup:
    """Find and load the manifest the other commands would use."""
    source = find_manifest(explicit, env=env)
    local = working_dir_manifest()
    try:
        manifest = load_manifest(source.path) if source.path else Manifest()
    except ManifestError as exc:
        return Setup(source=source, manifest=None, error=str(exc), env=env, working_dir=local)
    return Setup(
        source=source, manifest=manifest, env=env, working_dir=local, plugins=registry(manifest)
    )


def _write_text(findings: list[Finding], usable: bool, out: TextIO) -> None:
    """The report as lines; manifest values are shown with terminal controls escaped."""
    width = max(len(f.check) for f in findings)
    for f in findings:
        out.write(terminal_safe(f"{f.status:<4}  {f.check:<{width}}  {f.detail}") + "\n")
        if f.fix:
            out.write(terminal_safe(f"{'':<4}  {'':<{width}}  fix: {f.fix}") + "\n")
    out.write("usable\n" if usable else "not usable: fix the lines marked fail\n")


def run_doctor(explicit: str | None, *, as_json: bool, out: TextIO | None = None) -> int:
    """Run every check and print the report; 0 when usable, 1 when a check failed."""
    out = out or sys.stdout
    setup = gather(explicit, os.environ)
    findings = [finding for check in CHECKS for finding in check(setup)]
    usable = all(f.status != "fail" for f in findings)
    if as_json:
        report = {"usable": usable, "checks": msgspec.to_builtins(findings)}
        out.write(json.dumps(report, indent=2) + "\n")
    else:
        _write_text(findings, usable, out)
    return 0 if usable else 1
