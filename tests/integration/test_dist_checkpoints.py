"""Distributed checkpoints of plan runs, for real: 2 CPU ranks, a tiny model, 12 steps, a checkpoint every 4.

One module fixture launches the four runs every test reads (each 2-rank launch is ~10 s, nearly all
start-up): ``full`` — the data-parallel plan uninterrupted; ``killed`` — the same plan, kill -9'd (the
command and every process under it) while both ranks are inside the checkpoint of step 8 with their
shards written but not committed; ``resumed`` — ``plan run dp --resume <killed>``; ``resharded`` —
``plan run tp --resume <killed>`` (2 data-parallel ranks → 2 tensor-parallel ranks). Then
``plan merge`` of the full run (a process of its own) and of the resharded one, and ``compare`` of the
merged full run (both in this process).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.parallel_helpers import (
    cache_plan_facts,
    concurrently,
    prepare_cls_data,
    workbench_in_process,
    write_plan,
    write_train,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

STEPS = 12
OVERRIDES = [
    "-o",
    "checkpoint.every=4",
    "-o",
    "checkpoint.keep=3",
    "-o",
    "model.width=4",
    "-o",
    "model.hidden=16",
]
DP = """\
mesh: {shape: [2], dim_names: [dp]}
dp: {sharding_level: 0}
inputs: {placements: ["Shard(0)"]}
"""
TP = """\
mesh: {shape: [2], dim_names: [mp]}
layers:
  - {match: fc1, plan: ColWiseParallel}
  - {match: fc2, plan: RowWiseParallel}
"""


class Runs:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspace = root / "ws"
        write_train(root, steps=STEPS)
        self.dp = write_plan(root, "dp", DP)
        self.tp = write_plan(root, "tp", TP)
        self.env = dict(os.environ)
        self.env.update(HOME=str(root / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
        for name in ("PADDLE_WORKBENCH_WORKSPACE", "PADDLE_WORKBENCH_RUN_DIR", "PADDLE_WORKBENCH_INJECT"):
            self.env.pop(name, None)
        self.env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + self.env.get("PATH", "")
        self.docs: dict[str, dict[str, Any]] = {}
        self.stderr: dict[str, str] = {}
        self.killed: Path | None = None
        self.half_written: list[Path] = []

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "workbench", "--workspace", str(self.workspace), *args]

    def wb(self, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.argv(*args), capture_output=True, text=True, env=self.env, timeout=timeout, cwd=self.root
        )

    def plan_run(self, key: str, *args: str) -> None:
        result = self.wb("plan", "run", *args, *OVERRIDES, "--json")
        doc = json.loads(result.stdout)
        assert result.returncode == 0, (doc, result.stderr[-3000:])
        self.docs[key], self.stderr[key] = doc, result.stderr

    def kill_in_checkpoint(self, beside: Callable[[], None]) -> None:
        """``plan run dp`` until both ranks wrote their shards of step 8 (not yet committed), then kill -9
        of the command and every process under it. ``beside`` (another job of the module) runs in a
        thread once this run's folder is known, and has ended when this returns."""
        env = dict(self.env, PADDLE_WORKBENCH_INJECT="slow_checkpoint@8:600")
        argv = self.argv("plan", "run", str(self.dp), *OVERRIDES, "--watchdog", "900")
        proc = subprocess.Popen(
            argv, env=env, cwd=self.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )  # fmt: skip
        runs = self.workspace / "runs"
        before = set(runs.iterdir()) if runs.is_dir() else set()
        deadline = time.monotonic() + 180
        other: Future[None] | None = None
        run_dir = runs  # until this run's folder is seen
        pool = ThreadPoolExecutor(max_workers=1)
        try:
            while True:
                found = [d for d in runs.iterdir() if d not in before] if runs.is_dir() else []
                if found and other is None:  # this run's folder: the only new one until the other starts
                    run_dir = found[0]
                    other = pool.submit(beside)
                if (
                    other is not None
                    and (run_dir / "dist_checkpoints" / "step-4" / "manifest.json").is_file()
                ):
                    half = list((run_dir / "dist_checkpoints").glob("step-8.tmp-*"))
                    if half and all((half[0] / f"rank-{r}.state.pkl").is_file() for r in (0, 1)):
                        self.killed, self.half_written = run_dir, half
                        break
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the run never reached the checkpoint of step 8"
                time.sleep(0.1)
        finally:
            family = [proc.pid]
            with contextlib.suppress(psutil.Error):
                family += [child.pid for child in psutil.Process(proc.pid).children(recursive=True)]
            for pid in family:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            proc.communicate()
            psutil.wait_procs([p for p in map(_process, family) if p is not None], timeout=30)
            pool.shutdown(wait=True)
        if other is not None:
            other.result()


