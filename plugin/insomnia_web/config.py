"""The manifest (``insomnia.toml`` or JSON): typed Structs, loading and the JSON Schema.

One Struct is both the validator and the schema: ``manifest.schema.json`` is generated from
:class:`Manifest` by :func:`manifest_schema` and checked in; a test fails if it drifts.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin
from urllib.parse import parse_qsl, urlsplit

import msgspec
from msgspec import Meta

from .errors import ManifestError
from .hosts.addresses import parse_cidrs, parse_ip
from .hosts.names import pattern_problem
from .manifest_path import DEFAULT_CACHE_PATH, DEFAULT_MANIFEST_NAME, find_manifest
from .ownfiles import not_trusted_file
from .permissions import parse_rules

__all__ = [
    "DEFAULT_MANIFEST_NAME",
    "BraveConfig",
    "CacheConfig",
    "FetchConfig",
    "Manifest",
    "PermissionsConfig",
    "PipelineConfig",
    "SearchConfig",
    "SearxngConfig",
    "UrlPolicyConfig",
    "WebConfig",
    "load_manifest",
    "manifest_schema",
    "parse_manifest",
]

PermissionLevel = Literal["allow", "ask", "deny"]


class _Config(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, frozen=True):
    """Base of every manifest table: unknown keys are errors."""


class BraveConfig(_Config, frozen=True):
    """Brave Search API settings."""

    api_key_env: Annotated[
        str,
        Meta(
            pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
            description="Name of the environment variable holding the API key "
            "(the key itself never lives in the manifest).",
        ),
    ] = "BRAVE_SEARCH_API_KEY"
    base_url: Annotated[
        str,
        Meta(
            pattern=r"^https?://",
            description="API origin; /res/v1/web/search is appended. Override for a proxy or "
            "test (https, or http to this machine only).",
        ),
    ] = "https://api.search.brave.com"
    monthly_limit: Annotated[
        Annotated[int, Meta(ge=1)] | None,
        Meta(
            description="Refuse further Brave requests once this many were sent this calendar "
            "month (UTC), counted in the cache store shared by every process (needs the "
            "cache; while the store is unreachable no request is sent). Unset: no limit.",
        ),
    ] = None
    daily_limit: Annotated[
        Annotated[int, Meta(ge=1)] | None,
        Meta(
            description="Refuse further Brave requests once this many were sent today (UTC), "
            "counted in the cache store shared by every process, so one runaway agent cannot "
            "spend the month's budget in a day (needs the cache; while the store is "
            "unreachable no request is sent). Unset: no daily limit.",
        ),
    ] = None


class SearxngConfig(_Config, frozen=True):
    """SearXNG (self-hosted metasearch) settings."""

    base_url: Annotated[
        str | None,
        Meta(
            description="Instance origin, e.g. http://127.0.0.1:8888. A configured provider "
            "origin may be private. Unset means SearXNG is not configured.",
        ),
    ] = None


class SearchConfig(_Config, frozen=True):
    """WebSearch settings."""

    enabled: Annotated[bool, Meta(description="Register the WebSearch tool.")] = True
    provider: Annotated[
        str | None,
        Meta(
            description='Search provider name: "brave", "searxng" or a plugin-registered '
            "name (an unregistered name is refused when the runtime starts). Unset: WebSearch "
            "is registered but answers not_configured.",
        ),
    ] = None
    count: Annotated[int, Meta(ge=1, le=20, description="Default number of results (1-20).")] = 5
    mode: Annotated[
        Literal["excerpts", "results"],
        Meta(description="Default WebSearch mode."),
    ] = "excerpts"
    safesearch: Annotated[
        Literal["off", "moderate", "strict"], Meta(description="Safe-search level.")
    ] = "moderate"
    country: Annotated[
        str | None, Meta(description="Two-letter country code for results, e.g. US.")
    ] = None
    search_lang: Annotated[str | None, Meta(description="Language of results, e.g. en.")] = None
    ui_lang: Annotated[
        str | None, Meta(description="Language of the provider's metadata, e.g. en-US.")
    ] = None
    rate_limit_per_s: Annotated[
        float,
        Meta(
            gt=0,
            le=1000,
            description="Provider requests per second of this process, shared by its "
            "concurrent calls. With the cache, processes using one key also space their "
            "requests: two in a row by the faster of their two settings, so a lower value "
            "slows only this process. 429 answers honour Retry-After.",
        ),
    ] = 1.0
    timeout_s: Annotated[
        float, Meta(gt=0, le=120, description="Deadline of one provider request, in seconds.")
    ] = 10.0
    max_requests_per_runtime: Annotated[
        int,
        Meta(
            ge=0,
            description="Provider requests one runtime (one agent) may send, counted in "
            "memory: cache hits and searches refused before sending do not count. Past it a "
            "search is quota_exceeded, so one agent in a search loop cannot spend a shared "
            "key's budget for the others. 0: no bound.",
        ),
    ] = 0
    brave: BraveConfig = msgspec.field(default_factory=BraveConfig)
    searxng: SearxngConfig = msgspec.field(default_factory=SearxngConfig)
    plugins: Annotated[
        dict[str, dict[str, Any]],
        Meta(
            description="Settings for plugin-registered providers, by provider name; "
            "each provider validates its own table.",
        ),
    ] = msgspec.field(default_factory=dict)


class FetchConfig(_Config, frozen=True):
    """WebFetch and page-download limits (also used by the excerpt pipeline)."""

    enabled: Annotated[bool, Meta(description="Register the WebFetch tool.")] = True
    timeout_s: Annotated[
        float, Meta(gt=0, le=300, description="Total deadline of one fetch, in seconds.")
    ] = 20.0
    connect_timeout_s: Annotated[
        float, Meta(gt=0, le=120, description="Deadline to open a connection, in seconds.")
    ] = 10.0
    max_response_bytes: Annotated[
        int,
        Meta(
            ge=1024,
            le=1 << 30,
            description="Cap on the decompressed body size, in bytes; the body is cut there.",
        ),
    ] = 5 * 1024 * 1024
    max_output_chars: Annotated[
        int,
        Meta(
            ge=100,
            le=1_000_000,
            description="Default and cap of the characters of page text returned per call.",
        ),
    ] = 20_000
    max_redirects: Annotated[
        int, Meta(ge=0, le=20, description="Redirect hops followed, each re-checked.")
    ] = 5
    user_agent: Annotated[
        str, Meta(min_length=1, max_length=200, description="Fixed User-Agent header.")
    ] = "insomnia-web/0.1 (+https://pypi.org/project/insomnia-web/)"
    robots: Annotated[
        Literal["obey", "ignore"],
        Meta(
            description="obey: WebFetch and excerpt pages follow each site's robots.txt for "
            "the User-Agent's product token (robots_disallowed otherwise); ignore: never read it.",
        ),
    ] = "obey"
    host_rate_limit_per_s: Annotated[
        float,
        Meta(
            gt=0,
            le=1000,
            description="Requests per second to one host, shared by WebFetch and excerpt "
            "pages (after a burst of host_burst).",
        ),
    ] = 2.0
    host_burst: Annotated[
        int,
        Meta(
            ge=1,
            le=100,
            description="Requests to one host allowed at once before the per-host rate applies.",
        ),
    ] = 5
    proxy: Annotated[
        Annotated[str, Meta(pattern=r"^https?://[^/?#@]+/?$")] | None,
        Meta(
            description="Forward proxy for every request, e.g. http://proxy.internal:3128 "
            "(never read from the environment). The proxy resolves names, so DNS pinning "
            "does not apply; the URL policy still checks host names and literal addresses.",
        ),
    ] = None


class PipelineConfig(_Config, frozen=True):
    """The excerpt pipeline of WebSearch (search -> fetch -> rank)."""

    pages: Annotated[int, Meta(ge=1, le=10, description="Pages fetched per excerpt search.")] = 5
    deadline_s: Annotated[
        float,
        Meta(gt=0, le=120, description="Overall deadline for fetching pages, in seconds."),
    ] = 10.0
    max_tokens: Annotated[
        int,
        Meta(
            ge=100,
            le=8000,
            description="Default excerpt token budget; also the cap of a call's max_tokens.",
        ),
    ] = 1500
    per_host_concurrency: Annotated[
        int, Meta(ge=1, le=10, description="Concurrent page fetches per host.")
    ] = 6
    max_pages_per_host: Annotated[
        int,
        Meta(
            ge=1,
            le=10,
            description="Most pages of one host an excerpt search reads (the others count by "
            "their snippets); beyond per_host_concurrency or web.fetch.host_burst they queue.",
        ),
    ] = 5
    rerank: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=100,
            description='Passage reranker: "none", "static" (needs the rerank extra) or the '
            "name a plugin registered.",
        ),
    ] = "none"


class UrlPolicyConfig(_Config, frozen=True):
    """Which URLs and addresses may be fetched."""

    schemes: Annotated[list[Literal["http", "https"]], Meta(description="Allowed URL schemes.")] = (
        msgspec.field(default_factory=lambda: ["http", "https"])
    )
    ports: Annotated[
        list[Annotated[int, Meta(ge=1, le=65535)]],
        Meta(description="Allowed ports (explicit or implied by the scheme)."),
    ] = msgspec.field(default_factory=lambda: [80, 443, 8000, 8080, 8443])
    allow_cidrs: Annotated[
        list[str],
        Meta(
            description='Exceptions to the address block list, e.g. ["127.0.0.1/32"] '
            "for a local test server.",
        ),
    ] = msgspec.field(default_factory=list)
    allow_hosts: Annotated[
        list[str],
        Meta(
            description="Host patterns exempt from the hostname and address block lists "
            '("example.com", "*.example.com", "*" or an IP address); no scheme, port or path.',
        ),
    ] = msgspec.field(default_factory=list)
    deny_hosts: Annotated[
        list[str],
        Meta(
            description='Host patterns never fetched ("example.com", "*.example.com", "*" or '
            "an IP address); no scheme, port or path.",
        ),
    ] = msgspec.field(default_factory=list)
    resolve: Annotated[
        dict[str, list[str]],
        Meta(
            description="Static DNS answers by host, like curl --resolve; they replace DNS for "
            "these hosts only and are still vetted by the address policy.",
        ),
    ] = msgspec.field(default_factory=dict)
    dns_timeout_s: Annotated[
        float, Meta(gt=0, le=60, description="Deadline of a DNS lookup, in seconds.")
    ] = 5.0


class CacheConfig(_Config, frozen=True):
    """The cache of searches, page snapshots, findings and provider request budgets.

    A local SQLite file by default; ``url`` moves it to a PostgreSQL server shared by hosts.
    """

    enabled: Annotated[bool, Meta(description="Use the cache.")] = True
    path: Annotated[
        str,
        Meta(
            min_length=1,
            description=(
                "SQLite file: an absolute path; ~ is expanded. The default is under "
                "$XDG_CACHE_HOME when that is set to an absolute path."
            ),
        ),
    ] = DEFAULT_CACHE_PATH
    url: Annotated[
        Annotated[str, Meta(pattern=r"^postgres(ql)?://")] | None,
        Meta(
            description="PostgreSQL server instead of the SQLite file, e.g. "
            '"postgresql://insomnia@db.example:5432/insomnia" (needs the postgres extra). '
            "No password here: it comes from the variable named by password_env.",
        ),
    ] = None
    password_env: Annotated[
        str,
        Meta(
            pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
            description="Environment variable holding the PostgreSQL password (unset "
            "variable: no password, e.g. for a .pgpass file or peer authentication).",
        ),
    ] = "INSOMNIA_WEB_CACHE_PASSWORD"  # noqa: S105 - a variable name, not a password
    timeout_s: Annotated[
        float,
        Meta(
            gt=0,
            le=60,
            description="Longest wait for the PostgreSQL server per cache step; past it, or "
            "when it is down, the call goes on uncached (cache_unavailable).",
        ),
    ] = 3.0
    search_ttl_s: Annotated[
        int, Meta(ge=0, description="Age after which a cached search is not reused.")
    ] = 86_400
    page_ttl_s: Annotated[
        int, Meta(ge=0, description="Age after which a page snapshot is not reused.")
    ] = 604_800
    finding_ttl_s: Annotated[
        int, Meta(ge=0, description="Lifetime of a model-contributed finding.")
    ] = 2_592_000
    findings: Annotated[bool, Meta(description="Register the SaveFinding tool.")] = True
    max_mb: Annotated[
        Annotated[int, Meta(ge=1)] | None,
        Meta(
            description="Size cap of the SQLite file in MiB: past it, the least recently used "
            "searches and pages are deleted (findings never). Unset: no cap.",
        ),
    ] = 512


class WebConfig(_Config, frozen=True):
    """The ``[web]`` table: insomnia-web's own settings."""

    enabled: Annotated[bool, Meta(description="Register any web tool at all.")] = True
    history_path: Annotated[
        str | None,
        Meta(
            description="Append history events to this JSONL file: an absolute path; ~ is expanded."
        ),
    ] = None
    history_max_mb: Annotated[
        float,
        Meta(
            ge=0,
            description="Size cap of the history file in MiB: past it the file is rotated "
            "(history.jsonl -> history.jsonl.1 ...). 0: no cap.",
        ),
    ] = 50.0
    history_backups: Annotated[
        int, Meta(ge=0, le=100, description="Rotated history files kept (oldest dropped).")
    ] = 3
    search: SearchConfig = msgspec.field(default_factory=SearchConfig)
    fetch: FetchConfig = msgspec.field(default_factory=FetchConfig)
    pipeline: PipelineConfig = msgspec.field(default_factory=PipelineConfig)
    url_policy: UrlPolicyConfig = msgspec.field(default_factory=UrlPolicyConfig)
    cache: CacheConfig = msgspec.field(default_factory=CacheConfig)


