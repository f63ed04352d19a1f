"""Keep provider secrets (API keys) out of every string a provider controls.

A provider's answer is written by someone else: an error page, a ``Location`` header or a
result may echo the key the request carried (``302 Location: ...?k=<key>``). Every such
string passes through :class:`Redactor` before it reaches a message, an event or the cache;
the key, and its percent-encoded forms, become ``[REDACTED]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar
from urllib.parse import quote, quote_plus

import msgspec

from ..errors import ToolError

__all__ = ["REDACTED", "Redactor"]

REDACTED = "[REDACTED]"
MIN_SECRET_CHARS = 6
"""Shorter values are not treated as secrets (redacting them would garble ordinary text)."""

T = TypeVar("T")


class Redactor:
    """Replaces each secret (and its percent-encoded forms) with :data:`REDACTED`."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms: set[str] = set()
        for raw in secrets:
            secret = raw.strip()
            if len(secret) >= MIN_SECRET_CHARS:
                forms.update({secret, quote(secret, safe=""), quote_plus(secret, safe="")})
        self.forms = sorted(forms, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self.forms)

    def text(self, value: str) -> str:
        """*value* with every secret replaced."""
        for form in self.forms:
            if form in value:
                value = value.replace(form, REDACTED)
        return value

    def data(self, value: bytes) -> bytes:
        """Raw bytes (a response body) with every secret replaced."""
        for form in self.forms:
            encoded = form.encode("utf-8")
            if encoded in value:
                value = value.replace(encoded, REDACTED.encode())
        return value

    def value(self, value: Any) -> Any:
        """Strings inside *value* (str, bytes, lists, dicts, tuples, msgspec Structs) replaced."""
        if not self.forms:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bytes):
            return self.data(value)
        if isinstance(value, list | tuple):
            items = [self.value(v) for v in value]
            return items if isinstance(value, list) else tuple(items)
        if isinstance(value, dict):
            return {self.value(k): self.value(v) for k, v in value.items()}
        if isinstance(value, msgspec.Struct):
            changes = {name: self.value(getattr(value, name)) for name in value.__struct_fields__}
            return msgspec.structs.replace(value, **changes)
        return value

    def error(self, exc: ToolError) -> ToolError:
        """*exc* itself when it holds no secret, else a copy with every secret replaced."""
        message, hint = self.text(exc.message), self.text(exc.hint)
        remedy = None if exc.remedy is None else self.text(exc.remedy)
        details = self.value(exc.details)
        said = (message, hint, remedy, details)
        if said == (exc.message, exc.hint, exc.remedy, exc.details):
            return exc
        clean = ToolError(
            exc.code,
            message,
            hint=hint,
            remedy=remedy,
            retryable=exc.retryable,
            retry_after_s=exc.retry_after_s,
            details=details,
        )
        return clean
