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
from typing import TYPE_CHECKING, Any, ClassVar

from textual.message import Message
from textual.worker import Worker

from workbench.i18n import catalog, t

# Every message here is a dataclass with only its ``__init__`` generated (``repr=False, eq=False``):
# messages are compared by identity and shown by Textual's own repr, and a generated ``__eq__`` and
# ``__repr__`` per class cost ~0.1 ms each at import, before the app's first frame.

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
        return self._latest.get(message.request_kind, 0) == message.request


@dataclass(repr=False, eq=False)
class WorkerResult(Message, bubble=False):
    """The base of every worker's final message; ``request`` is :class:`Requests`' number.

    ``kind`` names the kind of request a subclass answers (a class variable: one kind per message
    class); :attr:`request_kind` is what :class:`Requests` compares, and a message whose requests are
    numbered per subject overrides it.
    """

    request: int = field(default=0, kw_only=True)
    kind: ClassVar[str] = ""

    @property
    def request_kind(self) -> str:
        """The :class:`Requests` kind this answer belongs to (``kind`` unless a subclass narrows it)."""
        return self.kind


# -- runs ----------------------------------------------------------------------------------------


@dataclass(repr=False, eq=False)
class RunsChanged(Message, bubble=False):
    """Something added or changed runs in the workspace (a demo seeded, a run started): re-list."""


@dataclass(repr=False, eq=False)
class RunsListed(WorkerResult):
    runs: list[RunSummary] = field(default_factory=list)
    kind: ClassVar[str] = "runs-list"


@dataclass(repr=False, eq=False)
class PathRead(WorkerResult):
    """The path dashboard's steps (:func:`workbench.verify.path.path_steps`), read off the UI thread."""

    steps: list[Any] = field(default_factory=list)
    kind: ClassVar[str] = "path"


@dataclass(repr=False, eq=False)
class VerifyDone(WorkerResult):
    """``verify`` ran (and stored its report) from the home screen; ``ok`` is its verdict."""

    ok: bool = False
    summary: str = ""
    details: str = ""
    """The failed items with their evidence and fix command (:func:`workbench.verify.path.checklist_text`)."""
    kind: ClassVar[str] = "verify"


@dataclass(repr=False, eq=False)
class RunDetailRead(WorkerResult):
    run_id: str = ""
    text: str = ""
    kind: ClassVar[str] = "run-detail"


@dataclass(repr=False, eq=False)
class DatasetChecked(WorkerResult):
    """The dataset linter's report on a run's dataset, as panel text."""

    run_id: str = ""
    text: str = ""
    kind: ClassVar[str] = "run-detail"


@dataclass(repr=False, eq=False)
class RunAttached(WorkerResult):
    job: Job | None = None
    kind: ClassVar[str] = "attach"


@dataclass(repr=False, eq=False)
class OverlayLoaded(WorkerResult):
    """A run read from disk to overlay in the monitor; its request kind is ``overlay:<run id>`` (one
    request kind per run, so loading several at once drops none of them, and unticking one drops its
    answer)."""

    run_id: str = ""
    metrics: MetricStore | None = None
    config: Mapping[str, Any] | None = None
    job: Job | None = None
    """The attached run that keeps ``metrics`` growing while the overlaid run is still written."""
    kind: ClassVar[str] = "overlay"

    @property
    def request_kind(self) -> str:
        return f"{self.kind}:{self.run_id}"


@dataclass(repr=False, eq=False)
class RunDocRead(WorkerResult):
    """A followed run's ``run.yaml`` (config and environment, for the overview pane), read off the UI thread."""

    run_dir: Path | None = None
    doc: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "overview"


@dataclass(repr=False, eq=False)
class ConfigCopyWritten(WorkerResult):
    """The overview's "copy config" wrote ``<run>/config.copy.yaml`` (``path``), or could not (``error``)."""

    path: Path | None = None
    error: str = ""
    kind: ClassVar[str] = "config-copy"


@dataclass(repr=False, eq=False)
class LogTailRead(WorkerResult):
    """What the followed run's log gained since the last read (whole lines), read off the UI thread."""

    text: str = ""
    kind: ClassVar[str] = "monitor-log"