_RULE_DOC = (
    'Rules "Tool" or "Tool(domain:PATTERN)"; Tool is a registered tool or its MCP name '
    "(WebFetch or web_fetch); PATTERN is a host, *.host for its subdomains, or * for any host."
)


class PermissionsConfig(_Config, frozen=True):
    """Host permission policy: deny, then ask, then allow; first match wins."""

    default: Annotated[
        PermissionLevel, Meta(description="Decision when no rule and no plugin has an opinion.")
    ] = "ask"
    allow: Annotated[list[str], Meta(description="Calls allowed without asking. " + _RULE_DOC)] = (
        msgspec.field(default_factory=list)
    )
    ask: Annotated[list[str], Meta(description="Calls that ask the user. " + _RULE_DOC)] = (
        msgspec.field(default_factory=list)
    )
    deny: Annotated[list[str], Meta(description="Calls always refused. " + _RULE_DOC)] = (
        msgspec.field(default_factory=list)
    )


class Manifest(_Config, frozen=True):
    """insomnia-web manifest (insomnia.toml): the [web] settings and the [permissions] policy."""

    web: WebConfig = msgspec.field(default_factory=WebConfig)
    permissions: PermissionsConfig = msgspec.field(default_factory=PermissionsConfig)


_PATH_RE = re.compile(r" - at `(\$[^`]*)`$")
_NAMED_RE = re.compile(r"^Object (?:contains unknown|missing required) field `([^`]+)`")


