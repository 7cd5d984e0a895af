"""The suite's kernels take their ports from blocks no other process takes (tests/kernel_ports.py)."""

from __future__ import annotations

import socket

from jupyter_client.connect import LocalPortCache

from tests import kernel_ports


def test_this_workers_kernels_take_ports_from_its_own_block_below_the_ephemeral_range() -> None:
    first = 29000 + 1000 * kernel_ports.worker_index()
    cache = LocalPortCache.instance()
    ports = [cache.find_available_port("127.0.0.1") for _ in range(5)]
    try:
        assert len(set(ports)) == 5
        assert all(first <= p < first + 1000 < kernel_ports.EPHEMERAL_FROM for p in ports), ports
    finally:
        for p in ports:
            cache.return_port(p)


def test_a_port_something_else_holds_is_passed_over() -> None:
    first = 29000 + 1000 * kernel_ports.worker_index()
    cache = LocalPortCache.instance()
    ahead = cache.find_available_port("127.0.0.1")
    cache.return_port(ahead)
    with socket.socket() as holder:  # taken by someone else: the next port round the block
        for step in range(1, 1000):      # that is free now (another run's kernel may hold one)
            held = first + (ahead + step - first) % 1000
            try:
                holder.bind(("127.0.0.1", held))
                break
            except OSError:
                continue
        port = cache.find_available_port("127.0.0.1")
        cache.return_port(port)
    assert port != held and first <= port < first + 1000, (ahead, held, port)


def test_a_block_that_would_reach_the_ephemeral_range_is_refused() -> None:
    assert kernel_ports.use_port_block(kernel_ports.EPHEMERAL_FROM - 10, 20) is False