@dataclass(repr=False, eq=False)
class CompareRunsListed(WorkerResult):
    """The runs sidebar's list: every run with its task and tags (:func:`workbench.compare_runs.list_entries`)."""

    entries: list[RunEntry] = field(default_factory=list)
    kind: ClassVar[str] = "compare-runs"


# -- training and the app ------------------------------------------------------------------------


@dataclass(repr=False, eq=False)
class TrainingStarted(WorkerResult):
    job: Job | None = None
    kind: ClassVar[str] = "train"


@dataclass(repr=False, eq=False)
class TrainingRefused(WorkerResult):
    title: str = ""
    details: str = ""
    kind: ClassVar[str] = "train"


@dataclass(repr=False, eq=False)
class PaddleLoaded(WorkerResult):
    state: str = "missing"
    version: str = ""
    kind: ClassVar[str] = "paddle"


@dataclass(repr=False, eq=False)
class DemoSeeded(WorkerResult):
    seeded: bool = False
    kind: ClassVar[str] = "demo"


@dataclass(repr=False, eq=False)
class JobsStopped(WorkerResult):
    """The runs were asked to stop and waited for (bounded); ``stopped`` describes each one."""

    stopped: list[Any] = field(default_factory=list)
    kind: ClassVar[str] = "quit"


# -- environment ---------------------------------------------------------------------------------


@dataclass(repr=False, eq=False)
class FindingArrived(WorkerResult):
    """One check finished (several per worker: streamed while the others still run)."""

    finding: Finding | None = None
    kind: ClassVar[str] = "envcheck"


@dataclass(repr=False, eq=False)
class ProbeFinished(WorkerResult):
    result: ProbeResult | None = None
    kind: ClassVar[str] = "envcheck"


@dataclass(repr=False, eq=False)
class ChecksFinished(WorkerResult):
    duration_s: float = 0.0
    kind: ClassVar[str] = "envcheck"


@dataclass(repr=False, eq=False)
class SystemSampled(WorkerResult):
    snapshot: SystemSnapshot | None = None
    kind: ClassVar[str] = "envcheck-system"


@dataclass(repr=False, eq=False)
class ReportExported(WorkerResult):
    path: Path | None = None
    note: str = ""
    partial: int = 0  # how many checks had not run when the report was taken
    kind: ClassVar[str] = "envcheck-export"


# -- inference parity ----------------------------------------------------------------------------


@dataclass(repr=False, eq=False)
class CheckpointsListed(WorkerResult):
    rows: list[tuple[str, int]] = field(default_factory=list)
    kind: ClassVar[str] = "compare-list"


@dataclass(repr=False, eq=False)
class CompareProgressed(WorkerResult):
    """A stage of a running comparison (several per worker)."""

    text: str = ""
    kind: ClassVar[str] = "compare-run"


@dataclass(repr=False, eq=False)
class CompareFinished(WorkerResult):
    doc: dict[str, Any] | None = None
    error: str = ""
    kind: ClassVar[str] = "compare-run"


@dataclass(repr=False, eq=False)
class LoadtestProgressed(WorkerResult):
    """A stage of serve + load test from the compare screen (several per worker)."""

    text: str = ""
    kind: ClassVar[str] = "compare-loadtest"


@dataclass(repr=False, eq=False)
class LoadtestFinished(WorkerResult):
    doc: dict[str, Any] | None = None
    histogram: list[tuple[float, float, int]] = field(default_factory=list)
    error: str = ""
    kind: ClassVar[str] = "compare-loadtest"


@dataclass(repr=False, eq=False)
class FlowProbed(WorkerResult):
    """A wizard probe ran (the walk moved on); ``evidence`` is what it saw."""

    evidence: list[str] = field(default_factory=list)
    kind: ClassVar[str] = "wizard-probe"


@dataclass(repr=False, eq=False)
class PasteDiagnosed(WorkerResult):
    """The wizard's pasted error was diagnosed (``doc`` is ``Diagnosis.to_dict()``), or could not be read."""

    doc: dict[str, Any] | None = None
    flow: str | None = None
    error: str = ""
    kind: ClassVar[str] = "wizard-diagnose"


@dataclass(repr=False, eq=False)
class WizardExported(WorkerResult):
    """The wizard's findings were written to a report file (or could not be: ``error``)."""

    path: str = ""
    error: str = ""
    kind: ClassVar[str] = "wizard-export"
