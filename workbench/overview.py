"""A run's overview: its resolved config, environment, summary and alerts, in one value.

The monitor's overview pane (``v``) shows it, and the ``report`` bundle's JSON carries it; both get it
from this module, so the TUI and the command line say the same thing. Everything comes from what the
run already recorded — nothing is probed again:

* ``run.yaml``: the resolved config and the ``environment`` block (:mod:`workbench.training.fingerprint`:
  Paddle version, commit and build, device, seeds; ``dataset`` from
  :mod:`workbench.datasets.fingerprint`; ``code`` from :mod:`workbench.gitversion`; a linked kit log's
  ``source`` and ``format``);
* the lifecycle events: start and end times, alerts, the failure;
* the metric history: the latest values and the best value of each ``eval/*`` metric.

:func:`build_overview` is pure (every input passed in); :func:`overview_of_job` feeds it a live or
attached job, :func:`read_overview` a run folder on disk. :func:`config_yaml` is the "copy config"
text: the config as it ran, with a relative ``data.dir`` made absolute so the copy works from anywhere.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from workbench.events import TERMINAL_TYPES, AlertRaised, Event, RunFailed, RunStarted
from workbench.i18n import t
from workbench.runner.system_sampler import is_system_metric
from workbench.runs import atomic_write_text

if TYPE_CHECKING:
    from workbench.metric_store import MetricStore
    from workbench.runner import Job
    from workbench.runs import RunRecord

CONFIG_COPY_NAME = "config.copy.yaml"
"""Where "copy config" writes the config inside the run folder (the path to use when the terminal
ignores the clipboard escape)."""

LOWER_IS_BETTER = re.compile(r"(loss|err|error|cer|wer|mae|mse|rmse|ppl|perplexity|nll)$", re.IGNORECASE)
"""Eval metrics whose best value is the smallest (by the last word of the name); the rest: largest."""


@dataclass(frozen=True)
class BestValue:
    """The best value an eval metric reached, and when."""

    name: str
    value: float
    step: int
    lower_is_better: bool


@dataclass(frozen=True)
class AlertLine:
    """One alert the run raised (``nonfinite``, ``hang``…)."""

    kind: str
    message: str
    step: int | None
    rank: int
    time: float


@dataclass(frozen=True)
class CodeVersion:
    """The user's code: the git checkout the run started in (see :mod:`workbench.gitversion`)."""

    commit: str
    branch: str | None
    dirty: bool | None
    changed: int | None
    root: str


@dataclass(frozen=True)
class DatasetInfo:
    """Which data the run saw (see :mod:`workbench.datasets.fingerprint`)."""

    sha256: str | None
    files: int | None
    samples: dict[str, int]
    directory: str | None
    error: str | None = None


@dataclass(frozen=True)
class EnvironmentSection:
    paddle_version: str | None
    paddle_commit: str | None
    build: str | None
    """``CPU`` or ``CUDA <version>, cuDNN <version>`` as the build reports itself."""
    device: str | None
    seeds: dict[str, int]
    dataset: DatasetInfo | None
    code: CodeVersion | None
    python: str | None
    platform: str | None
    workbench: str | None
    config_file: str | None
    overrides: list[str]
    resumed_from: str | None
    source: str | None
    """A linked kit log's file (``attach``)."""
    source_format: str | None


@dataclass(frozen=True)
class SummarySection:
    status: str
    last_step: int | None
    total_steps: int | None
    started: float | None
    ended: float | None
    duration_s: float | None
    """End (or now, while running) minus start."""
    latest: dict[str, float]
    best_eval: list[BestValue]
    error: str | None
    """The failure's one-line error, when the run failed."""


