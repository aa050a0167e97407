"""A real headless ``train`` records the system series in its run folder, and the run store reads them
back as series (what the TUI's system pane and ``sys/*`` charts draw for a run attached later)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from workbench.runs import read_run

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]


def test_headless_train_keeps_system_samples_in_the_run_folder(tmp_path: Path) -> None:
    config = tmp_path / "sys.yaml"
    config.write_text(
        textwrap.dedent(
            """\
            task: image_classification
            data: {dir: data/cls, format: cls, demo: {train: 64, val: 16}}
            train: {steps: 6, batch_size: 16}
            eval: {every: 0}
            checkpoint: {every: 0}
            export: {enabled: false}
            debug: {inject: "hang@3:2"}
            """
        )
    )  # step 3 sleeps 2 s: the run lives long enough for the 1 Hz sampler, however fast the machine
    env = dict(os.environ, HOME=str(tmp_path / "home"), GLOG_minloglevel="2", PADDLE_WORKBENCH_LANG="en")
    env.pop("PADDLE_WORKBENCH_INJECT", None)
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "train", str(config)]
        + ["--plain", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    run_dir = Path(doc["run_dir"])
    rows = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    system = [r for r in rows if r["type"] == "system"]
    assert system, "no system row in events.jsonl"
    assert all({"sys/cpu_percent", "sys/rss_mb"} <= set(r["values"]) for r in system)
    assert all(1 <= r["step"] <= 6 for r in system)
    assert all(r["values"]["sys/rss_mb"] > 50 for r in system)  # a process with Paddle loaded
    if shutil.which("nvidia-smi") is None and importlib.util.find_spec("pynvml") is None:
        assert not any(k.startswith("sys/gpu") for r in system for k in r["values"])  # a CPU machine
    assert "sys/rss_mb" not in doc["final_metrics"]  # the JSON contract's metrics are the model's
    record = read_run(run_dir)
    assert {"sys/cpu_percent", "sys/rss_mb"} <= set(record.metrics.names())
    assert record.summary.last_step == 6
