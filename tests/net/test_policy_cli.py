"""The policy-check engine behind ``insomnia-web policy check``."""

from __future__ import annotations

import io
import json

import pytest

from insomnia_web.cli.policy import parse_resolve_args, run
from insomnia_web.config import UrlPolicyConfig
from insomnia_web.net.resolver import with_overrides


def test_parse_resolve_args_forms() -> None:
    """HOST:IP, [IPv6], bare IPv6, curl's HOST:PORT:IP and lists parse; hosts accumulate."""
    parsed = parse_resolve_args(
        [
            "Example.com:93.184.215.14",
            "example.com:[2606:2800:21f:cb07:6820:80da:af6b:8b2c]",
            "v6.test:2001:4860::8888",
            "curl.test:443:1.1.1.1,1.0.0.1",
            "example.com:93.184.215.14",
        ]
    )
    assert parsed == {
        "example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "v6.test": ["2001:4860::8888"],
        "curl.test": ["1.1.1.1", "1.0.0.1"],
    }


@pytest.mark.parametrize(
    "entry", ["example.com", "example.com:", ":1.1.1.1", "h:not-an-ip", "h:0x7f.1"]
)
def test_parse_resolve_args_errors(entry: str) -> None:
    """A malformed override raises ValueError naming the entry."""
    with pytest.raises(ValueError, match="--resolve"):
        parse_resolve_args([entry])


def test_run_prints_lines_and_exit_code() -> None:
    """Human output has one line per URL; the exit code is 1 when any URL is blocked."""
    out = io.StringIO()
    code = run(
        ["https://example.com/", "http://0x7f.1/"],
        manifest_config=with_overrides(UrlPolicyConfig(), {"example.com": ["93.184.215.14"]}),
        as_json=False,
        out=out,
    )
    lines = out.getvalue().splitlines()
    assert code == 1
    assert lines[0] == "ALLOWED  https://example.com/ -> 93.184.215.14"
    assert lines[1].startswith("BLOCKED  http://0x7f.1/ [blocked_address]")
    assert "127.0.0.1" in lines[1]


def test_run_json_and_success() -> None:
    """JSON output is one object per URL; all allowed gives exit code 0."""
    out = io.StringIO()
    code = run(
        ["https://example.com/", "http://1.1.1.1/"],
        manifest_config=with_overrides(UrlPolicyConfig(), {"example.com": ["93.184.215.14"]}),
        as_json=True,
        out=out,
    )
    objects = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 0
    assert [o["allowed"] for o in objects] == [True, True]
    assert objects[0]["addresses"] == ["93.184.215.14"]


def test_run_vets_overridden_answers() -> None:
    """An override pointing a public name at a private address is still blocked."""
    out = io.StringIO()
    code = run(
        ["https://example.com/"],
        manifest_config=with_overrides(UrlPolicyConfig(), {"example.com": ["10.0.0.1"]}),
        as_json=True,
        out=out,
    )
    assert code == 1
    assert json.loads(out.getvalue())["code"] == "blocked_address"


def test_run_with_unicode_override() -> None:
    """An override written with a Unicode host name applies to that host's URL."""
    out = io.StringIO()
    code = run(
        ["https://bücher.example/"],
        manifest_config=with_overrides(
            UrlPolicyConfig(), parse_resolve_args(["bücher.example:93.184.215.14"])
        ),
        as_json=True,
        out=out,
    )
    assert code == 0
    assert json.loads(out.getvalue())["addresses"] == ["93.184.215.14"]


def test_run_merges_manifest_resolve_with_overrides() -> None:
    """The manifest's resolve table applies and a --resolve override wins for its host."""
    out = io.StringIO()
    config = UrlPolicyConfig(resolve={"a.example": ["1.1.1.1"], "b.example": ["10.0.0.1"]})
    code = run(
        ["https://a.example/", "https://b.example/"],
        manifest_config=with_overrides(config, {"b.example": ["8.8.8.8"]}),
        as_json=True,
        out=out,
    )
    objects = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 0
    assert [o["addresses"] for o in objects] == [["1.1.1.1"], ["8.8.8.8"]]
