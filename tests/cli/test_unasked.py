"""Questions nobody could answer: off a terminal the CLI says how to answer them."""

from __future__ import annotations

from pathlib import Path

from .support import run

ADVICE = "run the command on a terminal to answer, or add --yes"


def test_an_unasked_fetch_says_how_to_answer(tmp_path: Path, manifest: Path, port: int) -> None:
    """A fetch the rules ask about, off a terminal, is refused and stderr names --yes."""
    url = f"http://other.test:{port}/"
    done = run("fetch", url, "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("Error [permission_denied]")
    assert f"insomnia-web: nobody could be asked (no terminal): {ADVICE}\n" in done.stderr


def test_yes_answers_it(tmp_path: Path, manifest: Path, port: int) -> None:
    """The advice works: the same fetch with --yes succeeds."""
    url = f"http://other.test:{port}/"
    done = run("fetch", url, "--yes", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_denied_fetch_gets_no_advice(tmp_path: Path, manifest: Path, port: int) -> None:
    """A deny rule is not a question: --yes would not help, so it is not suggested."""
    done = run("fetch", f"http://denied.test:{port}/", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert "--yes" not in done.stderr


def test_an_unasked_redirect_says_how_to_answer(tmp_path: Path, manifest: Path, port: int) -> None:
    """A redirect to an asked host, off a terminal, is not followed and stderr names --yes."""
    url = f"http://site.test:{port}/moved/other.test"
    done = run("fetch", url, "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("Error [redirect_not_followed]")
    assert ADVICE in done.stderr


def test_unread_excerpt_pages_name_yes(tmp_path: Path, port: int) -> None:
    """An excerpt search that skipped pages of asked hosts says on stderr that --yes reads them."""
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        '[web.search]\nprovider = "searxng"\n'
        f'[web.search.searxng]\nbase_url = "http://127.0.0.1:{port}"\n'
        f'[web.url_policy]\nallow_cidrs = ["127.0.0.1/32"]\nports = [{port}]\n'
        '[web.url_policy.resolve]\n"site.test" = ["127.0.0.1"]\n'
        "[web.cache]\nenabled = false\n"
        '[permissions]\nallow = ["WebSearch"]\n'
    )
    done = run("search", "cli page", "--manifest", str(manifest), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "insomnia-web: 1 page not read: WebFetch asks first on its host; "
        "add --yes to read such pages\n"
    )
    read = run("search", "cli page", "--yes", "--manifest", str(manifest), cwd=tmp_path)
    assert read.stderr == ""
    assert "The command prints a metadata header" in read.stdout
