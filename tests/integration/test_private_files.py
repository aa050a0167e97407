"""A full path through the commands a user types, started under a permissive umask (0o022): the demo
dataset the workbench writes, a tiny training run (checkpoints, export), ``compare`` (its reports and
``matrix.jsonl``), ``report`` and ``verify``. Nothing in the workspace or the written dataset is
readable by group or others, and ``verify``'s ``engineering.permissions`` passes (issue 18, finding 9)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.permissions import loose_modes

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"


def test_a_walked_path_under_umask_022_leaves_only_owner_only_files(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    ws, data = tmp_path / "ws", tmp_path / "data"
    env = dict(subprocess_env, PADDLE_WORKBENCH_SERVE_TOKEN="")

    def wb(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", "--workspace", str(ws), *args],
            capture_output=True, text=True, env=env, timeout=timeout, cwd=tmp_path,
            preexec_fn=lambda: os.umask(0o022),  # what most shells give
        )  # fmt: skip

    overrides = [
        f"data.dir={data}", "data.demo={train: 64, val: 16, seed: 0}", "train.steps=4", "eval.every=2",
        "eval.max_samples=16", "checkpoint.every=2", "train.warmup_steps=0", "train.batch_size=16",
    ]  # fmt: skip
    train = wb(
        "train", str(SAMPLES / "train_cls_mlp.yaml"), *[a for o in overrides for a in ("-o", o)], "--json"
    )
    assert train.returncode == 0, train.stderr[-3000:]
    run = json.loads(train.stdout)["run_dir"]
    compare = wb("compare", run, "--repeats", "1", "--no-onnx", "--json")
    assert compare.returncode in (0, 1), compare.stderr[-3000:]
    assert (ws / "matrix.jsonl").is_file()
    report = wb("report", run, "--no-check", "--redact")
    assert report.returncode == 0, report.stdout + report.stderr
    verify = wb("verify", "--json")
    items = {item["id"]: item for item in json.loads(verify.stdout)["items"]}
    assert items["engineering.permissions"]["status"] == "pass", items["engineering.permissions"]
    assert loose_modes(ws) == [] and loose_modes(data) == []
