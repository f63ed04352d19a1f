"""The official TypeScript MCP client (the one most desktop and IDE hosts embed) reads us.

That client validates ``structuredContent`` against a tool's ``outputSchema`` even when
``isError`` is true, which the Python SDK does not: this test is the only one that would see
an error result it refuses. The SDK is installed once into a cache folder with npm; the test is
skipped only where node or npm is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import PAGE_TEXT, server_params, write_manifest

SDK = "@modelcontextprotocol/sdk@1.32.2"
SCRIPT = Path(__file__).with_name("ts_client.mjs")

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run the TypeScript MCP client",
)


def _sdk_folder() -> Path:
    """A cache folder holding the TypeScript SDK and our client script, installed once."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "insomnia-web-tests" / ("ts-" + SDK.rsplit("@", 1)[1])
    if not (folder / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text('{"private": true, "type": "module"}\n')
        subprocess.run(
            ["npm", "install", "--silent", "--no-audit", "--no-fund", SDK],
            cwd=folder,
            check=True,
            timeout=300,
        )
    shutil.copyfile(SCRIPT, folder / SCRIPT.name)
    return folder


def _run_client(manifest: Path, calls: list[dict[str, Any]]) -> dict[str, Any]:
    folder = _sdk_folder()
    params = server_params(manifest)
    env = {**(params.env or {}), "PATH": os.environ.get("PATH", "")}
    proc = subprocess.run(
        ["node", str(folder / SCRIPT.name), json.dumps(calls), params.command, *params.args],
        cwd=params.cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert isinstance(answer, dict)
    return answer


def test_typescript_client_receives_errors_and_results(tmp_path: Path, site_port: int) -> None:
    """Bad arguments and a blocked URL arrive as isError results; a fetch validates its output."""
    manifest = write_manifest(tmp_path, site_port, allow=["WebFetch"])
    calls = [
        {"name": "web_fetch", "arguments": {"url": "https://example.com/", "max_chars": -1}},
        {"name": "web_fetch", "arguments": {"url": "http://169.254.169.254/latest/meta-data/"}},
        {"name": "web_fetch", "arguments": {"url": f"http://site.test:{site_port}/page"}},
    ]
    answer = _run_client(manifest, calls)
    assert "web_fetch" in answer["tools"]
    bad_args, blocked, page = answer["results"]
    for result in (bad_args, blocked):
        assert "threw" not in result, result
        assert result["isError"] is True
        assert "structuredContent" not in result
    assert bad_args["_meta"]["insomnia-web/error"]["code"] == "invalid_input"
    assert blocked["_meta"]["insomnia-web/error"]["code"] == "blocked_address"
    assert "threw" not in page, page
    assert page.get("isError") in (None, False)
    assert PAGE_TEXT in page["content"][0]["text"]
    assert page["structuredContent"]["status"] == 200


if __name__ == "__main__":  # pragma: no cover - manual run
    sys.exit(pytest.main([__file__, "-q"]))