def _process(pid: int) -> psutil.Process | None:
    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


def losses(run_dir: Path, rank: int = 0) -> dict[int, float]:
    out: dict[int, float] = {}
    for line in (run_dir / "ranks" / str(rank) / "events.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row.get("type") == "metrics" and "loss" in row.get("values", {}):
            out[int(row["step"])] = row["values"]["loss"]
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """The four runs, two at a time: the full run beside the one killed in its checkpoint, then the two
    resumes of the killed one. The demo data and the model facts are made once before."""
    state = Runs(tmp_path_factory.mktemp("distckpt"))
    prepare_cls_data(state.root / "data", n_train=256, n_val=64)
    cache_plan_facts(state.dp, state.workspace, OVERRIDES[1::2])
    state.kill_in_checkpoint(beside=lambda: state.plan_run("full", str(state.dp)))
    assert state.killed is not None
    resume = ("--resume", state.killed.name)
    concurrently(
        {
            "resumed": lambda: state.plan_run("resumed", str(state.dp), *resume),
            "resharded": lambda: state.plan_run("resharded", str(state.tp), *resume),
        }
    )
    yield state


def test_a_plan_run_saves_atomic_distributed_checkpoints(runs: Runs) -> None:
    from workbench.parallel.dist_checkpoint import SavedLayout
    from workbench.training.checkpoints import CheckpointStore, verify_checkpoint

    run_dir = Path(runs.docs["full"]["run_dir"])
    store = CheckpointStore(run_dir / "dist_checkpoints", keep=None)
    assert [c.step for c in store.committed()] == [4, 8, 12]
    newest = store.committed()[-1].path
    assert verify_checkpoint(newest) == []
    names = set(json.loads((newest / "manifest.json").read_text())["files"])
    assert {"0.metadata", "0_0.distcp", "rank-0.state.pkl", "rank-1.state.pkl"} <= names
    layout = SavedLayout.read(newest)
    assert (layout.world, layout.mesh_shape, layout.dim_names) == (2, (2,), ("dp",))
    assert layout.placements["model.fc1.weight"] == ["Replicate()"]
    tp = Path(runs.docs["resharded"]["run_dir"]) / "dist_checkpoints" / f"step-{STEPS}"
    assert SavedLayout.read(tp).placements["model.fc1.weight"] == ["Shard(dim=1)"]


def test_kill_9_inside_a_checkpoint_then_resume_continues_bit_identically(runs: Runs) -> None:
    assert runs.killed is not None
    committed = sorted(p.name for p in (runs.killed / "dist_checkpoints").glob("step-*") if "." not in p.name)
    assert committed == ["step-4"]  # step 8 was half-written when the job died: never committed
    doc = runs.docs["resumed"]
    assert doc["status"] == "finished" and doc["last_step"] == {"0": STEPS, "1": STEPS}
    assert f"resuming from {runs.killed / 'dist_checkpoints' / 'step-4'} (step 4)" in runs.stderr["resumed"]
    assert "resharding" not in runs.stderr["resumed"]
    full, resumed = Path(runs.docs["full"]["run_dir"]), Path(doc["run_dir"])
    for rank in (0, 1):
        continued = losses(resumed, rank)
        assert sorted(continued) == list(range(5, STEPS + 1))
        reference = losses(full, rank)
        assert continued == {step: reference[step] for step in continued}  # bit for bit


def test_resuming_dp_under_tp_reshards_says_so_and_passes_parity(runs: Runs) -> None:
    doc = runs.docs["resharded"]
    assert doc["status"] == "finished"
    assert (
        "resharding: the checkpoint of step 4 was saved by 2 ranks, mesh 2 [dp]" in runs.stderr["resharded"]
    )
    assert "this run is 2 ranks, mesh 2 [mp]" in runs.stderr["resharded"]
    assert sorted(losses(Path(doc["run_dir"]))) == list(range(5, STEPS + 1))
    result = runs.wb("plan", "parity", runs.docs["full"]["run_dir"], doc["run_dir"], "--json")
    parity = json.loads(result.stdout)
    assert result.returncode == 0 and parity["ok"], parity
    assert parity["curves"]["steps"] == list(range(5, STEPS + 1))


def test_merge_writes_a_single_card_checkpoint_that_compare_takes(runs: Runs) -> None:
    import numpy as np
    import paddle

    full, resharded = runs.docs["full"]["run_dir"], runs.docs["resharded"]["run_dir"]
    # ``plan merge`` of the full run as the user runs it, a process of its own; the resharded run's merge
    # and the ``compare`` below in this process, which has Paddle already (a fresh interpreter would
    # import it again; ``compare``'s own process is tested in test_inference.py).
    merges = concurrently(
        {
            full: functools.partial(runs.wb, "plan", "merge", full, "--json"),
            resharded: functools.partial(
                workbench_in_process, runs.workspace, "plan", "merge", resharded, "--json"
            ),
        }
    )
    for result in merges.values():
        if isinstance(result, subprocess.CompletedProcess):
            assert result.returncode == 0, result.stderr[-3000:]
        else:
            assert result.exit_code == 0, (result.output[-3000:], result.exception)
        merged = json.loads(result.stdout)
        assert merged["step"] == STEPS and merged["export"] and merged["export_error"] is None
    # The tensor-parallel shards (fc1 split by columns, fc2 by rows) assemble into the same model the
    # data-parallel run trained, within float32 rounding.
    a = paddle.load(str(Path(full) / "checkpoints" / f"step-{STEPS}" / "model.pdparams"))
    b = paddle.load(str(Path(resharded) / "checkpoints" / f"step-{STEPS}" / "model.pdparams"))
    assert set(a) == set(b)
    for name in a:
        assert list(a[name].shape) == list(b[name].shape), name
        np.testing.assert_allclose(a[name].numpy(), b[name].numpy(), atol=1e-5, err_msg=name)
    compared = workbench_in_process(runs.workspace, "compare", full)
    assert compared.exit_code == 0, (compared.output[-3000:], compared.exception)
    assert "all paths within tolerance" in compared.stdout


def test_bad_resume_and_merge_targets_are_located_refusals(runs: Runs) -> None:
    unmerged = runs.docs["resumed"]["run_dir"]
    result = runs.wb("plan", "run", str(runs.dp), *OVERRIDES, "--resume", "no-such-run")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "no-such-run" in result.stdout + result.stderr
    # The refusals of compare and merge, in this process (a traceback shows as the result's exception).
    result = workbench_in_process(runs.workspace, "compare", unmerged)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert f"fix: paddle-workbench plan merge {Path(unmerged).name}" in result.output
    result = workbench_in_process(runs.workspace, "plan", "merge", "no-such-run")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    result = workbench_in_process(
        runs.workspace, "plan", "merge", runs.docs["full"]["run_dir"], "--step", "5"
    )
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "no distributed checkpoint of step 5 (it has: 4, 8, 12)" in result.output