def validation_location(exc: msgspec.ValidationError) -> tuple[str, str]:
    """Where a msgspec validation error is (a JSON path like ``$.web.count``) and its rule.

    An unknown or missing field is located at the field itself, not at its parent.
    """
    msg = str(exc)
    m = _PATH_RE.search(msg)
    path = m.group(1) if m else "$"
    text = msg[: m.start()] if m else msg
    named = _NAMED_RE.match(text)
    if named:
        path = f"{path}.{named.group(1)}"
    return path, text


def _field_type(path: list[str]) -> Any:
    """The declared type of the manifest field at *path* (list indexes ignored), or None."""
    tp: Any = Manifest
    for part in path:
        if not (isinstance(tp, type) and issubclass(tp, msgspec.Struct)):
            return None
        name = re.sub(r"\[\d+\]$", "", part)
        tp = {f.encode_name: f.type for f in msgspec.structs.fields(tp)}.get(name)
    return tp


def _allowed_keys(path: list[str]) -> list[str] | None:
    """The keys allowed in the table holding ``path[-1]``, or ``None`` if it is not a table."""
    tp = _field_type(path[:-1])
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return [f.encode_name for f in msgspec.structs.fields(tp)]
    return None


def _allowed_values(path: list[str]) -> list[str]:
    """The literal choices of the field at *path* (list items included), if it has any."""
    found: list[str] = []
    stack = [_field_type(path)]
    while stack:
        t = stack.pop()
        if get_origin(t) is Literal:
            found.extend(str(a) for a in get_args(t))
        else:
            stack.extend(a for a in get_args(t) if not isinstance(a, Meta))
    return found


