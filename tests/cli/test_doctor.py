"""`insomnia-web doctor`: what is in use, what is missing, and how to fix it."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pluggy
import pytest

from insomnia_web import (
    Manifest,
    MockProvider,
    ProviderPlugin,
    hookimpl,
)
from insomnia_web.cli import doctor
from insomnia_web.errors import plugin_remedy
from insomnia_web.plugins import installed_plugins, make_plugin_manager
from tests.plugins.broken import KeyOnly, Unbuildable, Unremedied

from ..cache.backends import SKIP_REASON, backend_config, postgres_url
from .support import install_plugin, run


def _checks(stdout: str) -> dict[str, dict[str, Any]]:
    report = json.loads(stdout)
    return {c["check"]: c for c in report["checks"]}


def test_a_usable_setup_exits_0(tmp_path: Path, manifest: Path) -> None:
    """With a manifest and no provider, doctor names the manifest, warns with a fix, exits 0."""
    done = run("doctor", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert f"{manifest} (from --manifest)" in done.stdout
    assert "fix: set web.search.provider" in done.stdout
    assert "default ask; rules: 1 allow, 0 ask, 1 deny" in done.stdout
    assert str(tmp_path / "cache.sqlite3") in done.stdout
    assert done.stdout.endswith("usable\n")


def test_a_missing_key_fails_with_the_variable_never_the_value(tmp_path: Path) -> None:
    """Brave without its key fails (exit 1) naming the variable; a set key shows as set only."""
    manifest = tmp_path / "m.toml"
    manifest.write_text('[web.search]\nprovider = "brave"\n')
    env = {"BRAVE_SEARCH_API_KEY": ""}
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path, env=env)
    assert done.returncode == 1
    provider = _checks(done.stdout)["provider"]
    assert provider["status"] == "fail"
    assert provider["fix"] == "export BRAVE_SEARCH_API_KEY=YOUR-KEY"
    env = {"BRAVE_SEARCH_API_KEY": "sekrit-key-value"}
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path, env=env)
    assert done.returncode == 0
    assert _checks(done.stdout)["provider"]["detail"] == "brave; BRAVE_SEARCH_API_KEY is set"
    assert "sekrit" not in done.stdout


@pytest.mark.parametrize(
    ("text", "check", "said"),
    [
        (
            '[web.search]\nprovider = "nope"\n',
            "provider",
            "no provider named 'nope' is registered (registered: brave, searxng)",
        ),
        (
            '[permissions]\nallow = ["WebFecth"]\n',
            "permissions",
            "permissions.allow[0]: rule 'WebFecth' names no known tool 'WebFecth'",
        ),
        (
            '[web]\nhistory_path = "{tmp}/a-file/history.jsonl"\n',
            "history",
            "a-file is not a directory",
        ),
        (
            '[web.pipeline]\nrerank = "statc"\n',
            "rerank",
            "no reranker named 'statc' is registered (choices: none, static)",
        ),
    ],
    ids=["provider", "rule", "history", "rerank"],
)
def test_what_the_runtime_refuses_is_a_failed_check(
    text: str, check: str, said: str, tmp_path: Path
) -> None:
    """A manifest the tools would refuse at start-up is a failed check in a full report."""
    (tmp_path / "a-file").write_text("")
    manifest = tmp_path / "m.toml"
    manifest.write_text(text.replace("{tmp}", str(tmp_path)))
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    checks = _checks(done.stdout)
    assert checks[check]["status"] == "fail"
    assert said in checks[check]["detail"]
    assert checks[check]["fix"]
    if check == "provider":
        assert checks[check]["fix"].startswith("set web.search.provider to one of brave, searxng")
    if check == "rerank":
        assert checks[check]["fix"].startswith("set web.pipeline.rerank to one of the choices")
    assert {"manifest", "provider", "permissions", "cache", "history"} <= set(checks)
    tools = run("tools", "--manifest", str(manifest), cwd=tmp_path)
    assert tools.returncode == 2


def test_a_missing_manifest_file_gets_a_path_fix(tmp_path: Path) -> None:
    """A --manifest file that does not exist fails with a fix about the path, not a key."""
    done = run("doctor", "--json", "--manifest", "nope.toml", cwd=tmp_path)
    assert done.returncode == 1
    check = _checks(done.stdout)["manifest"]
    assert check["status"] == "fail"
    assert check["fix"] == (
        "create nope.toml, or correct the path given by --manifest "
        "(insomnia-web schema lists every key)"
    )


def test_a_broken_manifest_is_reported_not_crashed_on(tmp_path: Path) -> None:
    """A manifest that does not load is a failed check with the key, and exit 1."""
    manifest = tmp_path / "m.toml"
    manifest.write_text("[web.cache]\nsize = 1\n")
    done = run("doctor", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert "fail  manifest" in done.stdout
    assert "web.cache.size: unknown key" in done.stdout


def test_cache_size_history_and_extras(tmp_path: Path, manifest: Path, port: int) -> None:
    """After a fetch the cache has a size; the history path and the mcp extra are shown."""
    history = tmp_path / "logs" / "history.jsonl"
    manifest.write_text(
        manifest.read_text() + f"[web]\nhistory_path = {json.dumps(str(history))}\n"
    )
    fetched = run("fetch", f"http://site.test:{port}/", "--manifest", str(manifest), cwd=tmp_path)
    assert fetched.returncode == 0, fetched.stderr
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path)
    checks = _checks(done.stdout)
    assert checks["cache"]["detail"].startswith(f"SQLite {tmp_path / 'cache.sqlite3'} (")
    assert "KiB" in checks["cache"]["detail"]
    assert checks["history"]["detail"] == str(history)
    assert checks["extra mcp"]["status"] == "ok"


def test_an_unreachable_postgresql_store_is_a_warning_with_a_fix(tmp_path: Path) -> None:
    """A PostgreSQL cache that does not answer is shown as unavailable, with what to do."""
    manifest = tmp_path / "m.toml"
    manifest.write_text('[web.cache]\nurl = "postgresql://insomnia@127.0.0.1:1/x"\ntimeout_s = 1\n')
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0
    cache = _checks(done.stdout)["cache"]
    assert cache["status"] == "warn"
    assert cache["detail"].startswith("unavailable: the cache database at postgresql://")
    assert "start the PostgreSQL server" in cache["fix"]


@pytest.mark.skipif(postgres_url() is None, reason=SKIP_REASON)
def test_a_postgresql_store_that_answers(tmp_path: Path) -> None:
    """With web.cache.url on a live server, doctor says PostgreSQL answers."""
    with backend_config("postgresql", tmp_path) as cfg:
        manifest = tmp_path / "m.toml"
        manifest.write_text(f"[web.cache]\nurl = {json.dumps(cfg.url)}\n")
        done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path)
    cache = _checks(done.stdout)["cache"]
    assert cache["status"] == "ok", cache
    assert cache["detail"].startswith("PostgreSQL postgresql://")
    assert " answers (server " in cache["detail"]


def test_extras_come_from_the_package_metadata() -> None:
    """Every user-facing extra of the installed package is checked; dev and bench are not."""
    from insomnia_web.cli.doctor import extras

    found = extras()
    assert found["mcp"] == ["mcp"]
    assert "psycopg" in found["postgres"]
    assert not {"dev", "bench"} & set(found)


class _BrokenTools:
    """A plugin whose register_tools has a bug."""

    __name__ = "broken-tools"

    @hookimpl
    def register_tools(self, register: Callable[[Any], None], manifest: Manifest) -> None:
        raise RuntimeError("my bug")


def _doctor_with(
    plugins: list[object], text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, dict[str, Any]]:
    """Run doctor in-process with *plugins* as the installed ones; its checks by name."""

    def manager(**_: Any) -> pluggy.PluginManager:
        return make_plugin_manager(plugins=plugins, load_entrypoints=False)

    monkeypatch.setattr(doctor, "make_plugin_manager", manager)
    manifest = tmp_path / "m.toml"
    manifest.write_text(text)
    out = io.StringIO()
    doctor.run_doctor(str(manifest), as_json=True, out=out)
    checks: dict[str, dict[str, Any]] = {}
    for check in json.loads(out.getvalue())["checks"]:
        checks.setdefault(check["check"], check)
    return checks


def test_a_plugin_that_fails_to_register_is_a_failed_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin that raises at start-up is a failed plugins check naming it, not a traceback;
    its fix is the remedy the CLI prints for it."""
    checks = _doctor_with([_BrokenTools()], "", tmp_path, monkeypatch)
    plugins = checks["plugins"]
    assert plugins["status"] == "fail"
    assert "RuntimeError: my bug" in plugins["detail"]
    assert "broken-tools" in plugins["detail"]
    assert plugins["fix"] == plugin_remedy("broken-tools")
    assert {"manifest", "provider", "permissions", "cache"} <= set(checks)


