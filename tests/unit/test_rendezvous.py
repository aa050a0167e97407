"""A rank other than 0 waits for rank 0's store to listen (workbench.parallel.rendezvous), on real sockets."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.parallel.rendezvous import listening_ports, store_port, wait_for_store


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A TCP socket listening on a free loopback port, as rank 0's store does."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    try:
        yield sock
    finally:
        sock.close()


def _free_port() -> int:
    """A port nothing listens on (bound, never listened, closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(port: int, rank: str = "1", world: str = "2", host: str = "127.0.0.1") -> dict[str, str]:
    return {"PADDLE_TRAINER_ID": rank, "PADDLE_TRAINERS_NUM": world, "PADDLE_MASTER": f"{host}:{port}"}


def test_a_listening_socket_is_seen_in_the_kernel_table(listener: socket.socket) -> None:
    ports = listening_ports()
    assert ports is not None and listener.getsockname()[1] in ports


def test_only_the_other_ranks_of_a_local_job_wait() -> None:
    assert store_port(_env(4321)) == 4321
    assert store_port(_env(4321, host="localhost")) == 4321
    assert store_port(_env(4321, rank="0")) is None  # rank 0 is the store
    assert store_port(_env(4321, world="1")) is None  # a job of one rank has no peers
    assert store_port(_env(4321, host="192.0.2.7")) is None  # another machine's store: Paddle retries
    assert store_port({"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2"}) is None
    assert store_port({}) is None


def test_the_wait_ends_when_the_store_listens(listener: socket.socket) -> None:
    assert wait_for_store(_env(listener.getsockname()[1]), timeout_s=30) is True


def test_the_wait_ends_once_rank_0_starts_listening() -> None:
    port = _free_port()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    result: list[bool] = []
    waiting = threading.Thread(target=lambda: result.append(wait_for_store(_env(port), timeout_s=60)))
    waiting.start()
    try:
        sock.listen()
        waiting.join(60)
    finally:
        sock.close()
    assert result == [True]


def test_a_stopped_run_or_a_closed_port_does_not_keep_the_rank_waiting() -> None:
    port = _free_port()
    stop = threading.Event()
    stop.set()
    assert wait_for_store(_env(port), stop=stop, timeout_s=600) is False
    assert wait_for_store(_env(port), timeout_s=0) is False


def test_without_proc_there_is_nothing_to_wait_for(tmp_path: Path) -> None:
    missing = (tmp_path / "tcp",)
    assert listening_ports(missing) is None
    assert wait_for_store(_env(_free_port()), timeout_s=600, tables=missing) is False