def parse_manifest(data: dict[str, Any], *, source: str = "manifest") -> Manifest:
    """Validate a decoded manifest mapping; errors name the key path and the rule."""
    try:
        manifest = msgspec.convert(data, Manifest, str_keys=True)
    except RecursionError as exc:
        raise ManifestError(f"{source}: the manifest is nested too deeply") from exc
    except msgspec.ValidationError as exc:
        path, text = validation_location(exc)
        key = path.removeprefix("$").lstrip(".") or "(top level)"
        if text.startswith("Invalid enum value"):
            choices = _allowed_values(key.split("."))
            if choices:
                text += f" (allowed: {', '.join(choices)})"
        if text.startswith("Object contains unknown field"):
            allowed = _allowed_keys(key.split("."))
            text = "unknown key" + (f" (allowed: {', '.join(allowed)})" if allowed else "")
        raise ManifestError(f"{source}: {key}: {text}", key=key) from exc
    _check_semantics(manifest, source)
    return manifest


def _check_semantics(manifest: Manifest, source: str) -> None:
    perms = manifest.permissions
    for level in ("allow", "ask", "deny"):
        try:
            parse_rules(getattr(perms, level))
        except ValueError as exc:
            raise ManifestError(
                f"{source}: permissions.{level}: {exc}", key=f"permissions.{level}"
            ) from exc

    for name in ("allow_hosts", "deny_hosts"):
        for index, pattern in enumerate(getattr(manifest.web.url_policy, name)):
            problem = pattern_problem(pattern)
            if problem is not None:
                key = f"web.url_policy.{name}[{index}]"
                raise ManifestError(f"{source}: {key}: {problem}", key=key)
    try:
        parse_cidrs(manifest.web.url_policy.allow_cidrs)
    except ValueError as exc:
        raise ManifestError(
            f"{source}: web.url_policy.allow_cidrs: {exc}", key="web.url_policy.allow_cidrs"
        ) from exc
    for host, addresses in manifest.web.url_policy.resolve.items():
        try:
            for address in addresses:
                parse_ip(address)
        except ValueError as exc:
            raise ManifestError(
                f"{source}: web.url_policy.resolve.{host}: {exc}",
                key=f"web.url_policy.resolve.{host}",
            ) from exc
    _check_cache_url(manifest, source)
    _check_file_paths(manifest, source)
    _check_key_origin(manifest, source)


