"""Permission rules and decisions.

Rules are written ``Tool`` or ``Tool(domain:PATTERN)`` in the manifest's ``[permissions]``
``allow`` / ``ask`` / ``deny`` lists. ``Tool`` is the tool's name or its MCP name
(``WebFetch`` or ``web_fetch``). ``PATTERN`` is a host (``example.com``), its subdomains
(``*.example.com``) or any host (``*``). Lists are consulted deny, then ask, then allow; the
first matching rule wins, and every :class:`Decision` carries the rule and a reason.

A call whose hosts cannot be known (:attr:`ToolCall.hosts_unknown`) could contact any host:
every domain ``deny`` and ``ask`` rule matches it, no domain ``allow`` rule does. A call
to several hosts meets a domain ``deny`` or ``ask`` rule for any of them; a domain ``allow``
rule must cover them all.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgspec

from .hosts.names import HostPatterns, idna_host

__all__ = [
    "TOOL_NAME",
    "Decision",
    "Level",
    "Rule",
    "ToolCall",
    "combine",
    "evaluate_rules",
    "host_matches",
    "parse_rule",
    "parse_rules",
    "tool_alias",
]

Level = Literal["allow", "ask", "deny"]

_STRENGTH: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}
TOOL_NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"
"""What a permission rule's tool part accepts (``Tool`` of ``Tool(domain:...)``): a tool whose
name does not match could not be named by any rule."""
_RULE_RE = re.compile(rf"^(?P<tool>{TOOL_NAME})(?:\(domain:(?P<pattern>[^()\s]+)\))?$")
_PATTERN_RE = re.compile(r"^(\*|(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)$")


class ToolCall(msgspec.Struct, frozen=True, kw_only=True):
    """A tool call as permission hooks and prompts see it."""

    id: str
    tool: str
    input: dict[str, Any]
    domains: tuple[str, ...] = ()
    """Hosts the call will contact (lower-case); empty when it contacts none."""
    summary: str = ""
    """Exactly what will be fetched, searched or stored, in one line for a person."""
    hosts_unknown: bool = False
    """True when the call contacts hosts that could not be determined: any domain deny or
    ask rule matches it, no domain allow rule does, and no "always" answer is remembered."""


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """A permission verdict with the reason and, when a rule decided, the rule."""

    level: Level
    reason: str
    rule: str | None = None
    prompt: str | None = None
    """Optional text to show the person when ``level`` is ``ask``."""

    @classmethod
    def allow(cls, *, reason: str, rule: str | None = None) -> Decision:
        """An allow verdict."""
        return cls(level="allow", reason=reason, rule=rule)

    @classmethod
    def ask(cls, *, reason: str, rule: str | None = None, prompt: str | None = None) -> Decision:
        """A verdict that asks the person (through the host's prompter)."""
        return cls(level="ask", reason=reason, rule=rule, prompt=prompt)

    @classmethod
    def deny(cls, *, reason: str, rule: str | None = None) -> Decision:
        """A deny verdict; any deny wins over every other answer."""
        return cls(level="deny", reason=reason, rule=rule)


class Rule(msgspec.Struct, frozen=True):
    """One parsed permission rule."""

    text: str
    tool: str
    pattern: str | None

    def names(self, tool: str) -> bool:
        """True if this rule is about *tool* (by its name or its MCP name)."""
        return self.tool in (tool, tool_alias(tool))

    def matches(self, call: ToolCall, *, level: Level = "allow") -> bool:
        """True if this rule applies to *call* (a domain rule needs a domain that matches).

        A domain ``allow`` rule must match every host of the call; a domain ``deny`` or
        ``ask`` rule matches a call to any host it matches. A call with unknown hosts is
        matched by every domain rule of *level* ``deny`` or ``ask``, and by no domain
        ``allow`` rule.
        """
        if not self.names(call.tool):
            return False
        if self.pattern is None:
            return True
        if call.hosts_unknown:
            return level != "allow"
        covers = all if level == "allow" else any
        return bool(call.domains) and covers(host_matches(self.pattern, d) for d in call.domains)


_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def tool_alias(name: str) -> str:
    """The snake_case name of a tool, as MCP clients see it: ``WebFetch`` -> ``web_fetch``."""
    return _WORD_BOUNDARY.sub("_", name).replace("-", "_").replace(".", "_").lower()


def parse_rule(text: str) -> Rule:
    """Parse ``Tool`` or ``Tool(domain:PATTERN)``; a malformed rule raises ``ValueError``."""
    m = _RULE_RE.match(text.strip())
    if not m:
        raise ValueError(
            f"malformed rule {text!r}: expected Tool or Tool(domain:PATTERN), "
            'e.g. "WebFetch(domain:*.example.com)"'
        )
    pattern = m.group("pattern")
    if pattern is not None:
        if pattern != "*":
            prefix = "*." if pattern.startswith("*.") else ""
            pattern = prefix + idna_host(pattern.removeprefix("*."))
        if not _PATTERN_RE.match(pattern) or "*" in pattern.lstrip("*"):
            raise ValueError(
                f"malformed domain pattern in rule {text!r}: use example.com, *.example.com or *"
            )
    return Rule(text=text.strip(), tool=m.group("tool"), pattern=pattern)


def parse_rules(texts: Iterable[str]) -> list[Rule]:
    """Parse a list of rules, raising ``ValueError`` naming the first malformed one."""
    return [parse_rule(t) for t in texts]


def host_matches(pattern: str, host: str) -> bool:
    """``example.com`` matches that host, ``*.example.com`` its subdomains, ``*`` any host.

    Both sides are compared in their IDNA form, so ``bücher.de`` and ``xn--bcher-kva.de``
    are the same host.
    """
    return _compiled_pattern(pattern).match(idna_host(host)) is not None


@functools.lru_cache(maxsize=256)
def _compiled_pattern(pattern: str) -> HostPatterns:
    return HostPatterns([pattern])


def evaluate_rules(
    call: ToolCall, *, allow: Sequence[Rule], ask: Sequence[Rule], deny: Sequence[Rule]
) -> Decision | None:
    """Deny, then ask, then allow: the first matching rule decides; ``None`` if none matches."""
    for level, rules in (("deny", deny), ("ask", ask), ("allow", allow)):
        for rule in rules:
            if rule.matches(call, level=level):  # type: ignore[arg-type]
                return Decision(
                    level=level,  # type: ignore[arg-type]
                    reason=f"{level} rule {rule.text!r} matches",
                    rule=rule.text,
                )
    return None


def combine(decisions: Iterable[Decision | None]) -> Decision | None:
    """Combine plugins' answers: any deny wins, then any ask, then allow; ``None`` if none."""
    best: Decision | None = None
    for d in decisions:
        if d is None:
            continue
        if best is None or _STRENGTH[d.level] > _STRENGTH[best.level]:
            best = d
    return best