def test_each_plugin_and_what_it_registers_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """doctor lists every plugin with the tools, providers and rerankers it registers."""
    checks = _doctor_with(
        [ProviderPlugin(MockProvider.named("canned", lambda request: []))],
        "",
        tmp_path,
        monkeypatch,
    )
    assert checks["plugin web"]["status"] == "ok"
    assert checks["plugin web"]["detail"].startswith("tools: WebSearch, WebFetch, SaveFinding")
    assert checks["plugin providers:canned"]["detail"] == "search providers: canned"


def test_a_provider_that_is_not_configured_shows_its_remedy_as_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A provider whose from_manifest says what to set has that remedy as the check's fix."""
    text = '[web.search]\nprovider = "searxng"\n'
    checks = _doctor_with([], text, tmp_path, monkeypatch)
    assert checks["provider"]["status"] == "fail"
    assert checks["provider"]["fix"].startswith("Set web.search.searxng.base_url to a SearXNG")


def test_a_plugin_providers_remedy_is_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin provider's not_configured remedy (an environment variable to set) is the
    check's fix, not advice to configure a manifest table."""
    text = '[web.search]\nprovider = "key-only"\n'
    checks = _doctor_with([ProviderPlugin(KeyOnly)], text, tmp_path, monkeypatch)
    assert checks["provider"]["status"] == "fail"
    assert checks["provider"]["fix"] == "Set KEY_ONLY_API_KEY to a Key-only Search API key."