@dataclass(frozen=True)
class RunOverview:
    run_id: str
    name: str
    kind: str
    run_dir: str | None
    config: dict[str, Any]
    environment: EnvironmentSection
    summary: SummarySection
    alerts: list[AlertLine] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (non-finite metric values as ``"nan"`` / ``"inf"`` strings)."""
        doc = asdict(self)
        doc["summary"]["latest"] = {k: _json_float(v) for k, v in self.summary.latest.items()}
        for best in doc["summary"]["best_eval"]:
            best["value"] = _json_float(best["value"])
        return doc


def _json_float(value: float) -> float | str:
    return value if math.isfinite(value) else str(value)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _build(paddle: Mapping[str, Any]) -> str | None:
    compiled = paddle.get("compiled_with_cuda")
    if compiled is False:
        return "CPU"
    if compiled is True:
        cuda, cudnn = _text(paddle.get("cuda")), _text(paddle.get("cudnn"))
        parts = [f"CUDA {cuda}" if cuda and cuda != "False" else "CUDA"]
        if cudnn and cudnn != "False":
            parts.append(f"cuDNN {cudnn}")
        return ", ".join(parts)
    return None


def environment_section(env: Mapping[str, Any]) -> EnvironmentSection:
    """The ``environment`` block of ``run.yaml`` read leniently: a missing or odd field is ``None``."""
    paddle = _mapping(env.get("paddle"))
    seeds = {str(k): v for k, v in _mapping(env.get("seeds")).items() if _int(v) is not None}
    data = env.get("dataset")
    dataset = None
    if isinstance(data, Mapping):
        samples = {str(k): v for k, v in _mapping(data.get("samples")).items() if _int(v) is not None}
        dataset = DatasetInfo(
            sha256=_text(data.get("sha256")),
            files=_int(data.get("files")),
            samples=samples,
            directory=_text(env.get("data_dir")),
            error=_text(data.get("error")),
        )
    code_doc = env.get("code")
    code = None
    if isinstance(code_doc, Mapping) and _text(code_doc.get("commit")):
        dirty = code_doc.get("dirty")
        code = CodeVersion(
            commit=str(code_doc["commit"]),
            branch=_text(code_doc.get("branch")),
            dirty=dirty if isinstance(dirty, bool) else None,
            changed=_int(code_doc.get("changed")),
            root=str(code_doc.get("root") or ""),
        )
    resumed = _mapping(env.get("resumed_from"))
    overrides = env.get("overrides")
    return EnvironmentSection(
        paddle_version=_text(paddle.get("version")),
        paddle_commit=_text(paddle.get("commit")),
        build=_build(paddle),
        device=_text(env.get("device")),
        seeds=seeds,
        dataset=dataset,
        code=code,
        python=_text(env.get("python")),
        platform=_text(env.get("platform")),
        workbench=_text(env.get("workbench")),
        config_file=_text(env.get("config_file")),
        overrides=[str(o) for o in overrides] if isinstance(overrides, list) else [],
        resumed_from=_text(resumed.get("run_dir")),
        source=_text(env.get("source")),
        source_format=_text(env.get("format")),
    )


def best_eval(metrics: MetricStore | None) -> list[BestValue]:
    """The best finite value of every ``eval/*`` metric (rank 0): smallest for losses and error rates
    (:data:`LOWER_IS_BETTER`), largest otherwise; the first step that reached it."""
    if metrics is None:
        return []
    import numpy as np

    found = []
    for name in sorted(n for n in metrics.names() if n.startswith("eval/")):
        series = metrics.series(name)
        if series is None or not len(series):
            continue
        steps, values = series.arrays()
        finite = np.isfinite(values)
        if not finite.any():
            continue
        lower = bool(LOWER_IS_BETTER.search(name.rsplit("/", 1)[-1]))
        masked = np.where(finite, values, np.inf if lower else -np.inf)
        index = int(np.argmin(masked) if lower else np.argmax(masked))
        found.append(BestValue(name, float(values[index]), int(steps[index]), lower))
    return found


def build_overview(
    *,
    run_id: str,
    name: str,
    kind: str,
    run_dir: Path | None,
    doc: Mapping[str, Any],
    status: str,
    events: Sequence[Event],
    metrics: MetricStore | None,
    last_step: int | None = None,
    started: float | None = None,
    ended: float | None = None,
    config: Mapping[str, Any] | None = None,
    now: float | None = None,
) -> RunOverview:
    """The overview from what a run recorded: ``doc`` is its ``run.yaml`` (may be empty), ``events`` its
    lifecycle, ``metrics`` its history. ``started``/``ended`` default to the events' times (none for a
    linked kit log: the kit's log carries no start time the workbench reads); ``config`` to
    ``doc["config"]``; ``now`` (for a running run's duration) to the clock."""
    config = dict(config if config is not None else _mapping(doc.get("config")))
    for event in events:
        if started is None and isinstance(event, RunStarted):
            started = event.time
        if event.TYPE in TERMINAL_TYPES:
            ended = event.time
    if kind == "linked":  # a kit's log: these are when the workbench linked and read it, not training times
        started = ended = None
    done = ended is not None and status != "running"
    duration = None
    if started is not None:
        end = ended if done else (now if now is not None else time.time())
        duration = max(0.0, end - started) if end is not None else None
    failure = next((e for e in reversed(events) if isinstance(e, RunFailed)), None)
    train = _mapping(config.get("train"))
    # The machine's samples (sys/*) have the system pane; the summary keeps the run's own metrics.
    latest = {
        k: v for k, v in (metrics.latest() if metrics is not None else {}).items() if not is_system_metric(k)
    }
    if last_step is None and metrics is not None:
        last_step = metrics.last_step.get(0)
    steps = _int(train.get("steps"))
    return RunOverview(
        run_id=run_id,
        name=name,
        kind=kind,
        run_dir=str(run_dir) if run_dir is not None else None,
        config=config,
        environment=environment_section(_mapping(doc.get("environment"))),
        summary=SummarySection(
            status=status,
            last_step=last_step,
            total_steps=steps if steps and steps > 0 else None,
            started=started,
            ended=ended if done else None,
            duration_s=duration,
            latest=dict(latest),
            best_eval=best_eval(metrics),
            error=failure.error.splitlines()[0] if failure is not None and failure.error else None,
        ),
        alerts=[
            AlertLine(e.kind, e.message, e.step, e.rank, e.time) for e in events if isinstance(e, AlertRaised)
        ],
    )


def overview_of_job(job: Job, doc: Mapping[str, Any], now: float | None = None) -> RunOverview:
    """The overview of a job the UI follows (live, attached or linked); ``doc`` is its ``run.yaml``."""
    return build_overview(
        run_id=job.run_id,
        name=str(doc.get("name") or job.name),
        kind=str(doc.get("kind") or job.kind),
        run_dir=job.run_dir,
        doc=doc,
        status=job.status,
        events=list(job.lifecycle),
        metrics=job.metrics,
        config=job.config or None,
        now=now,
    )


def read_overview(run_dir: Path, now: float | None = None) -> RunOverview:
    """The overview of a run folder on disk (reads the whole event history once)."""
    from workbench.runs import read_run

    return overview_of_record(run_dir, read_run(run_dir), now=now)


def overview_of_record(run_dir: Path, record: RunRecord, now: float | None = None) -> RunOverview:
    """The overview of a run already read with :func:`workbench.runs.read_run` (``report`` has one)."""
    from workbench.runs import read_run_doc, read_state

    state, _ = read_state(run_dir)
    summary = record.summary
    return build_overview(
        run_id=summary.run_id,
        name=summary.name,
        kind=summary.kind,
        run_dir=run_dir,
        doc=read_run_doc(run_dir),
        status=summary.status,
        events=record.events,
        metrics=record.metrics,
        last_step=summary.last_step,
        started=state.started,
        ended=state.ended,
        config=record.config,
        now=now,
    )


def copyable_config(overview: RunOverview) -> dict[str, Any]:
    """The config as it ran, with a relative ``data.dir`` replaced by the absolute folder the run read
    (``environment.data_dir``): relative paths meant the original config file's folder."""
    config = dict(overview.config)
    data = config.get("data")
    dataset = overview.environment.dataset
    absolute = dataset.directory if dataset is not None else None
    if isinstance(data, Mapping) and absolute and Path(absolute).is_absolute():
        current = data.get("dir")
        if isinstance(current, str) and not Path(current).is_absolute():
            config["data"] = {**data, "dir": absolute}
    return config


def config_yaml(overview: RunOverview) -> str:
    """The "copy config" text: a header naming the run (and its file and ``-o`` overrides), then YAML."""
    env = overview.environment
    lines = [f"# {t('overview.copy.header', run=overview.run_id)}"]
    if env.config_file:
        overrides = "".join(f" -o {o}" for o in env.overrides)
        lines.append(f"# {t('overview.copy.from', file=env.config_file, overrides=overrides)}")
    body = yaml.safe_dump(copyable_config(overview), sort_keys=False, allow_unicode=True)
    return "\n".join(lines) + "\n" + body


def write_config_copy(run_dir: Path, text: str) -> Path:
    """Write ``text`` to ``<run_dir>/config.copy.yaml`` (owner-only, atomic); return its absolute path
    (what the user pastes into another shell); ``OSError`` on failure."""
    path = run_dir / CONFIG_COPY_NAME
    atomic_write_text(path, text)
    return path.absolute()
