"""``train`` with input that used to be accepted and fail late (or not at all): exit 2 before Paddle, or a
recorded failure with one consistent step — real ``paddle-workbench train`` subprocesses."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.train_helpers import run_cli
from workbench.runs import RunStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

POINTS = """
import os
import numpy as np
import paddle
from workbench.training import TrainParts


class Points(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, 4)).astype("float32")
        self.y = (self.x.sum(axis=1) > 0).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build(cfg):
    if cfg.options.get("exit"):
        os._exit(0)
    model = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Points(32, 0), val_data=Points(8, 1),
                      loss=paddle.nn.functional.cross_entropy)
"""

CONFIG = (
    "task: custom\nentry: points:build\nname: points\ntrain: {steps: 8, batch_size: 8}\n"
    "eval: {every: 0}\ncheckpoint: {every: 2, keep: 5}\nexport: {enabled: false}\n"
)


def _setup(tmp_path: Path) -> Path:
    (tmp_path / "points.py").write_text(POINTS)
    config = tmp_path / "points.yaml"
    config.write_text(CONFIG)
    return config


def _cli(tmp_path: Path, args: Sequence[str], inject: str = "") -> subprocess.CompletedProcess[str]:
    """``train ARGS`` in ``tmp_path`` (where the entry module is), with ``inject`` as the fault to inject."""
    extra = {"PADDLE_WORKBENCH_INJECT": inject} if inject else None
    return run_cli(tmp_path, ["train", *args], extra_env=extra, cwd=tmp_path)


@pytest.mark.parametrize(
    "args",
    [
        ["-o", "train.seed=-1"],
        ["-o", "train.seed=99999999999999999999"],
        ["-o", "train.lr=inf"],
        ["--resume", ""],
        ["-o", "debug.inject=raise@0"],
        ["-o", "debug.inject=raise@9"],
        ["-o", "options.x=" + "[" * 300 + "]" * 300],
        ["-o", "options.b=[&a " + "x" * 100_000 + ", " + ", ".join(["*a"] * 60) + "]"],
    ],
)
def test_bad_input_exits_2_before_paddle_loads(tmp_path: Path, args: list[str]) -> None:
    result = _cli(tmp_path, [str(_setup(tmp_path)), "--plain", *args])
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "loading Paddle" not in result.stdout and "Traceback" not in result.stdout + result.stderr
    assert not RunStore(tmp_path / "ws").run_dirs()  # no run was started


def test_an_alias_bomb_in_the_config_exits_2_naming_the_limit(tmp_path: Path) -> None:
    config = _setup(tmp_path)
    lines = [CONFIG + "options:", "  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 10)]
    config.write_text("\n".join(lines) + "\n")
    result = _cli(tmp_path, [str(config), "--plain"])
    assert result.returncode == 2 and "aliases expand to" in result.stdout, result.stdout
    assert not RunStore(tmp_path / "ws").run_dirs()


def test_os_exit_in_build_is_a_failed_run_not_a_silent_exit_0(tmp_path: Path) -> None:
    result = _cli(tmp_path, [str(_setup(tmp_path)), "--plain", "--json", "-o", "options.exit=true"])
    assert result.returncode == 1, (result.stdout, result.stderr)
    doc = json.loads(result.stdout)  # the result document is there
    assert doc["status"] == "failed" and "os._exit(0)" in doc["error"]
    [summary] = RunStore(tmp_path / "ws").list()
    assert summary.status == "failed"


def test_failure_step_is_consistent_and_a_run_without_run_yaml_resumes(tmp_path: Path) -> None:
    config = _setup(tmp_path)
    failed = _cli(tmp_path, [str(config), "--plain"], inject="raise@5")
    assert failed.returncode == 1
    assert "failed at step 5" in failed.stdout and "injected fault at step 5" in failed.stdout, failed.stdout
    run_dir = Path(failed.stdout.strip().splitlines()[-1])
    (run_dir / "run.yaml").unlink()
    resumed = _cli(tmp_path, [str(config), "--plain", "--resume", str(run_dir)])
    assert resumed.returncode == 0, (resumed.stdout, resumed.stderr)
    assert "resuming its checkpoint with the settings of" in resumed.stdout
    assert "step 4" in resumed.stdout  # the newest checkpoint before the failure
    new_run = Path(resumed.stdout.strip().splitlines()[-1])
    assert "resuming its checkpoint with the settings of" in (new_run / "logs.txt").read_text()


def test_a_seed_near_the_top_of_paddles_range_trains(tmp_path: Path) -> None:
    result = _cli(tmp_path, [str(_setup(tmp_path)), "--plain", "-o", "train.seed=18446744073709551615"])
    assert result.returncode == 0, (result.stdout, result.stderr)
