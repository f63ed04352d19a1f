"""Where the manifest comes from: --manifest, $INSOMNIA_WEB_MANIFEST,
$XDG_CONFIG_HOME/insomnia-web/insomnia.toml, then the built-in defaults; ./insomnia.toml only
when named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from insomnia_web.manifest_path import find_manifest, user_manifest_path, working_dir_manifest

from .support import run


def _write(path: Path, count: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"[web.search]\ncount = {count}\n[web.fetch]\nmax_output_chars = {1000 + count}\n"
    )
    return path


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A manifest in each place of the search order, each with its own limits."""
    work = tmp_path / "work"
    config = tmp_path / "config"
    return {
        "work": work,
        "config": config,
        "explicit": _write(tmp_path / "explicit.toml", 1),
        "env": _write(tmp_path / "env.toml", 2),
        "local": _write(work / "insomnia.toml", 3),
        "user": _write(config / "insomnia-web" / "insomnia.toml", 4),
    }


def test_search_order(places: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each place wins over the ones after it; with none, the built-in defaults apply, and
    the working directory's manifest is never one of them."""
    monkeypatch.chdir(places["work"])
    env = {"INSOMNIA_WEB_MANIFEST": str(places["env"]), "XDG_CONFIG_HOME": str(places["config"])}
    found = find_manifest(places["explicit"], env=env)
    assert (found.path, found.origin) == (places["explicit"], "--manifest")
    assert find_manifest(env=env).origin == "$INSOMNIA_WEB_MANIFEST"
    del env["INSOMNIA_WEB_MANIFEST"]
    found = find_manifest(env=env)
    assert (found.path, found.origin) == (places["user"], "user config")
    places["user"].unlink()
    assert find_manifest(env=env).path is None
    assert working_dir_manifest() == places["local"]


def test_a_working_directory_manifest_is_read_only_when_named(places: dict[str, Path]) -> None:
    """A repository's insomnia.toml changes nothing unless --manifest names it; doctor says
    it is there and how to use it."""
    env = {"XDG_CONFIG_HOME": str(places["config"])}
    places["user"].unlink()
    done = run("tools", "--json", cwd=places["work"], env=env)
    fetch = next(t for t in json.loads(done.stdout) if t["name"] == "WebFetch")
    assert "at most 1003 chars per call" not in fetch["description"]
    named = run("tools", "--json", "--manifest", "./insomnia.toml", cwd=places["work"], env=env)
    fetch = next(t for t in json.loads(named.stdout) if t["name"] == "WebFetch")
    assert "at most 1003 chars per call" in fetch["description"]
    report = json.loads(run("doctor", "--json", cwd=places["work"], env=env).stdout)
    notes = [c for c in report["checks"] if "working directory" in c["detail"]]
    assert notes
    assert "--manifest ./insomnia.toml" in notes[0]["fix"]


def test_user_config_defaults_to_dot_config(tmp_path: Path) -> None:
    """Without $XDG_CONFIG_HOME the user manifest is ~/.config/insomnia-web/insomnia.toml."""
    assert user_manifest_path({"HOME": str(tmp_path)}).parts[-3:] == (
        ".config",
        "insomnia-web",
        "insomnia.toml",
    )


def test_a_relative_xdg_config_home_is_ignored(
    places: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative $XDG_CONFIG_HOME is ignored, as the XDG spec says: it named a folder
    inside whatever directory the agent runs in, so a repository's
    ``config/insomnia-web/insomnia.toml`` became the user's manifest."""
    _write(places["work"] / "config" / "insomnia-web" / "insomnia.toml", 5)
    monkeypatch.chdir(places["work"])
    for relative in ("config", "./config"):
        path = user_manifest_path({"XDG_CONFIG_HOME": relative})
        assert path.is_absolute()
        assert path.parts[-3:] == (".config", "insomnia-web", "insomnia.toml")


def test_the_cli_reads_the_user_config(places: dict[str, Path]) -> None:
    """The console script uses $XDG_CONFIG_HOME's manifest when nothing nearer names one."""
    places["local"].unlink()
    env = {"XDG_CONFIG_HOME": str(places["config"])}
    done = run("doctor", "--json", cwd=places["work"], env=env)
    manifest = json.loads(done.stdout)["checks"][0]
    assert manifest["detail"] == f"{places['user']} (from user config)"


def test_the_environment_variable_beats_the_working_directory(places: dict[str, Path]) -> None:
    """$INSOMNIA_WEB_MANIFEST wins over ./insomnia.toml, in the console script too."""
    env = {"INSOMNIA_WEB_MANIFEST": str(places["env"])}
    done = run("tools", "--json", cwd=places["work"], env=env)
    fetch = next(t for t in json.loads(done.stdout) if t["name"] == "WebFetch")
    assert "at most 1002 chars per call" in fetch["description"]


def test_a_missing_named_manifest_is_an_error(tmp_path: Path) -> None:
    """A manifest named by the environment that does not exist is refused (exit 2)."""
    env = {"INSOMNIA_WEB_MANIFEST": str(tmp_path / "nope.toml")}
    done = run("tools", cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert "nope.toml" in done.stderr


def test_a_tilde_in_manifest_means_home(places: dict[str, Path], tmp_path: Path) -> None:
    """`--manifest ~/x.toml` from an MCP client's JSON (no shell to expand it) reads $HOME's."""
    home = tmp_path / "home"
    _write(home / "x.toml", 5)
    found = find_manifest("~/x.toml", env={"HOME": str(home)})
    assert found.path == home / "x.toml"
    done = run(
        "tools", "--json", "--manifest", "~/x.toml", cwd=places["work"], env={"HOME": str(home)}
    )
    assert done.returncode == 0, done.stderr
    fetch = next(t for t in json.loads(done.stdout) if t["name"] == "WebFetch")
    assert "at most 1005 chars per call" in fetch["description"]
