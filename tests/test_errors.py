"""Error codes: the design's list, each with a default recovery hint."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from insomnia_web.errors import (
    _DEFAULTS,
    ERROR_CODES,
    InsomniaWebError,
    ManifestError,
    PluginError,
    ToolError,
    ToolTimeout,
    default_hint,
    default_remedy,
    plugin_remedy,
    relay,
)

TURNS_TO_USER = re.compile(r"\b(tell (the user|them)|ask the user to)\b", re.IGNORECASE)
"""A hint that has the model pass something on to the person: it has a remedy too."""

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
    "cancelled",
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
        f"| `{code}` | {'yes' if _DEFAULTS[code][1] else 'no'} | {_DEFAULTS[code][0]} "
        f"| {default_remedy(code) or ''} |"
        for code in ERROR_CODES
    ]
    assert rows == expected, "docs/errors.md rows should be:\n" + "\n".join(expected)


def test_a_remedy_is_serialised_only_when_there_is_one() -> None:
    """An error without a remedy encodes as before; one with a remedy adds the key."""
    plain = msgspec.json.decode(msgspec.json.encode(ToolError("timeout", "slow").info()))
    assert "remedy" not in plain
    fixable = ToolError("disabled", "off", remedy="Set web.cache.enabled = true.")
    assert fixable.info().remedy == "Set web.cache.enabled = true."
    assert msgspec.json.decode(msgspec.json.encode(fixable.info()))["remedy"] == fixable.remedy


def test_relay_words_a_remedy_for_the_model_to_pass_on() -> None:
    """relay() makes the model's hint from the person's remedy, so the sentence is written once."""
    remedy = "Set web.search.provider in the manifest (brave or searxng)."
    said = "Tell the user to set web.search.provider in the manifest (brave or searxng)."
    assert relay(remedy) == said
    assert relay(remedy, then="Use WebFetch meanwhile.").endswith(". Use WebFetch meanwhile.")
    named = relay("BRAVE_KEY must be set.", lead="Tell the user:")
    assert named == "Tell the user: BRAVE_KEY must be set."


def test_a_default_hint_that_turns_to_the_user_has_a_default_remedy() -> None:
    """Every code whose default hint tells or asks the user something says what they can do."""
    for code in ERROR_CODES:
        if TURNS_TO_USER.search(default_hint(code)):
            assert default_remedy(code), code
            assert ToolError(code, "x").remedy == default_remedy(code)  # type: ignore[arg-type]


def test_a_plugin_that_cannot_start_gives_the_remedy_a_broken_plugin_tool_gives() -> None:
    """PluginError's remedy (and its older name, hint) is the one sentence for a broken plugin."""
    error = PluginError("plugin 'acme' failed", plugin="acme")
    assert error.remedy == error.hint == plugin_remedy("acme")
    assert "INSOMNIA_PLUGINS" in error.remedy
