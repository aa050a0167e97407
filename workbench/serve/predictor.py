"""The guard that keeps concurrent requests apart on Paddle Inference predictors.

A predictor's input and output handles are shared state: two threads that ``copy_from_cpu`` / ``run``
/ ``copy_to_cpu`` on one predictor at once would read each other's outputs. Two guards are offered:

- ``pool``: ``workers`` predictors, each created on and only ever run by its own long-lived owner
  thread; requests go into one queue and the first free owner runs them (a ``Future`` per request).
- ``lock``: one predictor behind a lock, run on whichever thread handles the request.

Why owner threads and not a queue of predictors that any request thread borrows: with two or more
predictors in one process, Paddle 3.3.1 fails intermittently (``RuntimeError: std::exception`` from
``predictor.run()``) when a predictor runs on threads that come and go — the server's thread pool
does exactly that. Measured: 2 predictors borrowed by 4 threads recreated 30 times, 705 of 3600 calls
failed; the same calls on owner threads, 0 (see docs/paddle-notes.md, "Serving"). One predictor
behind a lock did not fail either way.

``benchmarks/serve_pool.py`` measures both guards on the demo export; one worker (the default) uses
the lock, which measured faster here (:mod:`workbench.serve.options`; README, "Serve"). Both open predictors through
:func:`workbench.inference.paths._predictor.open_predictor` — the exact code path ``compare``
measures as ``predictor_ir_on`` — so a served answer is the compared answer.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Literal

import numpy as np

from workbench.inference.paths import PathContext, Runner

Array = np.ndarray[Any, Any]
Guard = Literal["pool", "lock"]
GUARDS: tuple[Guard, ...] = ("pool", "lock")
_Job = tuple[Array, "Future[Array]"] | None


def open_runner(paddle: Any, prefix: Path, input_name: str) -> Runner:
    """One predictor on the export (IR optimisation on, CPU): the compare engine's ``predictor_ir_on``."""
    from workbench.inference.paths._predictor import open_predictor

    ctx = PathContext(paddle=paddle, model=None, prefix=prefix, input_name=input_name)
    return open_predictor(ctx, ir_optim=True, memory_optim=False)


class _Owner(threading.Thread):
    """Creates one predictor on this thread and runs every job it takes from the shared queue."""

    def __init__(self, index: int, opener: Callable[[], Runner], jobs: queue.Queue[_Job]) -> None:
        super().__init__(name=f"predictor-{index}", daemon=True)
        self._opener = opener
        self._jobs = jobs
        self.ready = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            runner = self._opener()
        except BaseException as exc:  # noqa: BLE001 - handed to the opener's thread, raised there
            self.error = exc
            self.ready.set()
            return
        self.ready.set()
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                batch, future = job
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    future.set_result(runner.call(batch))
                except BaseException as exc:  # noqa: BLE001 - the request's error, raised where it waits
                    future.set_exception(exc)
        finally:
            if runner.close is not None:
                runner.close()


class GuardedPredictor:
    """``submit(batch)`` / ``call(batch)`` safe from any number of threads; ``guard`` and ``size`` say how."""

    def __init__(self, guard: Guard, size: int) -> None:
        self.guard: Guard = guard
        self.size = size
        self._jobs: queue.Queue[_Job] = queue.Queue()
        self._owners: list[_Owner] = []
        self._runner: Runner | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, paddle: Any, prefix: Path, input_name: str, guard: Guard, workers: int) -> GuardedPredictor:
        """Open the predictors (``workers`` owner threads for ``pool``, one for ``lock``)."""
        if guard == "lock":
            guarded = cls("lock", 1)
            guarded._runner = open_runner(paddle, prefix, input_name)
            return guarded
        guarded = cls("pool", max(1, workers))
        for index in range(guarded.size):
            owner = _Owner(index, lambda: open_runner(paddle, prefix, input_name), guarded._jobs)
            owner.start()
            owner.ready.wait()
            if owner.error is not None:
                guarded.close()
                raise owner.error
            guarded._owners.append(owner)
        return guarded

    def submit(self, batch: Array) -> Future[Array]:
        """The output, later: run by a pool owner, or at once under the lock (then already done)."""
        if self.guard == "pool":
            future: Future[Array] = Future()
            self._jobs.put((batch, future))
            return future
        done: Future[Array] = Future()
        try:
            done.set_result(self.call(batch))
        except Exception as exc:  # noqa: BLE001 - handed to the waiter, as the pool does
            done.set_exception(exc)
        return done

    def call(self, batch: Array) -> Array:
        """Run one batch and wait for its output (from any thread)."""
        if self.guard == "pool":
            return self.submit(batch).result()
        assert self._runner is not None
        with self._lock:
            return self._runner.call(batch)

    def close(self) -> None:
        for _ in self._owners:
            self._jobs.put(None)
        for owner in self._owners:
            owner.join(timeout=30)
        self._owners.clear()
        if self._runner is not None and self._runner.close is not None:
            self._runner.close()
        self._runner = None