def _check_key_origin(manifest: Manifest, source: str) -> None:
    """Refuse a provider origin with a ``user:password@`` part (every request would be
    refused for it, and the origin names the provider's request budget in the cache), and
    a Brave origin over plain http to another machine: the API key would cross the network
    unencrypted in every request (a test server on this machine may use it)."""
    search = manifest.web.search
    for name, origin in (("brave", search.brave.base_url), ("searxng", search.searxng.base_url)):
        if origin and "@" in urlsplit(origin).netloc:
            raise ManifestError(
                f"{source}: web.search.{name}.base_url: the origin holds a user:password@ "
                "part, which requests never send; remove it (an instance behind a password "
                "needs a provider plugin that sends it in a header)",
                key=f"web.search.{name}.base_url",
            )
    parts = urlsplit(search.brave.base_url)
    if parts.scheme.lower() == "http" and not _loopback(parts.hostname or ""):
        raise ManifestError(
            f"{source}: web.search.brave.base_url: {parts.hostname!r} over plain http would "
            "receive the API key unencrypted; use https:// (http only for a server on this "
            "machine: 127.0.0.1, ::1 or localhost)",
            key="web.search.brave.base_url",
        )


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return parse_ip(host).is_loopback
    except ValueError:
        return False


def _check_file_paths(manifest: Manifest, source: str) -> None:
    """Refuse a relative cache or history path: it would name a file in whatever folder
    the agent runs in (a repository it works in could hold a cache of its own there)."""
    for key, value in (
        ("web.cache.path", manifest.web.cache.path),
        ("web.history_path", manifest.web.history_path),
    ):
        if value and not value.startswith("~") and not Path(value).is_absolute():
            raise ManifestError(
                f"{source}: {key}: {value!r} is a relative path, which would name a file in "
                "whatever folder the agent runs in; write an absolute path or one starting "
                "with ~",
                key=key,
            )


