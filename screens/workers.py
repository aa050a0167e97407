"""One way back from workers: every thread worker ends by posting ONE typed, past-tense message.

The pattern (the same in every screen and in the app)::

    @work(thread=True, exclusive=True, exit_on_error=False, group="runs-list",
          description="worker.runs_list")          # a catalog key: the error title, translated late
    def _list_runs(self, request: int) -> None:
        self.post_message(RunsListed(self.wb.store.list(), request=request))   # pure engine call

    @on(RunsListed)
    def _runs_listed(self, message: RunsListed) -> None:
        if self.requests.is_current(message):      # the one stale-result guard
            ...

``post_message`` is thread-safe, so the worker never calls into the UI (no ``call_from_thread``).
A result is stale when a newer request of the same kind was made after it: :class:`Requests` numbers
the requests, the message carries its number back, and :meth:`Requests.is_current` is the only check.
A worker that raises reaches the app's one error handler, whose title is :func:`worker_title` — the
worker's translated description, never a method name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.worker import Worker

from workbench.i18n import catalog, t

if TYPE_CHECKING:
    from collections.abc import Mapping

    from workbench.compare_runs import RunEntry
    from workbench.envcheck import Finding, ProbeResult, SystemSnapshot
    from workbench.metric_store import MetricStore
    from workbench.runner import Job
    from workbench.runs import RunSummary


def worker_title(worker: Worker[Any]) -> str:
    """What failed, in the user's language: the worker's description (a catalog key) translated."""
    description = worker.description or ""
    if description in catalog():
        return t(description)
    return t("worker.unnamed")


class Requests:
    """Numbers requests per kind so that only the newest request's answer is shown.

    ``new(kind)`` before starting a worker; the worker puts the number in its message; the handler
    asks ``is_current(message)``. An older, slower answer (a run list read before a newer one, an
    overlay picked before another) is dropped — the same rule everywhere.
    """

    def __init__(self) -> None:
        self._latest: dict[str, int] = {}

    def new(self, kind: str) -> int:
        self._latest[kind] = self._latest.get(kind, 0) + 1
        return self._latest[kind]

    def latest(self, kind: str) -> int:
        return self._latest.get(kind, 0)

    def is_current(self, message: WorkerResult) -> bool:
        return self._latest.get(message.kind, 0) == message.request


@dataclass
class WorkerResult(Message, bubble=False):
    """The base of every worker's final message; ``request`` is :class:`Requests`' number."""

    request: int = field(default=0, kw_only=True)
    kind: str = field(default="", kw_only=True)


# -- runs ----------------------------------------------------------------------------------------


@dataclass
class RunsChanged(Message, bubble=False):
    """Something added or changed runs in the workspace (a demo seeded, a run started): re-list."""


@dataclass
class RunsListed(WorkerResult):
    runs: list[RunSummary] = field(default_factory=list)
    kind: str = field(default="runs-list", kw_only=True)


@dataclass
class PathRead(WorkerResult):
    """The path dashboard's steps (:func:`workbench.verify.path.path_steps`), read off the UI thread."""

    steps: list[Any] = field(default_factory=list)
    kind: str = field(default="path", kw_only=True)


@dataclass
class VerifyDone(WorkerResult):
    """``verify`` ran (and stored its report) from the home screen; ``ok`` is its verdict."""

    ok: bool = False
    summary: str = ""
    kind: str = field(default="verify", kw_only=True)


@dataclass
class RunDetailRead(WorkerResult):
    run_id: str = ""
    text: str = ""
    kind: str = field(default="run-detail", kw_only=True)


@dataclass
class DatasetChecked(WorkerResult):
    """The dataset linter's report on a run's dataset, as panel text."""

    run_id: str = ""
    text: str = ""
    kind: str = field(default="run-detail", kw_only=True)


@dataclass
class RunAttached(WorkerResult):
    job: Job | None = None
    kind: str = field(default="attach", kw_only=True)


@dataclass
class OverlayLoaded(WorkerResult):
    """A run read from disk to overlay in the monitor; ``kind`` is ``overlay:<run id>`` (one request
    kind per run, so loading several at once drops none of them, and unticking one drops its answer)."""

    run_id: str = ""
    metrics: MetricStore | None = None
    config: Mapping[str, Any] | None = None
    job: Job | None = None
    """The attached run that keeps ``metrics`` growing while the overlaid run is still written."""
    kind: str = field(default="overlay", kw_only=True)


