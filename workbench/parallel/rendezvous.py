"""A rank other than 0 waits until rank 0's rendezvous store listens before its first collective.

Paddle's global TCP store, through which every collective of a launched job first finds its peers,
is a server in rank 0 on the port of ``$PADDLE_MASTER``, started by rank 0's first collective. A rank
whose first collective comes before that finds the port closed, and Paddle's client then sleeps 3 s
before it tries again (Paddle 3.3.1, docs/paddle-notes.md, "The first collective"): on two ranks that start
together, about every second launch begins training 3 s late. When the store's host is this machine
(every rank of a one-node job), :func:`wait_for_store` looks at the kernel's table of listening TCP
sockets (``/proc/net/tcp``, ``/proc/net/tcp6``) until the port listens, so that the first connection
succeeds. It connects to nothing (the store would take a probe for a client), and it gives up quietly
— Paddle's own retries then apply as before — on another machine's store, without ``/proc``, when
the run is stopped, or after :data:`STORE_WAIT_S`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path

STORE_WAIT_S = 600.0
"""The longest a rank waits for rank 0's store before it leaves the connection to Paddle's retries."""
POLL_S = 0.02
LISTEN_STATE = "0A"
"""``TCP_LISTEN`` in the ``st`` column of ``/proc/net/tcp``."""
TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})  # noqa: S104 - compared, not bound


def listening_ports(tables: tuple[Path, ...] = TABLES) -> set[int] | None:
    """The local TCP ports some socket of this network namespace listens on; ``None`` without ``/proc``."""
    ports: set[int] = set()
    found = False
    for table in tables:
        try:
            lines = table.read_text(encoding="ascii", errors="replace").splitlines()[1:]
        except OSError:
            continue
        found = True
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == LISTEN_STATE:
                try:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
                except (IndexError, ValueError):
                    continue
    return ports if found else None


def _local(host: str) -> bool:
    """Whether ``host`` is an address of this machine."""
    if host.strip("[]") in LOOPBACK:
        return True
    try:
        import psutil

        return any(addr.address == host for addrs in psutil.net_if_addrs().values() for addr in addrs)
    except Exception:  # noqa: BLE001 - an unknown host is not waited for
        return False


def store_port(env: Mapping[str, str]) -> int | None:
    """The port of rank 0's store this rank should wait for, or ``None`` when there is nothing to wait
    for: rank 0 itself, a job of one rank, no ``$PADDLE_MASTER``, or a store on another machine."""
    rank = env.get("PADDLE_TRAINER_ID", "")
    world = env.get("PADDLE_TRAINERS_NUM", "")
    master = env.get("PADDLE_MASTER", "")
    if not rank.isdigit() or int(rank) == 0 or not world.isdigit() or int(world) < 2 or ":" not in master:
        return None
    host, _, port = master.rpartition(":")
    if not port.isdigit() or not _local(host):
        return None
    return int(port)


def wait_for_store(
    env: Mapping[str, str] | None = None,
    *,
    stop: threading.Event | None = None,
    timeout_s: float = STORE_WAIT_S,
    tables: tuple[Path, ...] = TABLES,
) -> bool:
    """Wait until rank 0's store listens (see the module docstring); whether it does. Returns at once
    when there is nothing to wait for, and early when ``stop`` is set."""
    port = store_port(os.environ if env is None else env)
    if port is None:
        return False
    deadline = time.monotonic() + timeout_s
    while True:
        ports = listening_ports(tables)
        if ports is None:
            return False
        if port in ports:
            return True
        if time.monotonic() >= deadline or (stop is not None and stop.is_set()):
            return False
        if stop is not None:
            stop.wait(POLL_S)
        else:
            time.sleep(POLL_S)
