"""The suite's kernels take their ports from blocks no other process takes (tests/kernel_ports.py)."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from jupyter_client.connect import LocalPortCache

from tests import browser, kernel_ports


def test_this_workers_kernels_take_ports_from_its_own_block_below_the_ephemeral_range() -> None:
    first = kernel_ports.WORKER_KERNELS_FROM + 1000 * kernel_ports.worker_index()
    cache = LocalPortCache.instance()
    ports = [cache.find_available_port("127.0.0.1") for _ in range(5)]
    try:
        assert len(set(ports)) == 5
        assert all(first <= p < first + 1000 < kernel_ports.EPHEMERAL_FROM for p in ports), ports
    finally:
        for p in ports:
            cache.return_port(p)


def test_a_port_something_else_holds_is_passed_over() -> None:
    first = kernel_ports.WORKER_KERNELS_FROM + 1000 * kernel_ports.worker_index()
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


@pytest.mark.slow
@pytest.mark.skipif(browser.voila_command() is None, reason="voila is not installed")
def test_voila_and_its_kernels_take_ports_from_a_block_of_their_own(tmp_path: Path) -> None:
    """The flake of tests/test_accessibility.py: Voila chose its port, and its kernels theirs, by
    port 0, which can hand the same port to another process before the first binds it."""
    import requests

    notebook = tmp_path / "tiny.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                               "execution_count": None, "source": "1 + 1"}],
                                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    first = kernel_ports.VOILAS_FROM + 1000 * kernel_ports.worker_index()
    with browser.voila(notebook) as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        assert first <= port < first + 1000 and port % kernel_ports.VOILA_BLOCK == 0, port
        assert requests.get(url, timeout=120).status_code == 200    # the notebook runs on a kernel
        deadline, files = time.monotonic() + 60, list[bytes]()
        while not files and time.monotonic() < deadline:
            files = [arg for pid in url.kernels()
                     for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                     if arg.endswith(b".json") and b"kernel-" in arg]
            time.sleep(0.2)
        assert files, "Voila started no kernel"
        info = json.loads(Path(files[0].decode()).read_text())
        ports = [v for k, v in info.items() if k.endswith("_port")]
        assert len(ports) == 5 and all(port < p < port + kernel_ports.VOILA_BLOCK for p in ports), (
            port, ports)