def _check_cache_url(manifest: Manifest, source: str) -> None:
    brave = manifest.web.search.brave
    for name, limit in (("monthly_limit", brave.monthly_limit), ("daily_limit", brave.daily_limit)):
        if limit is not None and not manifest.web.cache.enabled:
            raise ManifestError(
                f"{source}: web.search.brave.{name}: requests are counted in the cache "
                "store; it needs web.cache.enabled = true",
                key=f"web.search.brave.{name}",
            )
    url = manifest.web.cache.url
    if url is None:
        return
    parsed = urlsplit(url)
    if parsed.password is not None:
        raise ManifestError(
            f"{source}: web.cache.url: the URL holds a password; remove it and put it in the "
            f"environment variable named by web.cache.password_env "
            f"({manifest.web.cache.password_env})",
            key="web.cache.url",
        )
    # The client library percent-decodes parameter names as parse_qsl does.
    names = (name.lower() for name, _ in parse_qsl(parsed.query, keep_blank_values=True))
    if any("password" in name for name in names):
        raise ManifestError(
            f"{source}: web.cache.url: the URL holds a password parameter; use "
            "web.cache.password_env instead",
            key="web.cache.url",
        )


def load_manifest(path: str | os.PathLike[str] | None = None) -> Manifest:
    """Load a TOML or JSON manifest.

    With no *path*: ``$INSOMNIA_WEB_MANIFEST``, else
    ``$XDG_CONFIG_HOME/insomnia-web/insomnia.toml``, else the built-in defaults (see
    :mod:`insomnia_web.manifest_path`; a manifest in the working directory is read only when
    named). A manifest another user owns or may write, or one in a folder another user may
    write in, is refused: its rules, proxy and key variable would be theirs to set.
    """
    if path is None:
        found = find_manifest().path
        if found is None:
            return Manifest()
        path = found
    p = Path(path)
    untrusted = not_trusted_file(p)
    if untrusted is not None:
        raise ManifestError(
            f"{p}: not read, as another user could have written it: {untrusted}; make it "
            "(and its folder) yours alone, e.g. chmod 600 on the file and 700 on the folder"
        )
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ManifestError(f"{p}: cannot read manifest: {exc.strerror}") from exc
    try:
        if p.suffix.lower() == ".json":
            data = json.loads(raw)
        else:
            data = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{p}: not valid {p.suffix.lstrip('.') or 'TOML'}: {exc}") from exc
    except RecursionError as exc:
        raise ManifestError(f"{p}: the manifest is nested too deeply to read") from exc
    if not isinstance(data, dict):
        raise ManifestError(f"{p}: the manifest must be a table/object")
    return parse_manifest(data, source=str(p))


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
            return _inline_refs(merged, defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def inline_schema(tp: Any) -> dict[str, Any]:
    """JSON Schema of a msgspec type with every ``$ref`` inlined (no ``$defs``)."""
    schema = msgspec.json.schema(tp)
    defs = schema.pop("$defs", {})
    out: dict[str, Any] = _inline_refs(schema, defs)
    return out


def manifest_schema() -> dict[str, Any]:
    """The manifest's JSON Schema, as checked in at ``manifest.schema.json``."""
    schema = inline_schema(Manifest)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://pypi.org/project/insomnia-web/manifest.schema.json",
        "title": "insomnia-web manifest",
        **schema,
    }


def manifest_schema_text() -> str:
    """The manifest schema as stable, pretty-printed JSON text (with a final newline)."""
    return json.dumps(manifest_schema(), indent=2, sort_keys=True) + "\n"
