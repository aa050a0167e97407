"""The run store on disk (docs/architecture.md, "Run store"): create runs, write and read their events.

Layout of one run::

    <workspace>/runs/<run-id>/
      run.yaml        resolved config + environment fingerprint
      state.json      small summary (status, pid, last step) rewritten atomically; cheap to list
      events.jsonl    append-only lifecycle events + metric samples, flushed in batches (<= 0.5 s)
      ranks/<r>/events.jsonl   launched runs: one stream per rank
      logs.txt        captured stdout / stderr / glog of the run

A folder is a run when it holds any of ``run.yaml``, ``state.json``, ``events.jsonl`` or ``checkpoints/``;
one that lost a file or holds a bad ``state.json`` field is listed with ``damaged`` saying why (each
field is checked on its own), so one bad folder never hides a run or breaks a listing. Listing and
``--resume latest`` read only ``state.json``; ``run.yaml`` is read for one run at a time, size-bounded.

Readers never trust ``state.json`` alone: a run whose writer died without a terminal event is shown as
``interrupted`` (its pid is gone), and :class:`EventTailer` reads any run incrementally — the same code
serves "read a finished run", "attach to a run another process is writing" and "tail launched ranks".
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from workbench.events import (
    TERMINAL_TYPES,
    Event,
    RunCancelled,
    RunFailed,
    RunFinished,
    RunStarted,
    event_from_dict,
    json_safe_float,
    parse_float,
)
from workbench.i18n import t
from workbench.permissions import PRIVATE_DIR, open_private, private_dir
from workbench.permissions import tighten as tighten  # re-exported: its writers import it from here
from workbench.settings_sources import DEFAULT_WORKSPACE, raw_setting

if TYPE_CHECKING:  # numpy, pydantic, yaml: the run list and the TUI's first frame start without them
    from workbench.metric_store import MetricStore
    from workbench.run_state import RunState

FLUSH_INTERVAL_S = 0.5

STATUS_RUNNING = "running"
STATUS_FINISHED = "finished"
STATUS_FAILED = "failed"
STATUS_CANCELLED = "cancelled"
STATUS_INTERRUPTED = "interrupted"  # no terminal event and the writing process is gone

_TERMINAL_STATUS = {
    RunFinished.TYPE: STATUS_FINISHED,
    RunFailed.TYPE: STATUS_FAILED,
    RunCancelled.TYPE: STATUS_CANCELLED,
}


def resolve_workspace(workspace: str | os.PathLike[str] | None = None) -> Path:
    """``--workspace`` wins, then ``PADDLE_WORKBENCH_WORKSPACE``, then the user config file's
    ``workspace:``, then ``./.paddle-workbench`` (see :mod:`workbench.settings_sources`)."""
    found = raw_setting("workspace", workspace or None)
    return Path(str(found)).expanduser() if found else DEFAULT_WORKSPACE


def make_private_dir(path: Path, *, exist_ok: bool = True) -> Path:
    """``mkdir -p`` whose folders it makes are 0700 (the umask cannot widen them) and whose last folder,
    ours by name (a run, ``reports/``), is tightened if it existed."""
    private_dir(path.parent)
    path.mkdir(mode=PRIVATE_DIR, exist_ok=exist_ok)
    return private_dir(path, ours=True)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so a reader sees the old or the new file, never a torn one.

    The file is created 0600 (see :func:`open_private`)."""
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        with open_private(tmp, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        # A full disk (or a kill) must not leave a 0-byte temp file beside the real one; the ones a
        # kill -9 leaves are removed by workbench.leftovers once their pid is gone.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def slug(name: str) -> str:
    """A run name as it appears in run ids: safe characters only, at most 40."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:40] or "run"


# --------------------------------------------------------------------------- writing


def _safe_value(value: Any) -> float | str:
    """A metric value as JSON: non-finite floats as strings, anything float() rejects as its text."""
    try:
        return json_safe_float(float(value))
    except (TypeError, ValueError):
        return str(value)


def _json_line(row: dict[str, Any]) -> str:
    values = row.get("values")
    if row.get("type") == "metrics" and isinstance(values, Mapping):
        row = {**row, "values": {k: _safe_value(v) for k, v in values.items()}}
    return json.dumps(row, default=str, ensure_ascii=False)


class EventWriter:
    """Appends events to one ``events.jsonl``: samples batched by a flusher thread, lifecycle at once.

    ``sample`` is the training hot path: one ``deque.append`` (~0.1 µs, thread-safe, no lock, no I/O).
    ``emit`` queues a lifecycle event behind the pending samples and flushes immediately, so the file
    order is the order things happened and a crash right after an event cannot lose it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        private_dir(path.parent)
        self._fh: TextIO = open_private(path)  # closed in close()
        self._pending: deque[dict[str, Any]] = deque()
        self._flush_lock = threading.Lock()
        self._closed = threading.Event()
        self.last_error: OSError | None = None
        self._thread = threading.Thread(target=self._flusher, name=f"events-writer:{path}", daemon=True)
        self._thread.start()

    def sample(self, rank: int, step: int, values: Mapping[str, float], when: float) -> None:
        self._pending.append({"type": "metrics", "rank": rank, "step": step, "time": when, "values": values})

    def system(self, step: int, values: Mapping[str, float], when: float) -> None:
        """Queue one system sample (``sys/...`` values) as a ``system`` row; written with the samples."""
        self._pending.append({"type": "system", "step": step, "time": when, "values": values})

    def emit(self, event: Event) -> None:
        self._pending.append(event.to_dict())
        self.flush()

    def flush(self, *, durable: bool = False) -> None:
        """Write every pending row (``durable``: and fsync); on a write error the rows go back to the
        queue and the error is raised."""
        with self._flush_lock:
            self._flush_locked(durable)

    def _flush_locked(self, durable: bool = False) -> None:
        if self._fh.closed:
            return
        rows: list[dict[str, Any]] = []
        pending = self._pending
        while pending:
            rows.append(pending.popleft())
        if rows:
            try:
                self._fh.write("\n".join(_json_line(row) for row in rows) + "\n")
                self._fh.flush()
            except OSError:
                pending.extendleft(reversed(rows))  # nothing is lost; the next flush tries again
                raise
        if durable:
            os.fsync(self._fh.fileno())

    def _flusher(self) -> None:
        while not self._closed.wait(FLUSH_INTERVAL_S):
            try:
                self.flush()
            except OSError as exc:  # e.g. a full disk: keep the rows, retry next time, never die
                self.last_error = exc

    def close(self, last: Event | None = None) -> None:
        """Flush and close; ``last`` (a terminal event) is written as the file's last line, atomically
        with the close, so nothing another thread emits afterwards can land behind it."""
        self._closed.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        with self._flush_lock:
            if last is not None and not self._fh.closed:
                self._pending.append(last.to_dict())
            self._flush_locked()
            self._fh.close()


@dataclass
class RunHandle:
    """A run folder being written by this process."""

    run_dir: Path
    run_id: str
    writer: EventWriter
    state: dict[str, Any] = field(default_factory=dict)
    _log: TextIO | None = None
    _log_lock: threading.Lock = field(default_factory=threading.Lock)
    _state_lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def logs_path(self) -> Path:
        return self.run_dir / "logs.txt"

    def write_log(self, text: str) -> None:
        """Append captured output to ``logs.txt`` (thread-safe)."""
        with self._log_lock:
            if self._log is None:
                self._log = open_private(self.logs_path, errors="replace")
            self._log.write(text)
            self._log.flush()

    def emit(self, event: Event) -> None:
        self.writer.emit(event)
        self.update_state(event)

    def update_state(self, event: Event) -> None:
        """Fold a lifecycle event into ``state.json`` (callers: the job thread and the watchdog)."""
        with self._state_lock:
            self._fold(event)
            self._save_state_locked()

    def _fold(self, event: Event) -> None:
        status = _TERMINAL_STATUS.get(event.TYPE)
        if status is not None:
            self.state["status"] = status
            self.state["ended"] = event.time
        if isinstance(event, RunStarted):
            self.state.update(status=STATUS_RUNNING, started=event.time, name=event.name, kind=event.kind)
        step = getattr(event, "step", None)
        if isinstance(step, int):
            self.state["last_step"] = max(step, int(self.state.get("last_step", -1)))

    def save_state(self) -> None:
        with self._state_lock:
            self._save_state_locked()

    def _save_state_locked(self) -> None:
        self.state["updated"] = time.time()
        atomic_write_text(self.run_dir / "state.json", json.dumps(self.state, default=str))

    def close(self) -> None:
        self.writer.close()
        with self._log_lock:
            if self._log is not None:
                self._log.close()
                self._log = None
        tighten(self.run_dir)  # checkpoints and exports Paddle wrote under the umask


# --------------------------------------------------------------------------- reading


class EventTailer:
    """Incrementally reads a run's ``events.jsonl`` and every ``ranks/<r>/events.jsonl``.

    Keeps a byte offset per file and never parses a line until its newline arrived, so it can follow a
    file another process is appending to. ``poll`` feeds metric rows into ``metrics`` and returns the
    new lifecycle events of the top-level file (rank files' lifecycle events come back too, marked).
    """

    def __init__(self, run_dir: Path, metrics: MetricStore | None = None) -> None:
        self.run_dir = run_dir
        if metrics is None:
            from workbench.metric_store import MetricStore

            metrics = MetricStore()
        self.metrics = metrics
        self._offsets: dict[Path, int] = {}
        self._partial: dict[Path, bytes] = {}
        self.bad_lines = 0

    def _files(self) -> list[tuple[Path, int | None]]:
        files: list[tuple[Path, int | None]] = [(self.run_dir / "events.jsonl", None)]
        ranks = self.run_dir / "ranks"
        if ranks.is_dir():
            for child in sorted(ranks.iterdir()):
                if child.name.isdigit():
                    files.append((child / "events.jsonl", int(child.name)))
        return files

    def poll(self) -> list[tuple[Event, int | None]]:
        """Read what was appended since the last call: ``[(event, rank_file_or_None), ...]``."""
        out: list[tuple[Event, int | None]] = []
        for path, rank in self._files():
            try:
                with open(path, "rb") as fh:
                    fh.seek(self._offsets.get(path, 0))
                    chunk = fh.read()
            except FileNotFoundError:
                continue
            if not chunk:
                continue
            self._offsets[path] = self._offsets.get(path, 0) + len(chunk)
            data = self._partial.pop(path, b"") + chunk
            *lines, rest = data.split(b"\n")
            if rest:
                self._partial[path] = rest
            for raw in lines:
                self._consume(raw, rank, out)
        return out

    def _consume(self, raw: bytes, rank_file: int | None, out: list[tuple[Event, int | None]]) -> None:
        if not raw.strip():
            return
        try:
            row = json.loads(raw)
        except ValueError:
            self.bad_lines += 1
            return
        if not isinstance(row, dict):
            self.bad_lines += 1
            return
        if row.get("type") == "metrics":
            values = row.get("values") or {}
            try:
                rank = int(row.get("rank", rank_file or 0))
                self.metrics.record(
                    rank,
                    int(row["step"]),
                    {str(k): parse_float(v) for k, v in values.items()},
                    float(row.get("time", 0.0)),
                )
            except (KeyError, TypeError, ValueError):
                self.bad_lines += 1
            return
        if row.get("type") == "system":
            try:
                self.metrics.record_system(
                    int(row["step"]), {str(k): parse_float(v) for k, v in (row.get("values") or {}).items()}
                )
            except (KeyError, TypeError, ValueError, AttributeError):
                self.bad_lines += 1
            return
        event = event_from_dict(row)
        if event is not None:
            out.append((event, rank_file))


@dataclass
class RunSummary:
    """One line of the run list."""

    run_id: str
    run_dir: Path
    name: str
    status: str
    started: float | None
    last_step: int | None
    kind: str = "in_process"
    error: str = ""
    damaged: str = ""
    """Why this run folder is incomplete or partly unreadable (empty when it is whole)."""


@dataclass
class RunRecord:
    """A run read back from disk: config, lifecycle events, metrics and log text."""

    summary: RunSummary
    config: dict[str, Any]
    events: list[Event]
    metrics: MetricStore

    @property
    def failure(self) -> RunFailed | None:
        for event in reversed(self.events):
            if isinstance(event, RunFailed):
                return event
        return None


def process_start_time(pid: int) -> float | None:
    """When process ``pid`` started (``None`` if it is gone); tells a live writer from a reused pid."""
    import psutil

    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.Error, ValueError):
        return None