@dataclass
class RunDocRead(WorkerResult):
    """A followed run's ``run.yaml`` (config and environment, for the overview pane), read off the UI thread."""

    run_dir: Path | None = None
    doc: dict[str, Any] = field(default_factory=dict)
    kind: str = field(default="overview", kw_only=True)


@dataclass
class ConfigCopyWritten(WorkerResult):
    """The overview's "copy config" wrote ``<run>/config.copy.yaml`` (``path``), or could not (``error``)."""

    path: Path | None = None
    error: str = ""
    kind: str = field(default="config-copy", kw_only=True)


@dataclass
class CompareRunsListed(WorkerResult):
    """The runs sidebar's list: every run with its task and tags (:func:`workbench.compare_runs.list_entries`)."""

    entries: list[RunEntry] = field(default_factory=list)
    kind: str = field(default="compare-runs", kw_only=True)


# -- training and the app ------------------------------------------------------------------------


@dataclass
class TrainingStarted(WorkerResult):
    job: Job | None = None
    kind: str = field(default="train", kw_only=True)


@dataclass
class TrainingRefused(WorkerResult):
    title: str = ""
    details: str = ""
    kind: str = field(default="train", kw_only=True)


@dataclass
class PaddleLoaded(WorkerResult):
    state: str = "missing"
    version: str = ""
    kind: str = field(default="paddle", kw_only=True)


@dataclass
class DemoSeeded(WorkerResult):
    seeded: bool = False
    kind: str = field(default="demo", kw_only=True)


@dataclass
class JobsStopped(WorkerResult):
    """The runs were asked to stop and waited for (bounded); ``stopped`` describes each one."""

    stopped: list[Any] = field(default_factory=list)
    kind: str = field(default="quit", kw_only=True)


# -- environment ---------------------------------------------------------------------------------


@dataclass
class FindingArrived(WorkerResult):
    """One check finished (several per worker: streamed while the others still run)."""

    finding: Finding | None = None
    kind: str = field(default="envcheck", kw_only=True)


@dataclass
class ProbeFinished(WorkerResult):
    result: ProbeResult | None = None
    kind: str = field(default="envcheck", kw_only=True)


@dataclass
class ChecksFinished(WorkerResult):
    duration_s: float = 0.0
    kind: str = field(default="envcheck", kw_only=True)


@dataclass
class SystemSampled(WorkerResult):
    snapshot: SystemSnapshot | None = None
    kind: str = field(default="envcheck-system", kw_only=True)


@dataclass
class ReportExported(WorkerResult):
    path: Path | None = None
    note: str = ""
    partial: int = 0  # how many checks had not run when the report was taken
    kind: str = field(default="envcheck-export", kw_only=True)


# -- inference parity ----------------------------------------------------------------------------


@dataclass
class CheckpointsListed(WorkerResult):
    rows: list[tuple[str, int]] = field(default_factory=list)
    kind: str = field(default="compare-list", kw_only=True)


@dataclass
class CompareProgressed(WorkerResult):
    """A stage of a running comparison (several per worker)."""

    text: str = ""
    kind: str = field(default="compare-run", kw_only=True)


@dataclass
class CompareFinished(WorkerResult):
    doc: dict[str, Any] | None = None
    error: str = ""
    kind: str = field(default="compare-run", kw_only=True)


@dataclass
class LoadtestProgressed(WorkerResult):
    """A stage of serve + load test from the compare screen (several per worker)."""

    text: str = ""
    kind: str = field(default="compare-loadtest", kw_only=True)


@dataclass
class LoadtestFinished(WorkerResult):
    doc: dict[str, Any] | None = None
    histogram: list[tuple[float, float, int]] = field(default_factory=list)
    error: str = ""
    kind: str = field(default="compare-loadtest", kw_only=True)


@dataclass
class FlowProbed(WorkerResult):
    """A wizard probe ran (the walk moved on); ``evidence`` is what it saw."""

    evidence: list[str] = field(default_factory=list)
    kind: str = field(default="wizard-probe", kw_only=True)


@dataclass
class PasteDiagnosed(WorkerResult):
    """The wizard's pasted error was diagnosed (``doc`` is ``Diagnosis.to_dict()``), or could not be read."""

    doc: dict[str, Any] | None = None
    flow: str | None = None
    error: str = ""
    kind: str = field(default="wizard-diagnose", kw_only=True)


@dataclass
class WizardExported(WorkerResult):
    """The wizard's findings were written to a report file (or could not be: ``error``)."""

    path: str = ""
    error: str = ""
    kind: str = field(default="wizard-export", kw_only=True)
