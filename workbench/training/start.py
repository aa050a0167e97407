"""Start a planned training run on a worker thread of this process (the single-card path).

:func:`start_training` imports Paddle (2-3 s: call it from a worker thread in a UI), records the
environment fingerprint and the resolved config in ``run.yaml``, and returns the runner's
:class:`~workbench.runner.InProcessJob` at once — its events, live metrics, ``cancel()`` and ``wait()``
are the same for the CLI, the TUI and tests.

What can go wrong here is the machine, not the run: Paddle does not import, the device is not there,
or the run folder cannot be created. Each raises :class:`PrepareError` with the reason and the fix
(the CLI exits 2, the TUI shows the message), never a traceback.
"""

from __future__ import annotations

import contextlib
from typing import Any

from workbench.datasets.fingerprint import dataset_fingerprint
from workbench.envcheck.wheels import DEFAULT_PADDLE_VERSION
from workbench.gitversion import code_version
from workbench.i18n import t
from workbench.leftovers import clean_run, clean_workspace
from workbench.runner import InProcessJob, JobContext, start_in_process
from workbench.runs import RunStore
from workbench.training.fingerprint import environment_fingerprint
from workbench.training.plan import PrepareError, TrainingPlan, os_error_text
from workbench.training.runtime import import_paddle, resolve_device
from workbench.training.seeds import seed_record


def run_fingerprint(plan: TrainingPlan, paddle: Any, device: str) -> dict[str, Any]:
    """The ``environment`` block of this run's ``run.yaml``."""
    extra: dict[str, Any] = {
        "config_file": str(plan.config_path.resolve()),
        "overrides": list(plan.overrides),
        "data_dir": str(plan.data_dir.resolve()) if plan.data_dir is not None else None,
    }
    if plan.data_dir is not None:
        # Which data this run saw (verify re-checks it; see workbench.datasets.fingerprint).
        try:
            extra["dataset"] = dataset_fingerprint(plan.data_dir)
        except OSError as exc:
            extra["dataset"] = {"error": os_error_text(exc)}
    code = code_version()  # the user's code, when the working directory is a git checkout
    if code is not None:
        extra["code"] = code
    if plan.resume is not None:
        extra["resumed_from"] = {
            "run_dir": str(plan.resume.run_dir.resolve()),
            "checkpoint": str(plan.resume.checkpoint.resolve()),
            "step": plan.resume.step,
        }
    if plan.faults:
        extra["injected_faults"] = [str(f) for f in plan.faults]
    return environment_fingerprint(paddle, device=device, seeds=seed_record(plan.cfg.train.seed), extra=extra)


def start_training(plan: TrainingPlan, store: RunStore) -> InProcessJob:
    """Create the run folder and start training on a worker thread; returns at once."""
    from workbench.training.loop import run_training

    try:
        paddle = import_paddle()
    except Exception as exc:  # noqa: BLE001 - ImportError, a missing shared library (OSError), ...
        raise PrepareError(
            [
                t(
                    "training.paddle.not_importable",
                    error=f"{type(exc).__name__}: {exc}",
                    version=DEFAULT_PADDLE_VERSION,
                )
            ]
        ) from None
    try:
        device = resolve_device(plan.cfg.train.device, paddle)
    except (RuntimeError, ValueError) as exc:
        raise PrepareError([str(exc)]) from None

    def job(ctx: JobContext) -> dict[str, Any]:
        return run_training(ctx, plan)

    fingerprint = run_fingerprint(plan, paddle, device)
    # What killed runs left behind (half-written checkpoints, temp files), now that nothing writes them.
    clean_workspace(store)
    if plan.resume is not None:
        clean_run(plan.resume.run_dir)
    try:
        started = start_in_process(
            store,
            plan.name,
            job,
            config=plan.cfg.model_dump(mode="json"),
            fingerprint=fingerprint,
            system_metrics=plan.cfg.metrics.system,
        )
    except OSError as exc:  # a full disk, a read-only workspace, a file where a folder should be
        raise PrepareError(
            [t("training.workspace.create_failed", workspace=str(store.workspace), error=os_error_text(exc))]
        ) from None
    # What the user was told before the run began (a skipped corrupt checkpoint, changed settings,
    # injected faults) stays with the run, not only on a terminal that may be gone.
    with contextlib.suppress(OSError):
        for notice in plan.notices:
            started.handle.write_log(f"workbench: {notice}\n")
    return started
