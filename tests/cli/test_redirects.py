"""Redirects a person approved: with --yes a cross-host redirect is followed like curl -L,
each hop still checked by the URL policy and the permission rules."""

from __future__ import annotations

import json
from pathlib import Path

from .support import run


def _fetch(manifest: Path, url: str, *extra: str) -> dict[str, object]:
    done = run("fetch", url, "--json", "--manifest", str(manifest), *extra, cwd=manifest.parent)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_yes_follows_a_redirect_to_an_asked_host(manifest: Path, port: int) -> None:
    """site.test (allowed) -> other.test (asked): --yes follows it and records the hop."""
    history = manifest.parent / "history.jsonl"
    manifest.write_text(
        manifest.read_text() + f"[web]\nhistory_path = {json.dumps(str(history))}\n"
    )
    result = _fetch(manifest, f"http://site.test:{port}/moved/other.test", "--yes")
    assert result["ok"] is True, result
    output = result["output"]
    assert isinstance(output, dict)
    assert output["final_url"] == f"http://other.test:{port}/"
    assert output["redirects"] == [f"http://other.test:{port}/"]
    events = [json.loads(line) for line in history.read_text().splitlines()]
    verdicts = [(e["decision"], e["by"]) for e in events if e["type"] == "permission"]
    assert verdicts == [("allow", "rule"), ("allow", "user")]


def test_without_yes_the_redirect_goes_back_to_the_caller(manifest: Path, port: int) -> None:
    """With nobody to ask, the same redirect is not followed: redirect_not_followed."""
    result = _fetch(manifest, f"http://site.test:{port}/moved/other.test")
    error = result["error"]
    assert isinstance(error, dict)
    assert error["code"] == "redirect_not_followed"
    assert error["details"]["permission"] == "ask"


def test_yes_never_follows_a_redirect_to_a_denied_host(manifest: Path, port: int) -> None:
    """A deny rule on the target holds even with --yes."""
    result = _fetch(manifest, f"http://site.test:{port}/moved/denied.test", "--yes")
    error = result["error"]
    assert isinstance(error, dict)
    assert error["code"] == "redirect_not_followed"
    assert error["details"]["permission"] == "deny"


def test_yes_never_follows_a_redirect_the_url_policy_refuses(manifest: Path, port: int) -> None:
    """A hop to a host outside the URL policy (no address allowed) is refused with --yes."""
    manifest.write_text(
        manifest.read_text().replace(
            '"denied.test" = ["127.0.0.1"]', '"denied.test" = ["10.0.0.1"]'
        )
    )
    manifest.write_text(
        manifest.read_text().replace('deny = ["WebFetch(domain:denied.test)"]', "deny = []")
    )
    result = _fetch(manifest, f"http://site.test:{port}/moved/denied.test", "--yes")
    error = result["error"]
    assert isinstance(error, dict)
    assert error["code"] == "redirect_blocked"
