"""Reading a kit's training log incrementally: metric rows into a store, the rest kept as log text.

:class:`LogFollower` keeps a byte offset and never parses a line before its newline arrived, so it can
follow a file the kit is still appending to (the same discipline as :class:`workbench.runs.EventTailer`).
Each complete line goes to the format's ``parse_line``: a per-iteration line becomes one metric row at
its global step (rank 0); an evaluation line (``parse_eval``) becomes ``eval/*`` values at the step of
the iteration line before it; anything else stays log text, header lines that state the run's size
(``parse_facts``) teaching the follower the epochs and iterations per epoch on the way.

A Python traceback ends the run as failed (a later iteration line clears it again: a data-loader worker
may print one and training go on). The run is finished once the last step of the last epoch was logged,
or at the format's end marker — but only at one that belongs to no evaluation, in the last epoch:
PaddleOCR prints ``best metric, …`` after every evaluation and once more when training is over. A later
iteration line (training resumed into the same file) takes the ending back.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from workbench.attach.parsers import LogParser
from workbench.attach.parsers._fields import POSITION_KEYS
from workbench.metric_store import MetricStore

READ_LIMIT = 4 * 1024 * 1024
"""Bytes read per poll at most: a long log is taken in slices, the UI never waits on one huge read."""

_TRACEBACK = "Traceback (most recent call last):"
_ERROR_LINE = re.compile(r"^(?:[\w.]+\.)?\w*(?:Error|Exception|Interrupt|Exit)\b:?")


def _quietly(parse: Callable[[str], Mapping[str, float] | None], line: str) -> Mapping[str, float] | None:
    """``parse(line)``, or ``None`` for a line that only looks like one the parser reads (it stays text)."""
    try:
        return parse(line)
    except (ValueError, TypeError, IndexError, OverflowError):
        return None


@dataclass
class Crash:
    """The traceback that ended the run: the exception line and the whole text."""

    error: str
    traceback: str


@dataclass
class LogFollower:
    """Follows one kit log (``path``) read with ``parser``; metrics land in ``metrics``."""

    path: Path
    parser: LogParser
    metrics: MetricStore = field(default_factory=MetricStore)
    offset: int = 0
    last_step: int | None = None
    epoch: float | None = None
    epochs: float | None = None
    iters: float | None = None
    iteration: float | None = None
    crash: Crash | None = None
    ended: bool = False
    text_lines: int = 0
    rows: int = 0
    _partial: bytes = b""
    _evals_unpaired: int = 0
    """Evaluation lines since the last iteration line whose end-marker line has not come yet."""
    _first_epoch: float | None = None
    """The epoch of the first iteration line: 0 when the kit counts epochs from 0."""
    _traceback: list[str] | None = None
    _record_steps: dict[str, int] = field(default_factory=dict)

    @property
    def total_steps(self) -> int | None:
        """Steps of the whole run, when the log says both the epochs and the iterations per epoch."""
        if self.epochs and self.iters:
            return int(self.epochs * self.iters)
        return None

    @property
    def finished(self) -> bool:
        if self.crash is not None:
            return False
        total = self.total_steps
        return self.ended or (total is not None and self.last_step is not None and self.last_step >= total)

    def poll(self, limit: int = READ_LIMIT) -> list[str]:
        """Read what the file gained (up to ``limit`` bytes); returns the new lines that were not metrics."""
        if self.parser.records is not None:
            self._poll_records()
            return []
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                chunk = fh.read(limit)
        except OSError:
            return []
        if not chunk:
            return []
        self.offset += len(chunk)
        data = self._partial + chunk
        *lines, self._partial = data.split(b"\n")
        text: list[str] = []
        now = time.time()
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if not self._consume(line, now):
                text.append(line)
        self.text_lines += len(text)
        return text

    def _poll_records(self) -> None:
        """A record file (VisualDL) is read whole when it grew; rows past each metric's last step are new."""
        try:
            size = self.path.stat().st_size
        except OSError:
            return
        if size == self.offset or self.parser.records is None:
            return
        rows = self.parser.records(self.path)
        self.offset = size
        now = time.time()
        for name, step, value in sorted(rows, key=lambda row: row[1]):
            if step > self._record_steps.get(name, -1):
                self._record_steps[name] = step
                self.metrics.record(0, step, {name: value}, now)
                self.last_step = max(step, self.last_step or step)
                self.rows += 1

    def learn_facts(self, lines: Iterable[str]) -> None:
        """Take the run's size from header lines (a tail-only scan reads the head for them)."""
        for line in lines:
            self._facts(line)

    def _facts(self, line: str) -> None:
        read = self.parser.parse_facts
        facts = _quietly(read, line) if read is not None else None
        if facts:
            self.epochs = facts.get("epochs", self.epochs)
            self.iters = facts.get("iters", self.iters)

    def _consume(self, line: str, now: float) -> bool:
        """One complete line; ``True`` when it was a metric row."""
        if not line.strip():
            self._watch_for_crash(line)
            return False
        values = _quietly(self.parser.parse_line, line)
        if values:
            position = {k: v for k, v in values.items() if k in POSITION_KEYS}
            metrics = {k: v for k, v in values.items() if k not in POSITION_KEYS}
            step_value = position.get("step")
            step = int(step_value) if step_value is not None and math.isfinite(step_value) else None
            if step is None:
                step = (self.last_step or 0) + 1
            self.epoch = position.get("epoch", self.epoch)
            if self._first_epoch is None:
                self._first_epoch = self.epoch
            self.epochs = position.get("epochs", self.epochs)
            self.iters = position.get("iters", self.iters)
            self.iteration = position.get("iter", self.iteration)
            self.metrics.record(0, step, metrics, now)
            self.last_step = step
            self.rows += 1
            self.crash = None  # training went on after the traceback (a worker's, say)
            self._traceback = None
            self.ended = False  # ...and after an ending (a resumed run appends to the same file)
            self._evals_unpaired = 0
            return True
        evaluation = _quietly(self.parser.parse_eval, line) if self.parser.parse_eval else None
        if evaluation:
            self.metrics.record(0, self.last_step or 0, evaluation, now)
            self.rows += 1
            self._evals_unpaired += 1
            return True
        self._facts(line)
        self._watch_for_crash(line)
        marker = self.parser.end_marker
        if marker is not None and marker.search(line):
            self._end_marker()
        return False

    def _end_marker(self) -> None:
        """The format's end line: an evaluation's own (nothing ends), or the end of training."""
        if self._evals_unpaired:
            self._evals_unpaired -= 1
            return
        if self.last_step is None:
            return  # a scan that began mid-evaluation: no iteration line yet to place an ending after
        if self.epochs is None or self.epoch is None:
            self.ended = True
            return
        last_epoch = self.epochs - 1 if self._first_epoch == 0 else self.epochs
        if self.epoch >= last_epoch:
            self.ended = True

    def _watch_for_crash(self, line: str) -> None:
        if line.lstrip().startswith(_TRACEBACK):  # Paddle's "C++ Traceback …" continues the same one
            self._traceback = [line]
            return
        if self._traceback is None:
            return
        self._traceback.append(line)
        if line[:1] not in (" ", "\t", "") and _ERROR_LINE.match(line.strip()):
            self.crash = Crash(error=line.strip(), traceback="\n".join(self._traceback))
        if len(self._traceback) > 400:  # keep the head and the tail of a monster traceback
            del self._traceback[200:-100]

    def status(self, idle_s: float | None = None, stale_after_s: float = 600.0) -> str:
        """``failed`` / ``finished`` from the text; else ``running`` while the file still grows
        (modified within ``stale_after_s``), ``interrupted`` once it stopped without an ending."""
        if self.crash is not None:
            return "failed"
        if self.finished:
            return "finished"
        if idle_s is None:
            try:
                idle_s = time.time() - self.path.stat().st_mtime
            except OSError:
                return "interrupted"
        return "running" if idle_s < stale_after_s else "interrupted"
