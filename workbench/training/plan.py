"""From a config file to a :class:`TrainingPlan`: everything checked before Paddle is imported.

:func:`prepare_training` validates the config (``-o`` overrides included), resolves the data folder
against the config file, generates the demo dataset when the config asks for it and the folder is
missing, reads the dataset lists (every malformed line reported as ``file:line``), parses injected
faults and finds the checkpoint to resume from. Bad input raises :class:`ConfigError`,
:class:`DatasetError` or :class:`PrepareError` — the CLI turns each into exit code 2 — and nothing has
touched Paddle yet, so these checks take milliseconds (plus a few seconds once, when the demo
dataset is generated: call it from a worker thread in a UI).

**Resuming** creates a *new* run linked to the old one (``environment.resumed_from`` in ``run.yaml``):
the old run folder is never written to again, its ``events.jsonl`` stays exactly what happened, and the
new run's events start at the checkpoint's step + 1. ``--resume`` accepts:

* ``latest`` — the newest verified checkpoint among this config's runs (same run name) in the workspace;
* a run id, id prefix or run folder — that run's newest verified checkpoint (then its ancestors');
* a checkpoint folder (``.../checkpoints/step-<N>``) — exactly that checkpoint, if it verifies.
"""

from __future__ import annotations

import importlib.util
import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.config.loader import load_model
from workbench.config.training import TrainingConfig, task_spec
from workbench.i18n import t
from workbench.runs import STATUS_FINISHED, RunStore, read_run_doc, run_name, summarize
from workbench.training.checkpoints import MANIFEST, CheckpointStore, read_manifest, verify_checkpoint
from workbench.training.faults import Fault, faults_from
from workbench.training.tasks import demo_maker

# Config keys whose change makes a resumed run differ from an uninterrupted one.
_RESUME_SENSITIVE = (
    ("task",),
    ("model",),
    ("data", "format"),
    ("train", "batch_size"),
    ("train", "seed"),
    ("train", "optimizer"),
    ("train", "lr"),
    ("train", "lr_schedule"),
    ("train", "warmup_steps"),
    ("train", "weight_decay"),
    ("train", "grad_clip"),
)


