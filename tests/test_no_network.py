"""Importing, loading plugins and registering tools never touches the network."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys

    seen = []

    def audit(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname",
                     "socket.gethostbyaddr", "socket.sendto", "socket.bind"):
            seen.append(event)
            raise RuntimeError(f"network access at start-up: {event} {args!r}")

    sys.addaudithook(audit)

    import pycares

    class NoChannel:
        def __init__(self, *a, **k):
            raise RuntimeError("DNS channel created at start-up")

    pycares.Channel = NoChannel

    import insomnia_web
    from insomnia_web import Runtime
    from insomnia_web.cli import main

    runtime = Runtime(load_entrypoints=True)
    for reg in runtime.tools.values():
        reg.tool.description(); reg.tool.input_schema(); reg.tool.output_schema()
    assert main(["tools", "--json"]) == 0
    assert main(["schema"]) == 0
    print("NETWORK-FREE", sorted(runtime.tools), seen)
    """
)


def test_start_up_opens_no_socket_and_no_dns() -> None:
    """Import, plugin loading, registration and listing open no socket and create no resolver."""
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "NETWORK-FREE ['SaveFinding', 'WebFetch', 'WebSearch'] []" in proc.stdout


def test_the_guard_catches_a_connection() -> None:
    """The audit guard used above does fail when something connects (the test can fail)."""
    script = SCRIPT.replace(
        "import insomnia_web\n", "import socket\nsocket.create_connection(('127.0.0.1', 9))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode != 0
    assert "network access at start-up" in proc.stderr
