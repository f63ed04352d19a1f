"""A plugin that cannot start: one line on stderr naming it and what to do, never a traceback."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from insomnia_web.errors import plugin_remedy

from .support import install_plugin, run

BROKEN_SOURCE = textwrap.dedent(
    '''
    """An installed plugin whose start-up hook has a bug."""

    from insomnia_web import hookimpl


    @hookimpl
    def register_search_providers(register):
        raise RuntimeError("SHOUTY_HOME is unset")
    '''
)


@pytest.mark.parametrize("command", [["fetch", "https://example.com/"], ["tools"], ["mcp"]])
def test_a_plugin_that_raises_at_start_up_is_named_not_a_traceback(
    tmp_path: Path, command: list[str]
) -> None:
    """A plugin hook that raises ends the command with status 2 and one error naming the
    plugin, its hook and the exception, and how to load the others (after ``help:``, as a
    tool's remedy is); no traceback."""
    env = install_plugin(tmp_path, "shouty", BROKEN_SOURCE)
    done = run(*command, cwd=tmp_path, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    first, fix = done.stderr.splitlines()
    assert first == (
        "insomnia-web: plugin 'shouty' failed in register_search_providers: "
        "RuntimeError: SHOUTY_HOME is unset"
    )
    assert fix == f"help: {plugin_remedy('shouty')}"


def test_a_plugin_that_cannot_be_imported_is_named(tmp_path: Path) -> None:
    """An entry point whose module fails to import is an error naming the plugin and the
    import's exception, exit 2."""
    env = install_plugin(tmp_path, "needsdeps", "import insomnia_no_such_module\n")
    done = run("fetch", "https://example.com/", cwd=tmp_path, env=env)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(
        "insomnia-web: plugin 'needsdeps' could not be loaded (needsdeps): "
        "ModuleNotFoundError: No module named 'insomnia_no_such_module'"
    )


def test_trace_hooks_shows_the_plugin_traceback(tmp_path: Path) -> None:
    """With INSOMNIA_TRACE_HOOKS=1 the plugin's traceback is printed too, for its author,
    before the error line."""
    env = install_plugin(tmp_path, "shouty", BROKEN_SOURCE) | {"INSOMNIA_TRACE_HOOKS": "1"}
    done = run("tools", cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert "Traceback (most recent call last)" in done.stderr
    assert 'raise RuntimeError("SHOUTY_HOME is unset")' in done.stderr
    assert done.stderr.splitlines()[-2].startswith("insomnia-web: plugin 'shouty' failed in")
