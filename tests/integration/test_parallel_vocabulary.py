"""The wider plan vocabulary run for real: ONE 2-rank CPU launch of a sequence-parallel + recompute plan
(with an ``amp`` section the CPU cannot exercise) on a small sequence model of the user's own.

The model records, from inside the ranks, what only a real run shows: the local shape a layer inside the
sequence-parallel range receives (split over the sequence on ``mp``) and how often the recomputed block
runs (once without grad in forward, once more in backward). The losses are held against the single-card
run of the same config by ``plan parity``, and the estimate's per-rank parameter and optimizer bytes
against the shards each rank saved.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.parallel_helpers import concurrently

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

STEPS = 4
SEQ_MODEL = """
import os

import numpy as np
import paddle
from workbench.training import TrainParts

S, H, V = 8, 16, 32
RECORD = os.environ.get("SEQ_MODEL_RECORD")


def record(line):
    if RECORD and "PADDLE_TRAINER_ID" in os.environ:  # only inside launched ranks
        with open(f"{RECORD}.{os.environ['PADDLE_TRAINER_ID']}", "a") as fh:
            fh.write(line + "\\n")


class Norm(paddle.nn.LayerNorm):
    def forward(self, x):
        local = x._local_value() if x.is_dist() else x
        record(f"norm {list(local.shape)}")
        return super().forward(x)


class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(H, 2 * H)
        self.fc2 = paddle.nn.Linear(2 * H, H)

    def forward(self, x):
        record(f"mlp grad={paddle.is_grad_enabled()}")
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = paddle.nn.Embedding(V, H)
        self.norm = Norm(H)
        self.mlp = MLP()
        self.norm2 = paddle.nn.LayerNorm(H)
        self.head = paddle.nn.Linear(H, 4)

    def forward(self, x):
        h = self.norm(self.embed(x))
        h = h + self.mlp(h)
        return self.head(self.norm2(h)).mean(axis=1)


