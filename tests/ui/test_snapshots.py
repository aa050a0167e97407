"""A few SVG snapshots (textual is pinned exactly in pyproject.toml, so they are stable).

Update after an intended change with ``pytest tests/ui/test_snapshots.py --snapshot-update`` and
look at the report before committing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench.events import CheckpointSaved, RunFailed, RunStarted
from workbench.i18n import set_language
from workbench.runner import Job
from workbench.screens.app import WorkbenchApp


class ScriptedJob(Job):
    """A job whose whole history is given up front: deterministic pixels, no threads, no Paddle."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(
            run_dir, "scripted-run", "scripted", config={"train": {"steps": 400, "batch_size": 32}}
        )
        steps = np.arange(1, 301)
        loss = 2.3 * np.exp(-steps / 60) + 0.05 * np.sin(steps / 3)
        for step, value in zip(steps, loss, strict=True):
            self.metrics.record(0, int(step), {"loss": float(value), "lr": 0.01}, float(step))
            if step % 50 == 0:
                self.metrics.record(0, int(step), {"eval/loss": float(value) + 0.1}, float(step))
        self._publish(RunStarted(run_id="scripted-run", time=0.0))
        self._publish(CheckpointSaved(step=100, path="", time=1.0))
        self._publish(CheckpointSaved(step=200, path="", time=2.0))
        self._publish(
            RunFailed(
                error="FloatingPointError: loss is nan at step 301",
                traceback="Traceback (most recent call last):\n  ...\nFloatingPointError: loss is nan at step 301",
                time=3.0,
            )
        )


def test_help_screen_in_chinese_aligns_cjk(snap_compare, make_app) -> None:  # type: ignore[no-untyped-def]
    set_language("zh")
    assert snap_compare(make_app(), press=["question_mark"], terminal_size=(120, 40))


def test_runs_home_empty(snap_compare, make_app) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(120, 40))


def test_monitor_with_a_scripted_failed_run(snap_compare, make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app: WorkbenchApp = make_app()

    async def open_scripted(pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_in_monitor(ScriptedJob(tmp_path / "scripted-run"))
        await pilot.pause(0.6)

    assert snap_compare(app, run_before=open_scripted, terminal_size=(120, 40))