def _writer_alive(state: Mapping[str, Any]) -> bool:
    """The process that writes this run still runs (same pid *and* same start time, so not a reuse)."""
    try:
        pid = int(state.get("pid") or 0)
    except (TypeError, ValueError):
        return False
    if pid <= 0:
        return False
    started = process_start_time(pid)
    if started is None:
        return False
    recorded = state.get("pid_started")
    return not isinstance(recorded, int | float) or abs(started - float(recorded)) < 1.0


def _newness(run_dir: Path) -> tuple[str, int, str]:
    """Sort key, newest last: the id's second-resolution stamp, then when ``run.yaml`` was written (runs
    created in the same second, e.g. a resume right after a run, must not be ordered by their random
    suffix), then the id."""
    try:
        written = (run_dir / "run.yaml").stat().st_mtime_ns
    except OSError:
        written = 0
    return run_dir.name[:15], written, run_dir.name


class RunStore:
    """The ``runs/`` folder of one workspace."""

    def __init__(self, workspace: str | os.PathLike[str] | None = None) -> None:
        self.workspace = resolve_workspace(workspace)
        self.runs_dir = self.workspace / "runs"

    # -- creating ---------------------------------------------------------------------------------

    def new_run_id(self, name: str) -> str:
        import secrets  # hashlib and OpenSSL: not for the run list

        stamp = time.strftime("%Y%m%d-%H%M%S")
        return f"{stamp}-{slug(name)}-{secrets.token_hex(2)}"

    def create(
        self,
        name: str,
        config: Mapping[str, Any] | None = None,
        *,
        fingerprint: Mapping[str, Any] | None = None,
        kind: str = "in_process",
        run_id: str | None = None,
        exist_ok: bool = False,
    ) -> RunHandle:
        """Make a new run folder with ``run.yaml`` and an open event writer.

        ``exist_ok``: the folder may exist already (the ranks of a launcher job share one folder and any
        of them may make it first; see :mod:`workbench.runner.launcher`).
        """
        run_id = run_id or self.new_run_id(name)
        run_dir = self.runs_dir / run_id
        make_private_dir(run_dir, exist_ok=exist_ok)
        doc = {"run_id": run_id, "name": name, "kind": kind, "config": dict(config or {})}
        if fingerprint:
            doc["environment"] = dict(fingerprint)
        import yaml

        atomic_write_text(run_dir / "run.yaml", yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
        handle = RunHandle(run_dir=run_dir, run_id=run_id, writer=EventWriter(run_dir / "events.jsonl"))
        handle.state.update(
            run_id=run_id,
            name=name,
            kind=kind,
            pid=os.getpid(),
            pid_started=process_start_time(os.getpid()),
            status=STATUS_RUNNING,
        )
        handle.save_state()
        return handle

    # -- listing and reading --------------------------------------------------------------------

    def run_dirs(self) -> list[Path]:
        """Every run folder, newest first; one that lost its ``run.yaml`` is still a run (damaged)."""
        if not self.runs_dir.is_dir():
            return []
        return sorted((p for p in self.runs_dir.iterdir() if is_run_dir(p)), key=_newness, reverse=True)

    def candidates(self, ref: str) -> list[Path]:
        """Runs ``ref`` may mean: a run folder, ``latest``, an exact id, or every id it is a prefix of."""
        if not ref:
            return []
        candidate = Path(ref)
        if is_run_dir(candidate):
            return [candidate]
        dirs = self.run_dirs()
        if ref == "latest":
            return dirs[:1]
        exact = [d for d in dirs if d.name == ref]
        return exact or [d for d in dirs if d.name.startswith(ref)]

    def resolve(self, ref: str) -> Path | None:
        """A run by path, id, unique id prefix, or ``latest`` (``None`` when none or several match)."""
        found = self.candidates(ref)
        return found[0] if len(found) == 1 else None

    def miss_message(self, ref: str) -> str:
        """Why :meth:`resolve` found nothing: no run matches ``ref``, or several do (named)."""
        found = self.candidates(ref)
        if len(found) > 1:
            shown = ", ".join(d.name for d in found[:10]) + (", …" if len(found) > 10 else "")
            return t("runs.ambiguous", ref=ref, count=len(found), runs=shown)
        return t("runs.not_found", ref=ref, workspace=str(self.workspace))

    def list(self) -> list[RunSummary]:
        return [summarize(d) for d in self.run_dirs()]

    def read(self, ref: str | Path) -> RunRecord:
        run_dir = self.resolve(str(ref))
        if run_dir is None:
            raise FileNotFoundError(str(ref))
        return read_run(run_dir)


RUN_MARKERS = ("run.yaml", "state.json", "events.jsonl", "checkpoints")
MAX_STATE_BYTES = 1024 * 1024
"""``state.json`` is a few hundred bytes; a bigger one is not ours (read as damaged, not parsed)."""
MAX_RUN_YAML_BYTES = 16 * 1024 * 1024
"""``run.yaml`` holds a config (bounded at 2 MB when loaded) and a fingerprint; bigger is not read."""


def is_run_dir(path: Path) -> bool:
    """A folder with any of a run's files: ``run.yaml`` may be lost while checkpoints survive."""
    return path.is_dir() and any((path / marker).exists() for marker in RUN_MARKERS)


def read_state(run_dir: Path) -> tuple[RunState, list[str]]:
    """``state.json`` validated leniently: the fields that check out, and a reason per field that did not.

    One bad field (``"started": "yesterday"``, ``1e308``) must not hide the rest of the run, and one bad
    folder must never break a listing: nothing here raises.
    """
    from pydantic import ValidationError

    from workbench.config.problems import problem_text
    from workbench.run_state import RunState

    path = run_dir / "state.json"
    try:
        if path.stat().st_size > MAX_STATE_BYTES:
            return RunState(), [t("runs.damage.state_too_big", limit=f"{MAX_STATE_BYTES // 1024} KB")]
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:  # a run being created (run.yaml is written first), or one killed then
        return RunState(), []
    except (OSError, ValueError) as exc:
        return RunState(), [t("runs.damage.state_unreadable", error=type(exc).__name__)]
    if not isinstance(data, dict):
        return RunState(), [t("runs.damage.state_unreadable", error="not a JSON object")]
    problems: list[str] = []
    for _ in range(len(RunState.model_fields) + 1):
        try:
            return RunState.model_validate(data), problems
        except ValidationError as exc:
            bad = {str(err["loc"][0]) for err in exc.errors(include_url=False) if err["loc"]}
            if not bad:
                break
            for err in exc.errors(include_url=False):
                if err["loc"] and str(err["loc"][0]) in data:
                    field_name = str(err["loc"][0])
                    got = repr(data[field_name])[:40]
                    problems.append(
                        t("runs.damage.state_field", field=field_name, problem=problem_text(err), got=got)
                    )
            data = {k: v for k, v in data.items() if k not in bad}
    return RunState(), [*problems, t("runs.damage.state_unreadable", error="ValidationError")]


def summarize(run_dir: Path) -> RunSummary:
    """Summary from ``state.json`` (cheap); a run whose writer died is reported ``interrupted``.

    Never raises: a folder with a lost ``run.yaml`` or bad ``state.json`` fields is listed with
    ``damaged`` saying why.
    """
    state, problems = read_state(run_dir)
    if not (run_dir / "run.yaml").exists():
        problems.insert(0, t("runs.damage.no_run_yaml"))
    status = state.status or STATUS_INTERRUPTED
    last_step = state.last_step
    if state.kind == "linked":  # a kit's log: its own text says how far it got and how it ended
        from workbench.attach.link import scan

        with contextlib.suppress(OSError, KeyError, ValueError):
            report = scan(run_dir, tail_only=True)
            status, last_step = report.status, report.last_step if report.last_step is not None else last_step
    elif status == STATUS_RUNNING and not _writer_alive(state.model_dump()):
        status = STATUS_INTERRUPTED
    return RunSummary(
        run_id=run_dir.name,
        run_dir=run_dir,
        name=state.name or run_dir.name,
        status=status,
        started=state.started,
        last_step=last_step if last_step is not None and last_step >= 0 else None,
        kind=state.kind or "in_process",
        error=state.error or "",
        damaged="; ".join(problems),
    )


def read_run_doc(run_dir: Path) -> dict[str, Any]:
    """``run.yaml`` as a mapping (empty when missing, unreadable or over :data:`MAX_RUN_YAML_BYTES`)."""
    import yaml

    path = run_dir / "run.yaml"
    try:
        if not path.is_file() or path.stat().st_size > MAX_RUN_YAML_BYTES:
            return {}
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, yaml.YAMLError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def run_name(run_dir: Path) -> str | None:
    """The run's name, from ``state.json`` (cheap); ``run.yaml`` is read only when the state lacks it."""
    name = read_state(run_dir)[0].name
    if name is None:
        found = read_run_doc(run_dir).get("name")
        name = found if isinstance(found, str) else None
    return name


def read_run_config(run_dir: Path) -> dict[str, Any]:
    """The ``config`` section of ``run.yaml`` (empty when unreadable)."""
    config = read_run_doc(run_dir).get("config", {})
    return config if isinstance(config, dict) else {}


def add_run_config(run_dir: Path, extra: Mapping[str, Any]) -> list[str]:
    """Add ``extra``'s keys that ``run.yaml``'s config lacks (a script joining a run the workbench made,
    see ``track.init``); the run's own values win. Returns the keys whose values differ, kept as they
    were. Raises ``OSError`` or ``yaml.YAMLError`` (a value YAML cannot hold) and writes nothing then.

    Only the run's creator writes ``run.yaml`` otherwise, and only when it makes the run, so one writer
    (a launched job's rank 0) may add to it later without a lock."""
    doc = read_run_doc(run_dir)
    config = doc.get("config")
    own: dict[str, Any] = dict(config) if isinstance(config, dict) else {}
    clashes = sorted(str(k) for k, v in extra.items() if k in own and own[k] != v)
    added = {k: v for k, v in extra.items() if k not in own}
    if added and doc:
        import yaml

        doc["config"] = {**own, **added}
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
        atomic_write_text(run_dir / "run.yaml", text)
    return clashes


def read_run_doc_environment(run_dir: Path) -> dict[str, Any]:
    """The ``environment`` section of ``run.yaml`` (``config_file``, ``resumed_from``…; empty if unreadable)."""
    env = read_run_doc(run_dir).get("environment", {})
    return env if isinstance(env, dict) else {}


def tail_last_step(run_dir: Path, tail_bytes: int = 16_384) -> int | None:
    """The newest step in the last ``tail_bytes`` of ``events.jsonl``: a live run's progress, cheaply.

    ``state.json`` changes only on lifecycle events, so for a run another process is writing it lags
    behind the metric rows; one small read of the file's end does not. ``system`` rows (taken once a
    second, stamped with the step the run had reached) count only when nothing else is in the tail.
    """
    try:
        with open(run_dir / "events.jsonl", "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - tail_bytes))
            lines = fh.read().split(b"\n")
    except OSError:
        return None
    system: int | None = None
    for raw in reversed(lines[1:] if size > tail_bytes else lines):
        try:
            row = json.loads(raw)
        except ValueError:
            continue
        step = row.get("step") if isinstance(row, dict) else None
        if isinstance(step, int) and not isinstance(step, bool):
            if row.get("type") != "system":
                return step
            system = max(step, system if system is not None else step)
    return system


def read_run(run_dir: Path) -> RunRecord:
    """Read a whole run (any status) back from disk."""
    tailer = EventTailer(run_dir)
    events = [event for event, _ in tailer.poll()]
    summary = summarize(run_dir)
    steps = tailer.metrics.last_step.values()
    if steps:
        summary.last_step = max(max(steps), summary.last_step or 0)
    return RunRecord(summary=summary, config=read_run_config(run_dir), events=events, metrics=tailer.metrics)


@dataclass
class RunBrief:
    """What a run list shows for one run, read cheaply: the summary, latest values, how it ended."""

    summary: RunSummary
    latest: dict[str, float]
    failure: RunFailed | None
    finished: RunFinished | None = None
    ended: float | None = None  # time of the terminal event, when it is in the tail
    pid: int | None = None  # the process that wrote the run (``state.json``)
    environment: dict[str, Any] = field(default_factory=dict)  # ``run.yaml``'s environment block


def with_live_step(summary: RunSummary) -> RunSummary:
    """``summary`` with a running run's last step read from the end of its events (never lags).

    The run list and the run's detail pane both show it, so they agree on a live run's progress."""
    if summary.status == "running":
        step = tail_last_step(summary.run_dir)
        if step is not None and (summary.last_step is None or step > summary.last_step):
            summary.last_step = step
    return summary


def read_run_brief(run_dir: Path, tail_bytes: int = 256_000) -> RunBrief:
    """Like :func:`read_run`, but reads only the end of ``events.jsonl`` (cost flat in run length)."""
    summary = with_live_step(summarize(run_dir))
    path = run_dir / "events.jsonl"
    data = b""
    with contextlib.suppress(OSError), open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - tail_bytes))
        data = fh.read()
        if size > tail_bytes:
            data = data.split(b"\n", 1)[-1]  # drop the partial first line
    tailer = EventTailer(run_dir)
    events: list[tuple[Event, int | None]] = []
    for raw in data.split(b"\n"):
        tailer._consume(raw, None, events)
    failure = next((e for e, _ in reversed(events) if isinstance(e, RunFailed)), None)
    finished = next((e for e, _ in reversed(events) if isinstance(e, RunFinished)), None)
    state, _ = read_state(run_dir)
    ended = state.ended or next((e.time for e, _ in reversed(events) if e.TYPE in TERMINAL_TYPES), None)
    pid = state.pid
    return RunBrief(
        summary=summary,
        latest=tailer.metrics.latest(),
        failure=failure,
        finished=finished,
        ended=ended,
        pid=pid if isinstance(pid, int) else None,
        environment=read_run_doc_environment(run_dir),
    )


def read_log_tail(run_dir: Path, max_bytes: int = 64_000) -> str:
    """The last ``max_bytes`` of ``logs.txt`` (empty when there is none)."""
    path = run_dir / "logs.txt"
    with contextlib.suppress(OSError), open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - max_bytes))
        return fh.read().decode("utf-8", errors="replace")
    return ""
