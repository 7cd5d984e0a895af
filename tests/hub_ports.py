"""Ports of a test hub's servers that no other process can be handed: the cause of a hub flake.

A Zero to JupyterHub pod has an address of its own, and its server listens on port 8888 there.
The test hub's pods (tests/test_hub.py) share the machine's network, so each server needs a port
of its own. JupyterHub's local spawners choose one by binding port 0 and letting go of it
(``jupyterhub.utils.random_port``); the server binds it 15-25 s later, once it has started (ten
servers starting at once on two cores). In between, port 0 can hand the same port to any other
process on the machine: a classmate's server whose port was chosen the same way (measured: 0.28%
of classes of ten), a Voila or Jupyter server of another test, a kernel. jupyterhub-singleuser
then cannot bind (``port_retries = 0``) and exits, while the hub, which takes any answer but a
5xx at ``/user/<name>/api`` for "up" (``jupyterhub.utils.wait_for_http_server``: "even 404"),
takes the other process's 404 for the student's server, routes the student there and sends them
to ``/user/<name>/git-pull``: Jupyter Server's 404 page, the failure of issue 51.

So each server takes the first port of a block of its own below Linux's ephemeral range (which
neither port 0 nor an outgoing connection hands out); its kernels take the rest of the block
(tests/kernel_ports.py). The blocks of one hub lie in a slot that the hub holds for its life
(a lock file), so two hubs on one machine (two pytest workers, or two checkouts' test runs)
never share a port. :class:`PortSquatter` stands for the other process, and makes the race
certain: it takes every server's port that port 0 could have handed it, before the server binds.
"""

from __future__ import annotations

import fcntl
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

PORTS_PER_SERVER = 100        # the server's own port, then its kernels' (5 a kernel, round the block)
USERS_PER_HUB = 40            # user ids 1..39 (the grading hub has 11 users)
FIRST_PORT = 10000            # the hubs' slots: 10000 .. 25999, below the workers' kernel ports
SLOTS = 4                     # hubs on one machine at once (tests/kernel_ports.py: 29000 and up)
SLOT_SIZE = PORTS_PER_SERVER * USERS_PER_HUB
LOCKS = Path(tempfile.gettempdir()) / "chutes-test-hub-ports"


def ephemeral_range() -> tuple[int, int]:
    """The ports that port 0 and outgoing connections are handed (Linux's ip_local_port_range)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999    # Linux's default


class PortSlot:
    """A slot of server port blocks, held by one hub from its start to its stop.

    Parameters
    ----------
    wait_s
        How long to wait for a slot when every slot is held by another hub of this machine.
    """

    def __init__(self, wait_s: float = 1800.0) -> None:
        low, _high = ephemeral_range()
        if FIRST_PORT + SLOTS * SLOT_SIZE > low:
            raise RuntimeError(f"this machine hands out ports from {low} on: the hub's server ports "
                               f"({FIRST_PORT}..{FIRST_PORT + SLOTS * SLOT_SIZE - 1}) would be among them")
        LOCKS.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + wait_s
        self._lock: IO[str] | None = None
        while self._lock is None:
            for slot in range(SLOTS):
                lock = open(LOCKS / f"slot-{slot}.lock", "w")  # noqa: SIM115 - held until release()
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    lock.close()
                    continue
                self._lock, self.slot = lock, slot
                break
            else:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"every one of the {SLOTS} hub port slots stayed busy")
                time.sleep(2)
        self.first = FIRST_PORT + self.slot * SLOT_SIZE

    def block(self, user_id: int) -> int:
        """The first port of user ``user_id``'s block: their server's port."""
        if not 0 < user_id < USERS_PER_HUB:
            raise ValueError(f"user id {user_id}: a test hub has room for ids 1..{USERS_PER_HUB - 1}")
        return self.first + PORTS_PER_SERVER * user_id

    def release(self) -> None:
        """Let the next hub have the slot (also done by the system when this process ends)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None


class PortSquatter:
    """Another process that port 0 hands a server's port, in the moment before the server binds it.

    It watches the hub's pods; for each server's port (the pod's ``JUPYTERHUB_SERVICE_URL``) that
    lies in the ephemeral range, where port 0 could hand it to anyone, it binds it first and
    answers every request with a 404, as another Jupyter server would. ``seen`` are the servers'
    ports it saw, ``taken`` those it took.

    Parameters
    ----------
    hub_process
        The ``psutil.Process`` of the hub (the pods are its children).
    """

    def __init__(self, hub_process: Any) -> None:
        self.hub_process = hub_process
        self.low, self.high = ephemeral_range()
        self.seen: dict[str, int] = {}
        self.taken: list[int] = []
        self._sockets: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                pods = self.hub_process.children()
            except Exception:   # the hub has gone
                return
            for pod in pods:
                try:
                    environ = pod.environ()
                except Exception:   # not started yet, or gone
                    continue
                url, user = environ.get("JUPYTERHUB_SERVICE_URL"), environ.get("JUPYTERHUB_USER")
                if not url or not user or user in self.seen:
                    continue
                port = int(url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
                self.seen[user] = port
                if self.low <= port <= self.high:
                    self._squat(port)
            self._stop.wait(0.05)

    def _squat(self, port: int) -> None:
        listener = socket.socket()
        try:
            listener.bind(("127.0.0.1", port))
        except OSError:    # the server was quicker
            listener.close()
            return
        listener.listen(16)
        listener.settimeout(0.5)
        self._sockets.append(listener)
        self.taken.append(port)
        threading.Thread(target=self._answer, args=(listener,), daemon=True).start()

    def _answer(self, listener: socket.socket) -> None:
        body = b"<h1>404 : Not Found</h1><p>You are requesting a page that does not exist!</p>"
        while not self._stop.is_set():
            try:
                connection, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            with connection:
                try:
                    connection.recv(65536)
                    connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n"
                                       b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                                       % (len(body), body))
                except OSError:
                    pass

    def stop(self) -> None:
        """Stop watching and let go of every port taken."""
        self._stop.set()
        self._thread.join(timeout=10)
        for listener in self._sockets:
            listener.close()
