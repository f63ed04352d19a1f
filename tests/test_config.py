"""The manifest: defaults, loading, errors that name the key, the checked-in schema."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from insomnia_web.config import (
    Manifest,
    load_manifest,
    manifest_schema,
    manifest_schema_text,
    parse_manifest,
)
from insomnia_web.errors import ManifestError

ROOT = Path(__file__).resolve().parents[1]

EXAMPLE_TOML = """
[web]
enabled = true

[web.search]
provider = "brave"
count = 5
mode = "excerpts"
safesearch = "moderate"
rate_limit_per_s = 1.0
[web.search.brave]
api_key_env = "BRAVE_SEARCH_API_KEY"
base_url = "https://api.search.brave.com"
[web.search.searxng]
base_url = "http://127.0.0.1:8888"

[web.fetch]
timeout_s = 20
connect_timeout_s = 10
max_response_bytes = 5242880
max_output_chars = 20000
max_redirects = 5

[web.pipeline]
pages = 5
deadline_s = 10
max_tokens = 1500

[web.url_policy]
schemes = ["http", "https"]
ports = [80, 443, 8000, 8080, 8443]
allow_cidrs = []
allow_hosts = []
deny_hosts = []

[web.cache]
enabled = true
path = "~/.cache/insomnia-web/cache.sqlite3"
search_ttl_s = 86400
page_ttl_s = 604800
finding_ttl_s = 2592000

