"""Helpers shared by the test packages: a dial guard and loopback servers.

Nothing a test starts leaves 127.0.0.1, and the guard makes a test fail if it dials
anything else (or, in strict mode, any loopback port that is not one of its servers).
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from aiohttp import web

__all__ = ["LOOPBACK", "DialGuard", "install_dial_guard", "start_app"]

LOOPBACK = "127.0.0.1"


class DialGuard:
    """The addresses tests may dial, and every attempt to dial anything else."""

    def __init__(self, *, any_loopback_port: bool) -> None:
        self.any_loopback_port = any_loopback_port
        self.allowed: set[tuple[str, int]] = set()
        self.dialled: list[tuple[str, int]] = []
        self.violations: list[Any] = []

    def allow(self, port: int) -> None:
        """Allow connections to 127.0.0.1:*port* (a server of this test)."""
        self.allowed.add((LOOPBACK, port))

    def permits(self, target: tuple[str, int]) -> bool:
        """Whether dialling *target* is allowed."""
        if self.any_loopback_port and target[0] == LOOPBACK:
            return True
        return target in self.allowed

    def check(self) -> None:
        """Fail if anything outside the allowed addresses was dialled."""
        assert not self.violations, f"dialled outside the test servers: {self.violations}"


def install_dial_guard(
    monkeypatch: pytest.MonkeyPatch, *, any_loopback_port: bool = False
) -> DialGuard:
    """Wrap the event loop's ``sock_connect`` so every dial is recorded and vetted."""
    guard = DialGuard(any_loopback_port=any_loopback_port)
    original = asyncio.selector_events.BaseSelectorEventLoop.sock_connect

    async def sock_connect(self: Any, sock: socket.socket, address: Any) -> None:
        target = (str(address[0]), int(address[1]))
        guard.dialled.append(target)
        if not guard.permits(target):
            guard.violations.append(address)
            raise AssertionError(f"test tried to dial {address!r}")
        await original(self, sock, address)

    monkeypatch.setattr(asyncio.selector_events.BaseSelectorEventLoop, "sock_connect", sock_connect)
    return guard


async def start_app(
    app: web.Application, *, shutdown_timeout: float = 0.5
) -> tuple[web.AppRunner, int]:
    """Serve *app* on 127.0.0.1 (a free port); returns the runner (to clean up) and port."""
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=shutdown_timeout)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0)
    await site.start()
    port = int(runner.addresses[0][1])
    return runner, port
