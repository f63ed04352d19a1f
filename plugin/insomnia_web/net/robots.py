"""robots.txt (RFC 9309): parsing, matching, and a per-runtime cache of each site's rules.

Our own small parser rather than :mod:`urllib.robotparser`, which differs from RFC 9309
where it matters: it applies the *first* matching rule in file order (RFC 9309 and the big
crawlers apply the *longest* match, ``Allow`` winning a tie), it has no ``*`` and ``$``
wildcards, it matches user agents by substring, and it uses only the first group naming an
agent (the RFC merges every group that names it).

- :func:`parse_robots`: the text -> :class:`RobotsRules` for one product token (the
  groups naming it, merged; else the ``*`` groups).
- :class:`RobotsRules`: ``allows(path_and_query)``.
- :class:`RobotsCache`: fetches ``/robots.txt`` of an origin once through the same
  :class:`~.client.SafeClient` (at most :data:`MAX_ROBOTS_BYTES`, :data:`ROBOTS_TIMEOUT_S`),
  keeps the rules for :data:`ROBOTS_TTL_S`, and raises ``robots_disallowed`` for a URL the
  site disallows. What an answer means follows RFC 9309 section 2.3.1: 2xx is parsed; a 4xx
  means no rules; a 5xx or 429 means "disallow everything" (kept for
  :data:`ROBOTS_ERROR_TTL_S` only, so a later call tries again). A site that cannot be
  reached at all (timeout, connection, TLS or protocol failure) fails the fetch with that
  error, as the page itself would, and is asked again on the next call. A robots.txt that
  redirects is followed on its own host and to its ``www.`` variant (or back), and to that
  variant only when the caller's *may_contact* allows the host (the permission rules: a
  host the policy denies is never contacted, not even for its robots.txt); anywhere else it
  means no rules. A long file (:data:`MAX_INLINE_BYTES`) is parsed, and a site of many rules
  (:data:`MAX_INLINE_RULES`) matched, in a worker thread: the event loop serves other calls
  meanwhile.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

import msgspec
from yarl import URL

from ..errors import ToolError, ToolTimeout

if TYPE_CHECKING:
    from .client import SafeClient
    from .urlpolicy import Target

HostCheck = Callable[[str], bool]
"""Whether a host may be contacted (the caller's permission rules)."""

__all__ = [
    "MAX_ROBOTS_BYTES",
    "ROBOTS_ERROR_TTL_S",
    "ROBOTS_TIMEOUT_S",
    "ROBOTS_TTL_S",
    "HostCheck",
    "RobotsCache",
    "RobotsRules",
    "parse_robots",
    "product_token",
]

MAX_ROBOTS_BYTES = 512 * 1024
"""Most of a robots.txt read (RFC 9309 asks crawlers to parse at least 500 KiB)."""
ROBOTS_TIMEOUT_S = 5.0
"""Longest a robots.txt fetch may take (less when the page's own deadline is closer)."""
ROBOTS_TTL_S = 3600.0
"""How long a site's rules are reused."""
ROBOTS_ERROR_TTL_S = 60.0
"""How long "unreachable, so disallow everything" is reused before trying again."""
MAX_INLINE_BYTES = 16 * 1024
"""A robots.txt longer than this is parsed in a worker thread, and its rules are matched
there: a 512 KB file of wildcard rules took 0.2 s per URL, which on the event loop held up
every other call."""
MAX_INLINE_RULES = 200
"""Most rules matched on the event loop (a few hundred microseconds at most)."""
MAX_SITES = 1024
"""Sites whose rules are kept; the oldest entry goes first beyond it."""

_UNREACHABLE = frozenset({"timeout", "connection_error", "tls_error", "protocol_error"})
_TOKEN_RE = re.compile(r"[A-Za-z_-]+")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def product_token(user_agent: str) -> str:
    """The product token of a User-Agent (``insomnia-web`` of ``insomnia-web/0.1 (...)``)."""
    found = _TOKEN_RE.match(user_agent.strip())
    return found.group(0).lower() if found else ""


def _normalize(path: str) -> str:
    """Percent-encoding made comparable: unreserved octets decoded, the rest upper-case %XX."""
    out: list[str] = []
    for part in re.split(r"(%[0-9A-Fa-f]{2})", path):
        if part.startswith("%") and len(part) == 3:
            char = unquote(part)
            out.append(char if char in _UNRESERVED else part.upper())
        else:
            out.append(quote(part, safe="/?&=;:@!$'()*+,#[]%-._~"))
    return "".join(out)


class _Rule(msgspec.Struct, frozen=True):
    allow: bool
    pattern: str
    pieces: tuple[str, ...]
    """The pattern split at its ``*`` wildcards (a final ``$`` taken off)."""
    anchored: bool
    """The pattern ended in ``$``: the path must end where it does."""

    def matches(self, path: str) -> bool:
        """Whether the pattern matches *path* from its start, each ``*`` any run of characters.

        Each piece is found at its leftmost place after the one before: with ``*`` the only
        wildcard that place is never wrong, so the match takes one pass and cannot backtrack
        (a site's pattern of many ``*`` is as cheap as any other).
        """
        first, *rest = self.pieces
        if not path.startswith(first):
            return False
        if not rest:
            return not self.anchored or len(path) == len(first)
        at = len(first)
        *middle, last = rest
        for piece in middle:
            found = path.find(piece, at)
            if found == -1:
                return False
            at = found + len(piece)
        if self.anchored:
            return path.endswith(last) and len(path) - len(last) >= at
        return path.find(last, at) != -1


def _rule(allow: bool, value: str) -> _Rule:
    pattern = _normalize(value)
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    return _Rule(allow, pattern, tuple(body.split("*")), anchored)


class RobotsRules(msgspec.Struct, frozen=True):
    """The rules of one site for one product token; no rules allow everything."""

    rules: tuple[_Rule, ...] = ()
    disallow_all: bool = False
    """The site could not be read (5xx, 429, unreachable): everything is disallowed."""

    def allows(self, path: str) -> bool:
        """Whether *path* (path and query, from the first ``/``) may be fetched.

        The longest matching pattern decides; ``Allow`` wins a tie; ``/robots.txt`` itself
        is always allowed.
        """
        if path == "/robots.txt":
            return True
        if self.disallow_all:
            return False
        target = _normalize(path or "/")
        best: _Rule | None = None
        for rule in self.rules:
            if not rule.matches(target):
                continue
            if (
                best is None
                or len(rule.pattern) > len(best.pattern)
                or (len(rule.pattern) == len(best.pattern) and rule.allow)
            ):
                best = rule
        return best is None or best.allow


def _groups(text: str) -> list[tuple[list[str], list[_Rule]]]:
    """(agents, rules) of every group, in file order."""
    groups: list[tuple[list[str], list[_Rule]]] = []
    in_agents = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            if not in_agents:
                groups.append(([], []))
                in_agents = True
            groups[-1][0].append(value.lower())
        elif key in ("allow", "disallow"):
            in_agents = False
            if groups and value:  # an empty Disallow allows everything: no rule
                groups[-1][1].append(_rule(key == "allow", value))
        # sitemap and other keys are not rules, and do not end the group's agent lines
    return groups


def parse_robots(text: str, token: str) -> RobotsRules:
    """The rules *text* gives the product *token*: its groups merged, else the ``*`` groups."""
    groups = _groups(text)
    mine = [rules for agents, rules in groups if any(product_token(a) == token for a in agents)]
    if not mine:
        mine = [rules for agents, rules in groups if "*" in agents]
    return RobotsRules(rules=tuple(rule for rules in mine for rule in rules))


def _path(url: URL) -> str:
    path = url.raw_path or "/"
    return f"{path}?{url.raw_query_string}" if url.raw_query_string else path


def _same_site(a: str | None, b: str | None) -> bool:
    """Hosts that differ at most by a leading ``www.`` (robots.txt often redirects so)."""
    return (a or "").lower().removeprefix("www.") == (b or "").lower().removeprefix("www.")


_NOT_ASKED = RobotsRules()
"""The rules of a site whose robots.txt moved to a host the caller may not contact: none,
and not cached (:meth:`RobotsCache._expire_early`)."""


class RobotsCache:
    """The robots.txt rules of the sites one runtime fetches from, read once per TTL.

    Concurrent calls for one origin share one fetch of its robots.txt. *clock* is
    injectable for tests.
    """

    def __init__(self, client: SafeClient, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.token = product_token(client.config.user_agent)
        self.clock = clock
        self._sites: dict[str, tuple[float, asyncio.Task[RobotsRules]]] = {}

    async def check(
        self, url: URL, *, may_contact: HostCheck, timeout_s: float = ROBOTS_TIMEOUT_S
    ) -> None:
        """Raise ``robots_disallowed`` when the site's robots.txt disallows *url*.

        *may_contact* says whether a host other than *url*'s may be contacted (a robots.txt
        redirect to the ``www.`` variant)."""
        rules = await self.rules_for(url, may_contact=may_contact, timeout_s=timeout_s)
        path = _path(url)
        if len(rules.rules) <= MAX_INLINE_RULES:
            allowed = rules.allows(path)
        else:
            allowed = await asyncio.to_thread(rules.allows, path)
        if allowed:
            return
        origin = str(url.origin())
        why = (
            "its robots.txt could not be read (the server failed), which RFC 9309 treats as "
            "disallowing everything for now"
            if rules.disallow_all
            else f"its robots.txt disallows this path for {self.token or 'our user agent'}"
        )
        raise ToolError(
            "robots_disallowed",
            f"{url} is not fetched: {why}.",
            retryable=rules.disallow_all,
            details={"robots_url": f"{origin}/robots.txt", "user_agent": self.token},
        )

    async def rules_for(
        self, url: URL, *, may_contact: HostCheck, timeout_s: float = ROBOTS_TIMEOUT_S
    ) -> RobotsRules:
        """The rules of *url*'s origin (fetched now, or reused while young enough)."""
        origin = str(url.origin())
        now = self.clock()
        entry = self._sites.get(origin)
        if entry is None or entry[0] <= now or (entry[1].done() and entry[1].cancelled()):
            task = asyncio.ensure_future(self._read(origin, may_contact))
            self._remember(origin, now + ROBOTS_TTL_S, task)
            task.add_done_callback(lambda t: self._expire_early(origin, t))
        else:
            task = entry[1]
        limit = min(timeout_s, ROBOTS_TIMEOUT_S)
        try:
            async with asyncio.timeout(limit):
                return await asyncio.shield(task)
        except TimeoutError:
            raise ToolTimeout(
                f"reading {origin}/robots.txt took longer than the {limit:g} s left",
                phase="robots",
            ) from None

    async def aclose(self) -> None:
        """Cancel robots.txt reads still running (the client is about to close)."""
        pending = [task for _, task in self._sites.values() if not task.done()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        self._sites.clear()

    def _remember(self, origin: str, until: float, task: asyncio.Task[RobotsRules]) -> None:
        self._sites.pop(origin, None)
        while len(self._sites) >= MAX_SITES:
            self._sites.pop(next(iter(self._sites)))
        self._sites[origin] = (until, task)

    def _expire_early(self, origin: str, task: asyncio.Task[RobotsRules]) -> None:
        """An unreadable site is asked again sooner than a readable one."""
        entry = self._sites.get(origin)
        if entry is None or entry[1] is not task:
            return
        if task.cancelled() or task.exception() is not None:
            del self._sites[origin]  # unreachable: the next call asks again
        elif task.result() is _NOT_ASKED:
            del self._sites[origin]  # another caller may be allowed to read it there
        elif task.result().disallow_all:
            self._sites[origin] = (self.clock() + ROBOTS_ERROR_TTL_S, task)

    async def _read(self, origin: str, may_contact: HostCheck) -> RobotsRules:
        robots_url = f"{origin}/robots.txt"
        host = URL(origin).raw_host  # the IDNA form, as the URL policy gives target.host
        refused = False

        async def same_site(target: Target) -> None:
            nonlocal refused
            if target.host == host:
                return
            variant = _same_site(target.host, host)
            if variant and may_contact(target.host):
                return
            refused = variant  # the www. variant, which this caller may not contact
            raise ToolError("redirect_not_followed", f"robots.txt moved to {target.url}")

        try:
            result = await self.client.fetch(
                robots_url,
                timeout_s=ROBOTS_TIMEOUT_S,
                max_bytes=MAX_ROBOTS_BYTES,
                allow_truncate=True,
                redirect_check=same_site,
                accept="text/plain,*/*;q=0.5",
            )
        except ToolError as exc:
            if exc.code in _UNREACHABLE:
                raise  # the page could not be reached either: say why
            # Redirected elsewhere, blocked, no such host: no rules to follow (and the page's
            # own fetch reports a host that cannot be reached). Moved to a host this caller
            # may not contact: no rules for now, not kept for the next caller.
            return _NOT_ASKED if refused else RobotsRules()
        if result.status == 429 or result.status >= 500:
            return RobotsRules(disallow_all=True)
        if result.status >= 400 or not 200 <= result.status < 300:
            return RobotsRules()
        text, _ = result.decode()
        if len(text) <= MAX_INLINE_BYTES:
            return parse_robots(text, self.token)
        return await asyncio.to_thread(parse_robots, text, self.token)
