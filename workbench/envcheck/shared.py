"""The Paddle probes of one check in one child: Paddle is imported once per check, not once per probe.

Importing Paddle costs about a CPU-second, more than the probes' own work. :class:`SharedChild` runs the
scripts of the Paddle probes in turn in one child (:func:`scripts.in_turn`) and hands each probe its
document as soon as its part of the child ends, so findings still stream.

The isolation stays where it matters. When the shared child dies before a probe's part has delivered a
document (a crash, a kill, a script that raised), that probe runs again in a child of its own, as it
would without sharing, with what is left of its time limit: a probe that crashes Paddle crashes its own
child again and is reported exactly as a probe alone is, and the probes after it still get their facts.
A probe whose part runs past the probe's limit is reported as timed out (its part's output as the tail)
and the child is killed; the probes after it run alone. A cancel kills the child.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.envcheck import scripts
from workbench.envcheck.isolate import (
    POLL_S,
    ProbeCancelled,
    ProbeTimeout,
    parse_marked,
    run_python,
    tail,
)
from workbench.i18n import t
from workbench.isolate import Child, ChildError, child_env


class SharedChild:
    """One child running the scripts of ``sections`` (probe name, script) in turn, started by the first
    probe that asks (:meth:`run`). Thread-safe: each probe asks from its own thread."""

    def __init__(
        self,
        sections: Sequence[tuple[str, str]],
        *,
        python: str,
        env: Mapping[str, str],
        cancel: threading.Event,
        cwd: str | None = None,
        background: bool = False,
    ) -> None:
        self._sections = list(sections)
        self._name_of = {code: name for name, code in self._sections}
        self._python, self._env, self._cwd = python, env, cwd
        self._cancel, self._background = cancel, background
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._ended = False
        self._aborted = False
        self._latest = -math.inf
        """The latest deadline of a probe waiting on the child: past it nobody wants what it prints."""
        self._current: str | None = None
        self._lines: dict[str, list[str]] = {}
        self._docs: dict[str, dict[str, Any]] = {}
        self._closed: set[str] = set()
        self._given_up: set[str] = set()

    def covers(self, code: str) -> bool:
        """Whether probe script ``code`` is one of the scripts this child runs."""
        return code in self._name_of

    def run(self, code: str, *, timeout_s: float, cancel: threading.Event | None = None) -> dict[str, Any]:
        """The document probe script ``code`` printed, within ``timeout_s`` from now.

        Raises what :func:`~workbench.envcheck.isolate.run_python` raises for the script alone:
        :class:`ProbeTimeout` with ``timeout_s``, :class:`ProbeCancelled`, ``ProbeError``.
        """
        name = self._name_of[code]
        cancel = cancel or self._cancel
        deadline = time.monotonic() + timeout_s
        with self._cond:
            self._latest = max(self._latest, deadline)
            if self._thread is None and not self._aborted:
                self._thread = threading.Thread(target=self._own, name="envcheck-shared", daemon=True)
                self._thread.start()
            while name not in self._docs:
                if name in self._closed or self._ended:
                    break  # its part ended without a document, or the child died: run it alone
                if cancel.is_set():
                    self._aborted = True
                    raise ProbeCancelled(t("envcheck.cancelled"), output_tail=self._tail(name))
                left = deadline - time.monotonic()
                if left <= 0:
                    self._given_up.add(name)
                    if self._current == name:
                        self._aborted = True  # the probe hangs the child: the probes after it run alone
                    raise ProbeTimeout(timeout_s, self._tail(name))
                self._cond.wait(min(POLL_S, left))
            else:
                return self._docs[name]
        left = deadline - time.monotonic()
        if left <= 0:
            raise ProbeTimeout(timeout_s, self._tail(name))
        try:
            return run_python(
                code,
                python=self._python,
                env=self._env,
                timeout_s=left,
                cwd=self._cwd,
                cancel=cancel,
                background=self._background,
            )
        except ProbeTimeout as exc:  # the probe's own limit, as a probe alone reports it
            raise ProbeTimeout(timeout_s, exc.output_tail) from None

    def close(self, within_s: float) -> None:
        """End the child (its group killed, if still running) and reap it within ``within_s``: the check
        is over, nothing of it outlives the check."""
        with self._cond:
            self._aborted = True
            thread = self._thread
            if thread is None:  # never started: a late probe runs alone instead of waiting
                self._ended = True
                self._cond.notify_all()
        if thread is not None:
            thread.join(within_s)

    def _tail(self, name: str) -> str:
        return tail("\n".join(self._lines.get(name, ())))

    def _stop(self) -> bool:
        return self._aborted or self._cancel.is_set() or time.monotonic() > self._latest

    def _own(self) -> None:
        """The shared child's thread: start it, wait for it, and wake every waiting probe when it ends."""
        try:
            child = Child(
                [self._python, "-c", scripts.in_turn(self._sections)],
                env=child_env(self._env),
                cwd=self._cwd,
                on_line=self._line,
                background=self._background,
            )
            child.wait(math.inf, cancel=self._stop)
        except (ChildError, OSError):
            pass  # the probes not yet delivered run alone and meet the same failure there
        finally:
            with self._cond:
                self._ended = True
                self._cond.notify_all()

    def _line(self, line: str) -> None:
        """One line of the child's output (reader thread): a section mark, a document or output."""
        with self._cond:
            if line.startswith(scripts.SECTION):
                try:
                    mark = json.loads(line[len(scripts.SECTION) :])
                except json.JSONDecodeError:
                    mark = {}
                if "begin" in mark:
                    self._current = str(mark["begin"])
                    self._lines[self._current] = []
                    if self._current in self._given_up:
                        self._aborted = True  # its probe timed out waiting: the probes after it run alone
                elif "end" in mark and self._current is not None:
                    document = parse_marked("\n".join(self._lines[self._current]))
                    if document is not None:
                        self._docs[self._current] = document
                    self._closed.add(self._current)
                    self._current = None
                    self._cond.notify_all()
            elif self._current is not None:
                self._lines[self._current].append(line)