def test_a_provider_without_a_remedy_is_not_told_to_run_doctor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A provider's not_configured without a remedy of its own gets a fix pointing at its
    message, not the default remedy (run doctor) nor a manifest table."""
    text = '[web.search]\nprovider = "unremedied"\n'
    checks = _doctor_with([ProviderPlugin(Unremedied)], text, tmp_path, monkeypatch)
    provider = checks["provider"]
    assert "needs UNREMEDIED_TOKEN set" in provider["detail"]
    assert "doctor" not in provider["fix"]
    assert "table" not in provider["fix"]
    assert provider["fix"].startswith("set what the message names")


def test_a_provider_that_cannot_be_built_is_a_failed_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A provider whose from_manifest raises is a failed provider check naming the exception,
    whose fix is the remedy a search would give (fix or uninstall its plugin)."""
    text = '[web.search]\nprovider = "unbuildable"\n'
    checks = _doctor_with([ProviderPlugin(Unbuildable)], text, tmp_path, monkeypatch)
    assert checks["provider"]["status"] == "fail"
    assert "could not be built: KeyError" in checks["provider"]["detail"]
    assert checks["provider"]["fix"].startswith("Fix or uninstall the plugin that provides it")


@pytest.mark.parametrize(("installed", "status"), [(True, "ok"), (False, "warn")])
def test_the_static_reranker_without_its_extra_is_a_warning(
    installed: bool, status: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rerank = "static" is ok with the rerank extra installed, and a warning with the pip
    command without it (excerpt searches would answer not_configured)."""
    real = doctor._installed
    monkeypatch.setattr(
        doctor, "_installed", lambda dist: real(dist) if installed or dist != "wordllama" else None
    )
    text = '[web.pipeline]\nrerank = "static"\n'
    rerank = _doctor_with([], text, tmp_path, monkeypatch)["rerank"]
    assert rerank["status"] == status
    if not installed:
        assert "excerpt searches answer not_configured" in rerank["detail"]
        assert rerank["fix"] == "pip install 'insomnia-web[rerank]'"


def _installed_with(name: str) -> list[str]:
    """The plugins a subprocess sees installed: the test's *name* and those of the
    environment (a plugin author's own), sorted."""
    return sorted({name, *installed_plugins()})


def test_insomnia_plugins_naming_no_installed_plugin_is_a_warning(tmp_path: Path) -> None:
    """An INSOMNIA_PLUGINS name no installed plugin has (a typo) is a warning naming it and
    the installed ones, and the installed plugins it leaves out are listed."""
    env = install_plugin(tmp_path, "acme", "")
    env["INSOMNIA_PLUGINS"] = "acm"
    done = run("doctor", "--json", cwd=tmp_path, env=env)
    found = [c for c in json.loads(done.stdout)["checks"] if c["check"] == "plugins"]
    installed = ", ".join(_installed_with("acme"))
    assert [(c["status"], c["detail"]) for c in found] == [
        ("warn", "INSOMNIA_PLUGINS names acm, which no installed plugin is called"),
        ("info", f"installed, not loaded (not in INSOMNIA_PLUGINS): {installed}"),
    ]
    assert f"installed: {installed}" in found[0]["fix"]


def test_insomnia_plugins_that_loads_every_plugin_says_nothing(tmp_path: Path) -> None:
    """INSOMNIA_PLUGINS naming every installed plugin adds no plugins finding."""
    env = install_plugin(tmp_path, "acme", "")
    env["INSOMNIA_PLUGINS"] = ",".join(_installed_with("acme"))
    done = run("doctor", "--json", cwd=tmp_path, env=env)
    checks = [c["check"] for c in json.loads(done.stdout)["checks"]]
    assert "plugins" not in checks
    assert "plugin acme" in checks


def test_url_policy_exceptions_that_open_metadata_addresses_are_warnings(tmp_path: Path) -> None:
    """allow_hosts = ["*"] and an allow_cidrs range holding a cloud metadata address are
    each a warning with a fix; a loopback range for a test server says nothing."""
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        '[web.url_policy]\nallow_hosts = ["*"]\n'
        'allow_cidrs = ["127.0.0.1/32", "169.254.0.0/16", "::/0"]\n'
    )
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path)
    found = [c for c in json.loads(done.stdout)["checks"] if c["check"] == "url_policy"]
    assert [c["status"] for c in found] == ["warn", "warn", "warn"]
    assert '"*"' in found[0]["detail"]
    assert "'169.254.0.0/16'" in found[1]["detail"]
    assert "169.254.169.254" in found[1]["detail"]
    assert "fd00:ec2::254" in found[2]["detail"]
    assert all(c["fix"] for c in found)
    manifest.write_text('[web.url_policy]\nallow_cidrs = ["127.0.0.1/32"]\n')
    done = run("doctor", "--json", "--manifest", str(manifest), cwd=tmp_path)
    assert not [c for c in json.loads(done.stdout)["checks"] if c["check"] == "url_policy"]
