"""Shared by the training, lifecycle, bad-input, inference and serve tests: a real training run to its
end in this process, the environment a ``paddle-workbench`` child runs in, the CLI as a subprocess, and
a run's ``events.jsonl`` rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.runner import InProcessJob
from workbench.runs import RunStore
from workbench.training import prepare_training, start_training

REPO = Path(__file__).resolve().parents[1]
SAMPLE_CONFIGS = REPO / "sample_configs"


def train_job(
    config: Path,
    store: RunStore,
    overrides: Sequence[str] = (),
    *,
    resume: str | None = None,
    timeout: float = 120,
) -> InProcessJob:
    """Prepare and start ``config`` in this process and wait for the run to end (any status)."""
    plan = prepare_training(config, overrides, resume=resume, store=store, environ={})
    job = start_training(plan, store)
    assert job.wait(timeout), "training did not end"
    return job


def train_finished(
    config: Path, store: RunStore, overrides: Sequence[str] = (), *, timeout: float = 120
) -> Path:
    """:func:`train_job` that must finish; the run folder."""
    job = train_job(config, store, overrides, timeout=timeout)
    assert job.status == "finished", job.status
    return job.run_dir


def cli_env(tmp_path: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A ``paddle-workbench`` child's environment: HOME in tmp, Paddle's logging quiet, English, and no
    fault injection inherited from the test's own environment."""
    env = dict(os.environ, HOME=str(tmp_path / "home"), GLOG_minloglevel="2", PADDLE_WORKBENCH_LANG="en")
    env.pop("PADDLE_WORKBENCH_INJECT", None)
    env.update(extra or {})
    return env


def run_cli(
    tmp_path: Path,
    args: Sequence[str],
    *,
    extra_env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``paddle-workbench --workspace <tmp>/ws ARGS`` as a subprocess, to its end (3 minutes at most)."""
    return subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), *args],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path, extra_env),
        cwd=cwd,
        timeout=180,
    )


def event_rows(run_dir: Path) -> list[dict[str, Any]]:
    """Every row of the run's ``events.jsonl``."""
    text = (run_dir / "events.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]
