"""The exceptions of insomnia-web: model-facing tool failures and load-time usage errors.

The exception tree::

    InsomniaWebError                   base of every exception this package raises on purpose
    ├── ToolError                      a failure a tool reports to the model (a stable code)
    │   └── ToolTimeout (TimeoutError) ``code="timeout"``, with the phase that ran out
    ├── ManifestError (ValueError)     a manifest key or value is wrong (raised at load time)
    └── PluginError                    a plugin cannot start (raised when the runtime starts)

Every failure a tool can report is a :class:`ToolError` with a stable ``code`` from
:data:`ErrorCode` (:data:`ERROR_CODES` lists them; each has a default hint and retryability).
Its ``hint`` is written for the model (what to try next); its optional ``remedy`` for the
person who can fix the cause, in the imperative, naming the manifest key, extra or command
(``Set web.search.provider in the manifest (brave or searxng).``). A failure only the model
can work around (retry later, another source) has no remedy. When the model should pass the
remedy on, :func:`relay` words the hint from it, so the sentence is written once.
At the tool boundary (``Runtime.call_tool``) a ``ToolError`` becomes a result the model
reads, never a crash of the agent loop; any other exception becomes ``internal_error``.
A call stopped from outside (the host cancels its task, Ctrl-C) is recorded in the history
as ``cancelled`` before the cancellation goes on to the host.
A :class:`ManifestError` is a mistake of the person who wrote the manifest: it is raised to
the embedding program (the CLI exits with status 2), never shown to the model. So is a
:class:`PluginError`: an installed plugin failed to load or to register what it offers.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec

__all__ = [
    "ERROR_CODES",
    "MAX_RETRY_AFTER_S",
    "ErrorCode",
    "ErrorInfo",
    "InsomniaWebError",
    "ManifestError",
    "PluginError",
    "ToolError",
    "ToolTimeout",
    "default_hint",
    "default_remedy",
    "plugin_remedy",
    "relay",
]

MAX_RETRY_AFTER_S = 86_400.0
"""The longest wait a server or provider may ask for (``Retry-After``, a rate-limit reset)
and the longest hold the shared store keeps: a day."""

ErrorCode = Literal[
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

ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)

# code -> (default hint for the model, retryable by default)
_DEFAULTS: dict[str, tuple[str, bool]] = {
    "invalid_input": ("Fix the named field so it follows the rule, then call again.", False),
    "query_too_long": ("Shorten the query to its key terms and search again.", False),
    "disabled": ("This tool is disabled by the manifest; do not retry.", False),
    "not_configured": ("The user must configure this tool; tell them what to set.", False),
    "permission_denied": (
        "The user or policy refused this call; do not retry it. Ask the user or try "
        "another source.",
        False,
    ),
    "invalid_url": ("Pass an absolute http:// or https:// URL.", False),
    "scheme_not_allowed": ("Only http and https URLs can be fetched.", False),
    "credentials_in_url": ("Remove the user:password@ part from the URL.", False),
    "port_not_allowed": ("That port is not allowed; use the site's standard URL.", False),
    "blocked_hostname": ("That host is not allowed; do not retry. Use a public website.", False),
    "blocked_address": (
        "The address is private or reserved and not allowed; do not retry. Use a public website.",
        False,
    ),
    "dns_failure": ("Check the host name for typos, or search for the right site.", False),
    "connection_error": ("Retry once later, or try another source.", True),
    "tls_error": ("The site's certificate could not be verified; try another source.", False),
    "timeout": ("Retry once, or try another source.", True),
    "cancelled": ("The call was stopped before it finished; call again if still needed.", True),
    "too_many_redirects": ("The page redirects too often; try another URL for it.", False),
    "redirect_blocked": ("The page redirects somewhere not allowed; do not retry.", False),
    "redirect_not_followed": (
        "The page moved to another host; call WebFetch on the target URL in details.",
        False,
    ),
    "response_too_large": ("The page is too large; try a more specific URL.", False),
    "protocol_error": ("The server sent a malformed response; try another source.", True),
    "content_decoding_error": ("The response could not be decoded; try another source.", False),
    "unsupported_content": (
        "This content type cannot be read as text; look for an HTML or text version.",
        False,
    ),
    "http_error": (
        "The server answered with an error status; check the URL or try another.",
        False,
    ),
    "robots_disallowed": (
        "The site's robots.txt does not allow automated fetching of this URL; do not retry. "
        "Use another source, or ask the user to open it.",
        False,
    ),
    "rate_limited": ("Wait retry_after_s seconds before calling again.", True),
    "provider_error": ("The search provider failed; retry once later, or use WebFetch.", True),
    "quota_exceeded": (
        "The search provider's request limit for this month is used up; tell the user, do "
        "not retry this month. Use WebFetch with a known URL meanwhile.",
        False,
    ),
    "cache_error": ("The local cache failed; call again with force_fresh=true.", True),
    "cache_unavailable": (
        "The cache database cannot be reached; the call went on without it. Tell the user "
        "if it persists.",
        True,
    ),
    "internal_error": ("An unexpected error occurred; retry once, then report it.", True),
}


# code -> what a person can do when the site gave no remedy of its own
_DEFAULT_REMEDIES: dict[str, str] = {
    "not_configured": "Run insomnia-web doctor to see what to set.",
    "robots_disallowed": "Open the page in a browser: the site asks automated clients not to "
    "fetch it.",
    "quota_exceeded": "Wait for the provider's monthly limit to reset, or raise it with the "
    "provider.",
    "cache_unavailable": "Check that the cache database (web.cache.url) is running and "
    "reachable; insomnia-web doctor tests it.",
}


def default_hint(code: str) -> str:
    """Return the default recovery hint for *code*."""
    return _DEFAULTS[code][0]


def default_remedy(code: str) -> str | None:
    """Return what a person can do about *code* by default, or None when only the model can."""
    return _DEFAULT_REMEDIES.get(code)


def relay(remedy: str, *, then: str = "", lead: str = "Tell the user to") -> str:
    """The model's hint that passes *remedy* on: ``Tell the user to set web.search.provider
    ...``, then *then* (what the model does meanwhile).

    The remedy's first letter is lowered after a *lead* ending in a word, unless it starts
    a name (``BRAVE_SEARCH_API_KEY``).
    """
    starts_word = remedy[:1].isupper() and not remedy[1:2].isupper()
    if starts_word and lead[-1:].isalpha():
        remedy = remedy[0].lower() + remedy[1:]
    return " ".join(part for part in (lead, remedy, then) if part)


def plugin_remedy(plugin: str) -> str:
    """What a person can do about a plugin that fails: at start-up or in a call."""
    return (
        f"Fix or uninstall plugin {plugin!r}, or load only the others: "
        "INSOMNIA_PLUGINS=(comma-separated entry-point names)."
    )


class ErrorInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A tool failure as the model and the history see it.

    ``hint`` is for the model; ``remedy``, when a person can act, for the person (a host
    shows it to its user; it is left out of the JSON when there is none).
    """

    code: ErrorCode
    message: str
    hint: str
    remedy: str | None = None
    retryable: bool
    retry_after_s: float | None = None
    details: dict[str, Any] = msgspec.field(default_factory=dict)


