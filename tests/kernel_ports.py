"""Kernel ports that no other process takes between their choice and the kernel's bind.

jupyter_client chooses a kernel's five ports by binding port 0 and letting go of it; the kernel
binds them a moment later. Another process on the machine can take one in between (an outgoing
connection or its own port 0), and the kernel dies: "Kernel died before replying to kernel_info"
(jupyter_client#487; its ``LocalPortCache`` closes the gap only within one process). The suite
starts many kernels at once in many processes: nbval's in both pytest workers, Voila's, a hub's
servers'. :func:`use_port_block` makes one process's kernels take their ports from a block of its
own below Linux's ephemeral range (32768 and up), which neither ``connect`` nor port 0 hands out.

The blocks, none overlapping: a pytest worker's own kernels ``29000 + 1000 w`` (worker ``gw<w>``),
a test hub's servers and their kernels ``10000 + 4000 s + 100 u`` (the hub's port slot ``s``,
user id ``u``; tests/hub_ports.py).
"""

from __future__ import annotations

import os
import socket

EPHEMERAL_FROM = 32768


def worker_index() -> int:
    """This pytest-xdist worker's number (0 without xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return int(worker) if worker.isdigit() else 0


def use_port_block(first: int, count: int) -> bool:
    """Make this process's kernels take their ports from ``first .. first + count - 1``.

    Ports are handed out round the block, so a port just given back rests; a port that something
    else holds is passed over. Returns False (and changes nothing) if the block would reach the
    ephemeral range."""
    if first + count > EPHEMERAL_FROM:
        return False
    from jupyter_client.connect import LocalPortCache

    turn = [0]

    def find_available_port(self: LocalPortCache, ip: str) -> int:
        for _ in range(count):
            port = first + turn[0] % count
            turn[0] += 1
            if port in self.currently_used_ports:
                continue
            with socket.socket() as probe:
                try:
                    probe.bind((ip, port))
                except OSError:
                    continue
            self.currently_used_ports.add(port)
            return port
        raise RuntimeError(f"no free kernel port in {first}..{first + count - 1}")

    LocalPortCache.find_available_port = find_available_port  # type: ignore[method-assign]
    return True