[permissions]
default = "ask"
allow = ["WebSearch", "WebFetch(domain:docs.python.org)"]
ask   = ["SaveFinding"]
deny  = ["WebFetch(domain:*.internal.example)"]
"""


def test_design_example_manifest_loads(tmp_path: Path) -> None:
    """The manifest example of the design document loads as written."""
    path = tmp_path / "insomnia.toml"
    path.write_text(EXAMPLE_TOML)
    manifest = load_manifest(path)
    assert manifest.web.search.provider == "brave"
    assert manifest.permissions.deny == ["WebFetch(domain:*.internal.example)"]


def test_json_manifest_loads(tmp_path: Path) -> None:
    """A JSON manifest is read like a TOML one."""
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"web": {"fetch": {"max_redirects": 2}}}))
    assert load_manifest(path).web.fetch.max_redirects == 2


def test_no_manifest_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a path, the environment variable or a user manifest, the built-in defaults
    apply, even beside a ./insomnia.toml (read only when named)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("INSOMNIA_WEB_MANIFEST", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert load_manifest() == Manifest()
    (tmp_path / "insomnia.toml").write_text("[web.search]\ncount = 7\n")
    assert load_manifest() == Manifest()
    assert load_manifest("insomnia.toml").web.search.count == 7


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[web.serch]\ncount = 3\n", "web.serch", "unknown key"),
        ("[web.search]\ncuont = 3\n", "web.search.cuont", "allowed: enabled"),
        ("[web.search]\ncount = 50\n", "web.search.count", "<= 20"),
        ("[web.search]\nmode = 'fast'\n", "web.search.mode", "excerpts"),
        ("[web.search.brave]\ndaily_limit = 0\n", "web.search.brave.daily_limit", ">= 1"),
        ("[web.url_policy]\nallow_cidrs = ['nope']\n", "web.url_policy.allow_cidrs", "nope"),
        ("[permissions]\ndeny = ['WebFetch(domain:)']\n", "permissions.deny", "malformed"),
        ("[permissions]\ndefault = 'maybe'\n", "permissions.default", "allow"),
    ],
)
def test_bad_manifest_names_the_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    """Unknown keys and bad values are refused with the key path and the rule."""
    path = tmp_path / "insomnia.toml"
    path.write_text(text)
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    assert info.value.key == key
    assert key in str(info.value)
    assert words in str(info.value)


def test_unparseable_manifest_is_a_manifest_error(tmp_path: Path) -> None:
    """A manifest that is not valid TOML is refused with the file name."""
    path = tmp_path / "insomnia.toml"
    path.write_text("[web\n")
    with pytest.raises(ManifestError, match=r"insomnia\.toml"):
        load_manifest(path)


def test_checked_in_schema_matches_the_structs() -> None:
    """manifest.schema.json is exactly what the config Structs generate (regenerate with
    ``insomnia-web schema > manifest.schema.json``)."""
    assert (ROOT / "manifest.schema.json").read_text() == manifest_schema_text()


def _properties(node: Any, path: str = "$") -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for name, prop in node.get("properties", {}).items():
            found.append((f"{path}.{name}", prop))
            found.extend(_properties(prop, f"{path}.{name}"))
        for key in ("anyOf", "items", "additionalProperties"):
            sub = node.get(key)
            for s in sub if isinstance(sub, list) else [sub]:
                found.extend(_properties(s, path))
    return found


def test_every_manifest_key_is_described() -> None:
    """Every property of the manifest schema has a description or is a described table."""
    schema = manifest_schema()
    assert "$ref" not in json.dumps(schema)
    for path, prop in _properties(schema):
        assert prop.get("description") or prop.get("title"), path


@pytest.mark.parametrize(
    ("table", "pattern"),
    [
        ("deny_hosts", "http://evil.example/"),
        ("deny_hosts", "evil example"),
        ("allow_hosts", "evil.example:8080"),
        ("deny_hosts", "*.ev*l.example"),
        ("allow_hosts", "xn--zz.example"),
    ],
)
def test_host_pattern_that_would_never_match_is_refused(table: str, pattern: str) -> None:
    """A host pattern with a scheme, port, path, space or bad label is refused at load,
    naming the key path and the accepted forms."""
    data = {"web": {"url_policy": {table: ["fine.example", pattern]}}}
    with pytest.raises(ManifestError) as info:
        parse_manifest(data)
    assert info.value.key == f"web.url_policy.{table}[1]"
    assert "example.com, *.example.com, *" in info.value.message


@pytest.mark.parametrize("pattern", ["*", "*.Example.COM.", "bücher.de", "10.0.0.1", "::1"])
def test_good_host_patterns_load(pattern: str) -> None:
    """Hosts, subdomain patterns, * and IP addresses are accepted host patterns."""
    assert parse_manifest({"web": {"url_policy": {"deny_hosts": [pattern]}}})


def test_deeply_nested_manifest_is_a_manifest_error(tmp_path: Path) -> None:
    """A TOML or JSON manifest nested thousands deep is an invalid manifest, not a crash."""
    for name, text in (
        ("deep.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n"),
        ("deep.json", '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(ManifestError, match="nested too deeply"):
            load_manifest(path)


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"web": {"cache": {"path": "cache.sqlite3"}}}, "web.cache.path"),
        ({"web": {"cache": {"path": "./state/cache.sqlite3"}}}, "web.cache.path"),
        ({"web": {"history_path": "history.jsonl"}}, "web.history_path"),
    ],
)
def test_a_relative_cache_or_history_path_is_refused(data: dict[str, Any], key: str) -> None:
    """A relative cache or history path is refused at load, naming the key: it meant a file
    in whatever folder the agent runs in, where a repository it works in could hold a
    cache of its own (the user's file, so served) and would receive every query read."""
    with pytest.raises(ManifestError) as info:
        parse_manifest(data)
    assert info.value.key == key
    assert "absolute" in info.value.message


@pytest.mark.parametrize("path", ["~/c.sqlite3", "/var/lib/insomnia/c.sqlite3"])
def test_absolute_and_home_paths_load(path: str) -> None:
    """An absolute path, or one starting with ``~``, is a cache or history path."""
    assert parse_manifest({"web": {"history_path": path, "cache": {"path": path}}})


@pytest.mark.parametrize("url", ["http://api.search.brave.com", "http://proxy.example:8080/"])
def test_a_plain_http_brave_origin_is_refused(url: str) -> None:
    """A Brave base_url over plain http to another machine is refused at load, naming the
    key: the API key went there unencrypted in every request."""
    with pytest.raises(ManifestError) as info:
        parse_manifest({"web": {"search": {"brave": {"base_url": url}}}})
    assert info.value.key == "web.search.brave.base_url"
    assert "https" in info.value.message


@pytest.mark.parametrize("provider", ["brave", "searxng"])
@pytest.mark.parametrize(
    "origin",
    [
        "https://ann:s3cret@search.example",
        "https://ann@search.example/",
        "https://:s3cret@search.example",
    ],
)
def test_a_provider_origin_holding_a_user_or_password_is_refused(
    provider: str, origin: str
) -> None:
    """A provider base_url with a user:password@ part is refused at load, naming the key and
    not the password: every search failed with credentials_in_url, and the origin (password
    and all) named the provider's request budget in the cache, which `cache stats` shows."""
    with pytest.raises(ManifestError) as info:
        parse_manifest({"web": {"search": {provider: {"base_url": origin}}}})
    assert info.value.key == f"web.search.{provider}.base_url"
    assert "s3cret" not in str(info.value)
    assert "user:password@" in info.value.message


@pytest.mark.parametrize("url", ["http://127.0.0.1:8888", "http://[::1]:9", "http://localhost:9"])
def test_a_plain_http_brave_origin_on_this_machine_loads(url: str) -> None:
    """A Brave base_url over plain http to this machine (a test server) is accepted."""
    assert parse_manifest({"web": {"search": {"brave": {"base_url": url}}}})


@pytest.mark.parametrize(
    ("mode", "folder_mode", "owner", "why"),
    [
        (0o666, 0o700, None, "may be written by every user"),
        (0o644, 0o777, None, "every user may write in it"),
        (0o644, 0o700, 4242, "belongs to another user (uid 4242)"),
    ],
    ids=["world-writable", "in-a-shared-folder", "theirs"],
)
def test_a_manifest_another_user_could_have_written_is_refused(
    tmp_path: Path, mode: int, folder_mode: int, owner: int | None, why: str
) -> None:
    """A manifest another user owns or may write, or one in a folder another user may write
    in (a shared ``XDG_CONFIG_HOME``), is refused: its permission rules, proxy, history file
    and the variable the search key is read from would be theirs to set."""
    if owner is not None and os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    folder = tmp_path / "config"
    folder.mkdir()
    path = folder / "insomnia.toml"
    path.write_text('[permissions]\nallow = ["WebFetch"]\n')
    path.chmod(mode)
    folder.chmod(folder_mode)
    if owner is not None:
        os.chown(path, owner, -1)
    with pytest.raises(ManifestError, match=re.escape(why)):
        load_manifest(path)
