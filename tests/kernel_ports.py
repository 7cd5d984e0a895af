"""Kernel ports that no other process takes between their choice and the kernel's bind.

jupyter_client chooses a kernel's five ports by binding port 0 and letting go of it; the kernel
binds them a moment later. Another process on the machine can take one in between (an outgoing
connection or its own port 0), and the kernel dies: "Kernel died before replying to kernel_info"
(jupyter_client#487; its ``LocalPortCache`` closes the gap only within one process). The suite
starts many kernels at once in many processes: nbval's in both pytest workers, Voila's, a hub's
servers'. :func:`use_port_block` makes one process's kernels take their ports from a block of its
own below Linux's ephemeral range (32768 and up), which neither ``connect`` nor port 0 hands out.

The blocks, none overlapping: a pytest worker's own kernels ``29000 + 1000 w`` (worker ``gw<w>``),
the Voilas a worker starts ``26000 + 1000 w``, in blocks of 250 (:func:`voila_block`: a Voila's
own port, then its kernels'), a test hub's servers and their kernels ``10000 + 4000 s + 100 u``
(the hub's port slot ``s``, user id ``u``; tests/hub_ports.py).
"""

from __future__ import annotations

import os
import socket

EPHEMERAL_FROM = 32768
WORKER_KERNELS_FROM = 29000   # + 1000 w: worker gw<w>'s own kernels (conftest.py)
VOILAS_FROM = 26000           # + 1000 w: the Voilas worker gw<w> starts, VOILA_BLOCK ports each
VOILA_BLOCK = 250
_voilas_started = [0]


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


def voila_block() -> tuple[int, int] | None:
    """``(first, count)``: ports for the next Voila this process starts, its own port ``first``
    and its kernels' the rest, or None when this worker has no block (more than three workers).

    The worker's 1,000 ports are used in turn, a block of ``VOILA_BLOCK`` each time, so a Voila
    just stopped leaves its ports to rest; a block whose first port something holds is passed
    over. (Voila chose its port by port 0, which another process could be handed before Voila
    bound it, and its kernels theirs the same way: see this module's docstring.)"""
    first = VOILAS_FROM + 1000 * worker_index()
    if first + 1000 > WORKER_KERNELS_FROM:
        return None
    blocks = 1000 // VOILA_BLOCK
    for _ in range(blocks):
        start = first + VOILA_BLOCK * (_voilas_started[0] % blocks)
        _voilas_started[0] += 1
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", start))
            except OSError:
                continue
        return start, VOILA_BLOCK
    return None