class InsomniaWebError(Exception):
    """Base class of the exceptions insomnia-web raises on purpose."""


class ToolError(InsomniaWebError):
    """A failure a tool reports: a stable code, a message, a hint for the model and, when a
    person can fix the cause, a remedy for them (the code's default remedy otherwise)."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        hint: str | None = None,
        remedy: str | None = None,
        retryable: bool | None = None,
        retry_after_s: float | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        if code not in _DEFAULTS:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        default_text, default_retryable = _DEFAULTS[code]
        self.code: ErrorCode = code
        self.message = message
        self.hint = hint if hint is not None else default_text
        self.remedy = remedy if remedy is not None else default_remedy(code)
        self.retryable = default_retryable if retryable is None else retryable
        self.retry_after_s = retry_after_s
        self.details: dict[str, Any] = dict(details or {})

    def info(self) -> ErrorInfo:
        """Return this error as a serialisable :class:`ErrorInfo`."""
        return ErrorInfo(
            code=self.code,
            message=self.message,
            hint=self.hint,
            remedy=self.remedy,
            retryable=self.retryable,
            retry_after_s=self.retry_after_s,
            details=self.details,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ToolTimeout(ToolError, TimeoutError):
    """A deadline ran out; ``details["phase"]`` says which (dns, connect, read, total...)."""

    def __init__(self, message: str, *, phase: str, hint: str | None = None) -> None:
        super().__init__("timeout", message, hint=hint, details={"phase": phase})
        self.phase = phase


class ManifestError(InsomniaWebError, ValueError):
    """The manifest has an unknown key or a bad value; the message names the key path.

    ``key`` is the dotted key path when one is known (``web.fetch.timeout_s``).
    """

    def __init__(self, message: str, *, key: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key

    def __repr__(self) -> str:
        return f"ManifestError({self.message!r}, key={self.key!r})"


class PluginError(InsomniaWebError):
    """A plugin cannot start: importing it, or one of its start-up hooks, failed.

    ``plugin`` is the plugin's name, ``hook`` the hook it was running (``None`` when the
    plugin could not be loaded or its hooks do not match the specs); the exception the
    plugin raised, or our refusal of what it registered, is the ``__cause__``. ``remedy``
    says what the person running the host can do (``hint`` is its older name).
    """

    def __init__(self, message: str, *, plugin: str, hook: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.plugin = plugin
        self.hook = hook
        self.remedy = plugin_remedy(plugin)
        self.hint = self.remedy

    def __repr__(self) -> str:
        return f"PluginError({self.message!r}, plugin={self.plugin!r}, hook={self.hook!r})"