class Tokens(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.integers(0, V, size=(n, S)).astype("int64")
        self.y = (self.x.sum(axis=1) % 4).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build(cfg):
    model = Net()
    opt = paddle.optimizer.AdamW(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Tokens(64, 0),
                      loss=paddle.nn.functional.cross_entropy)
"""
TRAIN = f"""\
task: custom
entry: seq_model:build
train: {{steps: {STEPS}, batch_size: 4, lr: 0.01, optimizer: adamw, seed: 3, device: cpu, warmup_steps: 0}}
eval: {{every: 0}}
checkpoint: {{every: {STEPS}, keep: 1}}
export: {{enabled: false}}
"""
PLAN = """\
train: train.yaml
mesh: {shape: [1, 2], dim_names: [dp, mp]}
layers:
  - {match: embed, plan: SequenceParallelBegin}
  - {match: mlp, plan: SequenceParallelDisable}
  - {match: mlp.fc1, plan: ColWiseParallel}
  - {match: mlp.fc2, plan: RowWiseParallel}
  - {match: head, plan: SequenceParallelEnd}
recompute:
  - {match: mlp}
amp: {level: O1, dtype: bfloat16}
"""


class Launch:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = dict(os.environ, HOME=str(root / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
        self.env.pop("PADDLE_WORKBENCH_WORKSPACE", None)
        self.env.pop("PADDLE_WORKBENCH_RUN_DIR", None)
        self.env["SEQ_MODEL_RECORD"] = str(root / "record")
        self.env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + self.env.get("PATH", "")
        self.run: dict[str, Any] = {}
        self.run_stderr = ""
        self.baseline: dict[str, Any] = {}

    def wb(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", "--workspace", str(self.root / "ws"), *args],
            capture_output=True, text=True, env=self.env, timeout=300, cwd=self.root,
        )  # fmt: skip


@pytest.fixture(scope="module")
def launch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launch]:
    state = Launch(tmp_path_factory.mktemp("vocab"))
    (state.root / "seq_model.py").write_text(SEQ_MODEL)
    (state.root / "train.yaml").write_text(TRAIN)
    (state.root / "plan.yaml").write_text(PLAN)
    # The launch and its single-card baseline, started together (a launch is mostly start-up).
    done = concurrently(
        {
            "run": functools.partial(state.wb, "plan", "run", "plan.yaml", "--json"),
            "baseline": functools.partial(state.wb, "train", "train.yaml", "--plain", "--json"),
        }
    )
    result = done["run"]
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
    state.run, state.run_stderr = json.loads(result.stdout), result.stderr
    result = done["baseline"]
    assert result.returncode == 0, result.stderr[-3000:]
    state.baseline = json.loads(result.stdout)
    yield state


def test_sequence_parallel_and_recompute_run_on_two_cpu_ranks_with_parity(launch: Launch) -> None:
    doc = launch.run
    assert doc["status"] == "finished" and doc["ranks"] == 2
    assert doc["last_step"] == {"0": STEPS, "1": STEPS}
    result = launch.wb("plan", "parity", launch.baseline["run_dir"], doc["run_dir"], "--json")
    parity = json.loads(result.stdout)
    assert result.returncode == 0 and parity["ok"], parity.get("verdict_text")


def test_inside_the_ranks_the_range_is_sequence_split_and_the_block_recomputed(launch: Launch) -> None:
    for rank in (0, 1):
        lines = (launch.root / f"record.{rank}").read_text().splitlines()
        # [s/mp, b, h]: the 8-long sequence split over 2 mp ranks, the batch of 4 transposed behind it
        assert set(line for line in lines if line.startswith("norm")) == {"norm [4, 4, 16]"}
        assert lines.count("mlp grad=False") == STEPS  # forward under recompute keeps no activations
        assert lines.count("mlp grad=True") == STEPS  # ... and runs again in backward


def test_the_amp_note_is_said_and_the_run_trained_in_float32(launch: Launch) -> None:
    assert "amp O1 bfloat16 is not exercised on CPU" in launch.run_stderr + json.dumps(launch.run)
    run_yaml = (Path(launch.run["run_dir"]) / "parallel.json").read_text()
    assert json.loads(run_yaml)["plan"]["amp"] == {"level": "O1", "dtype": "bfloat16"}  # kept for GPU


def test_estimate_matches_the_shards_each_rank_saved(launch: Launch) -> None:
    import math

    import paddle

    est = launch.run["estimate"]
    folder = Path(launch.run["run_dir"]) / "dist_checkpoints" / f"step-{STEPS}"
    metadata = paddle.load(str(folder / "0.metadata"))  # each saved shard's local shape, per tensor
    local = {
        key: math.prod(shards[0].local_shape) * 4 for key, shards in metadata.state_dict_metadata.items()
    }
    assert sum(v for k, v in local.items() if k.startswith("model.")) == est["param_bytes"]
    assert (
        sum(v for k, v in local.items() if k.startswith("optimizer.") and "moment" in k)
        == est["optimizer_bytes"]
    )


def test_recompute_of_the_layer_that_takes_the_batch_is_refused_with_its_line(launch: Launch) -> None:
    """Paddle's recompute of a block whose inputs need no gradient leaves its parameters untrained (a
    log line only); the real model's facts know which layer takes the batch."""
    from workbench.parallel.facts import build_facts
    from workbench.parallel.validate import check_plan

    facts = build_facts(launch.root / "train.yaml")
    assert facts.input_needs_grad["embed"] is False and facts.input_needs_grad["mlp"] is True
    plan = launch.root / "plan_rc_embed.yaml"
    plan.write_text(PLAN.replace("  - {match: mlp}\n", "  - {match: mlp}\n  - {match: embed}\n"))
    report = check_plan(plan, nproc=2, facts=facts)
    assert [(e.code, e.line) for e in report.errors] == [("recompute_no_grad_input", 11)]
