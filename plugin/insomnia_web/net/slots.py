"""Connection slots: how many requests may be open at once, per host and in all.

Keep-alive is off, so one open request is one connection. A host (name and port) has at
most ``per_host`` slots and all hosts together ``total``, so servers that drip or stall
hold only their own host's slots while the others keep being served. A request first
waits for its host's slot, then for one of the total, so waiting for a busy host never
keeps a slot that another host could use. Waiters are served in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_HOST", "ConnectionSlots", "HostKey"]

MAX_CONNECTIONS = 64
"""Default bound on the requests open at once, all hosts together."""
MAX_CONNECTIONS_PER_HOST = 8
"""Default bound on the requests open at once to one host and port: eight such hosts can
stall, and the others are still served."""

HostKey = tuple[str, int | None]


class _Host:
    def __init__(self, per_host: int) -> None:
        self.slots = asyncio.Semaphore(per_host)
        self.users = 0  # holders and waiters: the entry goes when the last one leaves


class ConnectionSlots:
    """Per-host and total bounds on open requests (for one event loop).

    :meth:`acquire` waits for a slot and returns the function that gives it back.
    """

    def __init__(
        self, *, total: int = MAX_CONNECTIONS, per_host: int = MAX_CONNECTIONS_PER_HOST
    ) -> None:
        if total < 1 or per_host < 1:
            raise ValueError("connection limits must be at least 1")
        self.total = total
        self.per_host = per_host
        self._all = asyncio.Semaphore(total)
        self._hosts: dict[HostKey, _Host] = {}
        self.open = 0
        """Requests holding a slot now."""

    @property
    def hosts(self) -> int:
        """Hosts with a request open or waiting."""
        return len(self._hosts)

    async def acquire(self, key: HostKey) -> Callable[[], None]:
        """Wait for a slot of host *key*, and one of the total; return the release function.

        Cancelled while waiting, it holds nothing.
        """
        host = self._hosts.get(key)
        if host is None:
            host = self._hosts[key] = _Host(self.per_host)
        host.users += 1
        try:
            await host.slots.acquire()
            try:
                await self._all.acquire()
            except BaseException:
                host.slots.release()
                raise
        except BaseException:
            self._leave(key, host)
            raise
        self.open += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.open -= 1
            self._all.release()
            host.slots.release()
            self._leave(key, host)

        return release

    def _leave(self, key: HostKey, host: _Host) -> None:
        host.users -= 1
        if host.users == 0 and self._hosts.get(key) is host:
            del self._hosts[key]
