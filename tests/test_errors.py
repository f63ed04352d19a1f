"""Error codes: the design's list, each with a default recovery hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from insomnia_web.errors import (
    _DEFAULTS,
    ERROR_CODES,
    InsomniaWebError,
    ManifestError,
    ToolError,
    ToolTimeout,
    default_hint,
)

DESIGN_CODES = [
    "invalid_input",
    "query_too_long",
    "disabled",
    "not_configured",
    "permission_denied",
    "invalid_url",
    "scheme_not_allowed",
    "credentials_in_url",
    "port_not_allowed",
    "blocked_hostname",
    "blocked_address",
    "dns_failure",
    "connection_error",
    "tls_error",
    "timeout",
    "too_many_redirects",
    "redirect_blocked",
    "redirect_not_followed",
    "response_too_large",
    "protocol_error",
    "content_decoding_error",
    "unsupported_content",
    "http_error",
    "robots_disallowed",
    "rate_limited",
    "provider_error",
    "quota_exceeded",
    "cache_error",
    "cache_unavailable",
    "internal_error",
]


def test_codes_are_the_designs_and_each_has_a_hint() -> None:
    """Every code of the design exists, in order, with a non-empty default hint."""
    assert list(ERROR_CODES) == DESIGN_CODES
    for code in ERROR_CODES:
        assert default_hint(code).endswith(".")


def test_unknown_code_is_refused() -> None:
    """Constructing a ToolError with an unknown code is a programming error."""
    with pytest.raises(ValueError, match="unknown error code"):
        ToolError("oops", "x")  # type: ignore[arg-type]


def test_subclasses_keep_builtin_meanings() -> None:
    """Timeouts are TimeoutErrors with a phase; manifest errors are ValueErrors with a key."""
    timeout = ToolTimeout("slow", phase="dns")
    assert isinstance(timeout, TimeoutError)
    assert timeout.info().details == {"phase": "dns"}
    assert timeout.retryable
    bad = ManifestError("bad key", key="web.x")
    assert isinstance(bad, ValueError)
    assert bad.key == "web.x"


def test_manifest_errors_are_not_tool_errors() -> None:
    """A load-time manifest mistake and a model-facing failure are separate branches of one base."""
    bad = ManifestError("bad key", key="web.x")
    assert not isinstance(bad, ToolError)
    assert isinstance(bad, InsomniaWebError)
    assert isinstance(ToolError("timeout", "slow"), InsomniaWebError)
    assert issubclass(ToolTimeout, InsomniaWebError)


def test_one_list_of_codes_agrees_with_its_defaults_and_its_docs() -> None:
    """The ErrorCode Literal, the defaults table and docs/errors.md list the same codes."""
    assert list(_DEFAULTS) == list(ERROR_CODES)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "errors.md").read_text()
    rows = [line for line in doc.splitlines() if line.startswith("| `")]
    expected = [
        f"| `{code}` | {'yes' if _DEFAULTS[code][1] else 'no'} | {_DEFAULTS[code][0]} |"
        for code in ERROR_CODES
    ]
    assert rows == expected, "docs/errors.md rows should be:\n" + "\n".join(expected)