class PrepareError(Exception):
    """Bad input that is not a config syntax problem (resume target, entry point, faults)."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass(frozen=True)
class ResumePoint:
    """The checkpoint a run continues from."""

    run_dir: Path
    checkpoint: Path
    step: int
    skipped: tuple[str, ...] = ()
    """Newer checkpoints that failed verification, each with why (already translated)."""


@dataclass
class TrainingPlan:
    """A validated training request, ready for :func:`workbench.training.start.start_training`."""

    cfg: TrainingConfig
    config_path: Path
    name: str
    data_dir: Path | None
    overrides: tuple[str, ...] = ()
    resume: ResumePoint | None = None
    faults: tuple[Fault, ...] = ()
    notices: list[str] = field(default_factory=list)
    """Things the user should read (data generated, resume differences), already translated."""

    @property
    def config_dir(self) -> Path:
        return self.config_path.parent


def _dig(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    current: Any = data
    for part in path:
        if not isinstance(current, Mapping):
            return None
        current = current.get(part)
    return current


def _read_run_doc(run_dir: Path) -> dict[str, Any]:
    return read_run_doc(run_dir)


def _from_checkpoint_dir(path: Path) -> ResumePoint:
    problems = verify_checkpoint(path)
    if problems:
        raise PrepareError([t("training.resume.corrupt", path=str(path)), *problems])
    return ResumePoint(run_dir=path.parent.parent, checkpoint=path, step=int(read_manifest(path)["step"]))


def _newest_in_run(run_dir: Path, skipped: list[str]) -> ResumePoint | None:
    """The newest checkpoint of ``run_dir`` that verifies; each newer one that does not goes to ``skipped``."""
    for info in reversed(CheckpointStore(run_dir / "checkpoints", keep=None).committed()):
        problems = verify_checkpoint(info.path)
        if problems:
            skipped.append(t("training.resume.skipped", path=str(info.path), problems="; ".join(problems)))
            continue
        return ResumePoint(run_dir, info.path, int(read_manifest(info.path)["step"]), tuple(skipped))
    return None


def _expand_user(ref: str) -> Path:
    """``~/x`` → the home folder; ``~nosuchuser/x`` stays as written (no ``RuntimeError``)."""
    try:
        return Path(ref).expanduser()
    except RuntimeError:
        return Path(ref)


def find_resume_point(ref: str, store: RunStore, run_name_: str) -> ResumePoint:
    """Resolve ``--resume`` (see the module docstring); raise :class:`PrepareError` when nothing fits."""
    if not ref.strip():
        raise PrepareError([t("training.resume.empty")])
    path = _expand_user(ref)
    if (path / MANIFEST).is_file():
        return _from_checkpoint_dir(path)
    skipped: list[str] = []
    if ref == "latest":
        # The name comes from each run's small state.json: run.yaml can be anything (even huge).
        for candidate in store.run_dirs():
            if run_name(candidate) != run_name_:
                continue
            point = _newest_in_run(candidate, skipped)
            if point is not None:
                return point
        raise PrepareError(
            [t("training.resume.no_latest", name=run_name_, workspace=str(store.workspace)), *skipped]
        )
    found = store.resolve(str(path) if path.is_dir() else ref)
    if found is None:
        raise PrepareError([store.miss_message(ref)])
    run_dir = found
    seen: set[Path] = set()
    current: Path | None = run_dir
    while current is not None and current.resolve() not in seen:
        seen.add(current.resolve())
        point = _newest_in_run(current, skipped)
        if point is not None:
            return point
        parent = _dig(_read_run_doc(current), ("environment", "resumed_from", "run_dir"))
        current = Path(parent) if isinstance(parent, str) and Path(parent).is_dir() else None
    raise PrepareError([t("training.resume.no_checkpoint", run=str(run_dir)), *skipped])


def check_schedule_length(point: ResumePoint, cfg: TrainingConfig, old_steps: Any) -> str | None:
    """Refuse (or, for a custom entry, warn about) a resume whose ``train.steps`` changed the LR schedule.

    The built-in cosine schedule spans ``train.steps``: rebuilding it for another length would change
    the learning rate of every step from the checkpoint on (the old scheduler state is restored into a
    curve of another length), so a "continued" run would follow dynamics neither run had. That is bad
    input (:class:`PrepareError`). A constant schedule does not depend on the length: nothing to say.
    A custom entry builds its own schedule, which may or may not use ``train.steps``: the warning that is
    returned says so.
    """
    if not isinstance(old_steps, int) or old_steps == cfg.train.steps:
        return None
    if task_spec(cfg.task).needs_entry:  # the user's own build: its schedule is its own
        return t(
            "training.resume.steps_changed_custom", old=old_steps, new=cfg.train.steps, step=point.step + 1
        )
    if cfg.train.lr_schedule == "constant":
        return None
    raise PrepareError(
        [
            t(
                "training.resume.steps_changed",
                old=old_steps,
                new=cfg.train.steps,
                schedule=cfg.train.lr_schedule,
                run=str(point.run_dir),
                step=point.step + 1,
            )
        ]
    )


def _finished(run_dir: Path) -> bool:
    """Whether a run ended ``finished`` (its final evaluation and export done)."""
    return summarize(run_dir).status == STATUS_FINISHED


def resume_differences(point: ResumePoint, cfg: TrainingConfig) -> list[str] | None:
    """Resume-sensitive config keys whose value differs from the run being resumed (``None``: the old
    run's config is lost or unreadable, so nothing can be compared)."""
    old = _read_run_doc(point.run_dir).get("config")
    if not isinstance(old, dict):
        return None
    new = cfg.model_dump(mode="json")
    return [".".join(key) for key in _RESUME_SENSITIVE if _dig(old, key) != _dig(new, key)]


def ensure_data(cfg: TrainingConfig, data_dir: Path, notify: Callable[[str], None]) -> None:
    """Generate the demo dataset into ``data_dir`` when the config asks for it and it is missing.

    A folder that cannot be created or written (``/proc/...``, a file in the way, no permission) raises
    :class:`PrepareError` naming the folder; the generator writes atomically, so nothing half-made stays.
    """
    assert cfg.data is not None
    spec = cfg.data.demo_spec()
    make_demo = demo_maker(cfg.task, cfg.data.format)
    if data_dir.exists() or spec is None or make_demo is None:
        return
    shown = os.path.normpath(data_dir)
    notify(t("training.demo.generating", path=shown, train=spec.train, val=spec.val))
    try:
        make_demo(data_dir, spec.train, spec.val, spec.seed)
    except OSError as exc:
        raise PrepareError([t("training.demo.failed", path=shown, error=os_error_text(exc))]) from None


def os_error_text(exc: OSError) -> str:
    """``[Errno 2] No such file or directory: '/x'`` → ``No such file or directory: /x``."""
    reason = exc.strerror or type(exc).__name__
    return f"{reason}: {exc.filename}" if exc.filename is not None else reason


def check_workspace(workspace: Path) -> None:
    """Fail before Paddle is imported when no run folder can be created under ``workspace``.

    Nothing is created here: the nearest folder that exists on the way to ``<workspace>/runs`` must be
    a folder we may write into (a file in the way, or a read-only folder, is bad input).
    """
    target = Path(workspace) / "runs"
    existing = target
    while not os.path.lexists(existing) and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise PrepareError([t("training.workspace.not_dir", workspace=str(workspace), path=str(existing))])
    if not os.access(existing, os.W_OK | os.X_OK):
        raise PrepareError(
            [t("training.workspace.not_writable", workspace=str(workspace), path=str(existing))]
        )


def _where(exc: BaseException) -> str:
    """``file:line`` of the user code an import failed in (the innermost frame outside importlib)."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno or 0}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "-"


def check_entry(entry: str, config_dir: Path) -> None:
    """Fail early (exit 2) when a custom entry's module cannot be found; it is imported later, in the job.

    ``find_spec("pkg.mod")`` imports ``pkg`` (its ``__init__`` runs): an exception there is reported
    with the file and line it came from. The config's folder and the current folder are on ``sys.path``
    only during the look-up, as they are during the build in the job.
    """
    from workbench.training.tasks.custom import entry_search_path

    module = entry.partition(":")[0]
    found = None
    if all(part.isidentifier() for part in module.split(".")):  # not "", ".mod", "a..b"
        try:
            with entry_search_path(config_dir):
                found = importlib.util.find_spec(module)
        except ModuleNotFoundError as exc:
            # The module itself or one of its parent packages is missing: "not found". A missing
            # dependency imported by a parent package's __init__ is an import failure.
            if exc.name is None or not (module == exc.name or module.startswith(exc.name + ".")):
                raise PrepareError([_import_failed(entry, module, exc)]) from None
        except Exception as exc:  # noqa: BLE001 - the user's package __init__ raised: bad input
            raise PrepareError([_import_failed(entry, module, exc)]) from None
    if found is None:
        raise PrepareError(
            [t("training.entry.not_found", entry=entry, module=module, folder=str(config_dir))]
        )


def _import_failed(entry: str, module: str, exc: BaseException) -> str:
    return t(
        "training.entry.import_failed",
        where=_where(exc),
        entry=entry,
        module=module,
        error=f"{type(exc).__name__}: {exc}",
    )


def prepare_training(
    config_path: str | os.PathLike[str],
    overrides: Sequence[str] = (),
    *,
    resume: str | None = None,
    store: RunStore | None = None,
    environ: Mapping[str, str] | None = None,
    notify: Callable[[str], None] | None = None,
) -> TrainingPlan:
    """Validate everything about a training request; see the module docstring for what is checked."""
    path = Path(config_path)
    cfg = load_model(path, TrainingConfig, overrides)
    notices: list[str] = []

    def note(message: str) -> None:
        notices.append(message)
        if notify is not None:
            notify(message)

    name = cfg.name or path.stem
    try:
        faults = faults_from(
            cfg.debug.inject if cfg.debug else None, os.environ if environ is None else environ
        )
    except ValueError as exc:
        raise PrepareError([t("training.faults.bad", error=str(exc))]) from None
    out_of_range = [str(f) for f in faults if not 1 <= f.step <= cfg.train.steps]
    if out_of_range:
        raise PrepareError(
            [t("training.faults.out_of_range", faults=", ".join(out_of_range), steps=cfg.train.steps)]
        )
    if faults:
        note(t("training.faults.active", faults=", ".join(str(f) for f in faults)))
    store = store or RunStore()
    check_workspace(store.workspace)
    task = task_spec(cfg.task)
    if task.needs_entry and cfg.entry:
        check_entry(cfg.entry, path.parent)
    point: ResumePoint | None = None
    if resume is not None:
        # Before the demo data is generated: a wrong --resume should not cost seconds of images first.
        point = find_resume_point(resume, store, name)
        for message in point.skipped:
            note(message)
        old_steps = _dig(_read_run_doc(point.run_dir).get("config") or {}, ("train", "steps"))
        schedule = check_schedule_length(point, cfg, old_steps)
        if schedule is not None:
            note(schedule)  # custom entries: we cannot know whether their schedule spans train.steps
        if point.step > cfg.train.steps or (point.step == cfg.train.steps and _finished(point.run_dir)):
            key = "training.resume.nothing_left"
            if not task_spec(cfg.task).needs_entry and cfg.train.lr_schedule != "constant":
                key = "training.resume.nothing_left_schedule"  # raising train.steps is refused below
            raise PrepareError([t(key, step=point.step, steps=cfg.train.steps)])
        if point.step == cfg.train.steps:
            # Killed after its last checkpoint, during the final evaluation or export: finish those.
            note(t("training.resume.finishing", run=str(point.run_dir), step=point.step))
        changed = resume_differences(point, cfg)
        if changed is None:
            note(t("training.resume.no_config", run=str(point.run_dir), config=str(path)))
        elif changed:
            note(t("training.resume.differs", keys=", ".join(changed)))
    try:
        data_dir = cfg.data_dir(path)
    except RuntimeError as exc:  # "~nosuchuser/data": the home folder cannot be determined
        raise PrepareError([t("training.data.bad_dir", error=str(exc))]) from None
    if data_dir is not None:
        ensure_data(cfg, data_dir, note)
        if task.check_data is not None:
            task.check_data(data_dir)
    return TrainingPlan(
        cfg=cfg,
        config_path=path,
        name=name,
        data_dir=data_dir,
        overrides=tuple(overrides),
        resume=point,
        faults=tuple(faults),
        notices=notices,
    )
