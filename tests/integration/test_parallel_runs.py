"""Sharding plans run for real: 2 CPU ranks through ``paddle.distributed.launch``, parity with the baseline.

One module-scoped set of runs (a 2-rank launch costs ~10 s, nearly all start-up) is shared by the
tests: the single-card baseline of ``train_cls_mlp.yaml`` and the data-parallel, sharding-level and
column/row tensor-parallel samples, all on the same 8 steps. Then the exported command runs as two
"nodes" over loopback, and a rank that hangs is named by the watchdog with nothing left running.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
import yaml

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
PLANS = ("dp", "sharding", "tp")


def _overrides(data: Path) -> list[str]:
    values = [
        f"data.dir={data}", "data.demo={train: 512, val: 64, seed: 0}", "train.steps=8", "eval.every=0",
        "eval.max_samples=64", "checkpoint.every=0", "export.enabled=false", "train.warmup_steps=2",
    ]  # fmt: skip
    return [arg for value in values for arg in ("-o", value)]


class Runs:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspace = root / "ws"
        self.overrides = _overrides(root / "data")
        self.env = dict(os.environ)
        self.env.update(HOME=str(root / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
        self.env.pop("PADDLE_WORKBENCH_WORKSPACE", None)
        self.env.pop("PADDLE_WORKBENCH_RUN_DIR", None)
        self.env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + self.env.get("PATH", "")
        self.baseline: dict[str, Any] = {}
        self.plans: dict[str, dict[str, Any]] = {}

    def wb(
        self, *args: str, env: dict[str, str] | None = None, timeout: float = 240
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", "--workspace", str(self.workspace), *args],
            capture_output=True, text=True, env=env or self.env, timeout=timeout, cwd=self.root,
        )  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    state = Runs(tmp_path_factory.mktemp("parallel"))
    result = state.wb("train", str(SAMPLES / "train_cls_mlp.yaml"), *state.overrides, "--plain", "--json")
    assert result.returncode == 0, result.stderr[-3000:]
    state.baseline = json.loads(result.stdout)
    for name in PLANS:
        result = state.wb("plan", "run", str(SAMPLES / f"plan_cls_{name}.yaml"), *state.overrides, "--json")
        doc = json.loads(result.stdout)
        assert result.returncode == 0, (doc, result.stderr[-3000:])
        state.plans[name] = doc
    yield state


@pytest.mark.parametrize("name", PLANS)
def test_sample_runs_on_two_launched_ranks_and_matches_the_baseline(runs: Runs, name: str) -> None:
    doc = runs.plans[name]
    run_dir = Path(doc["run_dir"])
    assert doc["status"] == "finished" and doc["ranks"] == 2
    assert doc["last_step"] == {"0": 8, "1": 8}
    for rank in ("0", "1"):  # measured per rank, beside the estimate
        assert doc["measured"][rank]["step_ms_median"] > 0 and doc["measured"][rank]["host_rss_mib"] > 0
    assert doc["estimate"]["total_bytes"] > 0
    for rank in (0, 1):
        assert (run_dir / "ranks" / str(rank) / "events.jsonl").is_file()
        assert (run_dir / "ranks" / "log" / f"workerlog.{rank}").is_file()
        assert (run_dir / "ranks" / str(rank) / "checkpoints" / "step-8").is_dir()  # this rank's shards
    result = runs.wb("plan", "parity", runs.baseline["run_dir"], str(run_dir), "--json")
    parity = json.loads(result.stdout)
    assert result.returncode == 0, parity
    assert parity["max_abs_diff"] < 1e-5 and parity["first_divergence_step"] is None
    assert {c["id"] for c in parity["checks"]} >= {
        "global_batch_lr",
        "seeds",
        "metric_averaging",
        "uneven_split",
    }


def test_parity_reports_the_first_step_beyond_tolerance(runs: Runs) -> None:
    result = runs.wb(
        "plan", "parity", runs.baseline["run_dir"], runs.plans["dp"]["run_dir"], "--tolerance", "0", "--json"
    )
    parity = json.loads(result.stdout)
    if parity["max_abs_diff"] == 0:
        pytest.skip("bit-identical losses: no step differs at all")
    assert result.returncode == 1 and isinstance(parity["first_divergence_step"], int)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_exported_command_runs_as_two_nodes_over_loopback(runs: Runs) -> None:
    out = runs.root / "export"
    result = runs.wb(
        "plan", "export", str(SAMPLES / "plan_cls_dp.yaml"), "--output", str(out), *runs.overrides
    )
    assert result.returncode == 0, result.stderr[-2000:]
    commands = json.loads((out / "commands.json").read_text())
    template = commands["multi_node_template"]
    port = _free_port()
    env = dict(runs.env, PADDLE_WORKBENCH_WORKSPACE=str(runs.workspace))
    procs = []
    for rank in (0, 1):
        command = template.format(
            master=f"127.0.0.1:{port}",
            nnodes=2,
            rank=rank,
            nproc=1,
            log_dir=f"log-{rank}",
            script=commands["script"],
        )
        procs.append(
            subprocess.Popen(
                shlex.split(command), cwd=out, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )
    for proc in procs:
        assert proc.wait(240) == 0, (out / "log-0" / "workerlog.0").read_text()[-3000:]
    listed = json.loads(runs.wb("runs", "--json").stdout)["runs"]
    job = [
        r for r in listed if r["run_id"].endswith(tuple("0123456789abcdef")) and "plan_cls_dp" in r["run_id"]
    ]
    joined = [r for r in job if r["run_dir"] not in {p["run_dir"] for p in runs.plans.values()}]
    assert len(joined) == 1 and joined[0]["status"] == "finished", listed
    run_dir = Path(joined[0]["run_dir"])
    assert sorted(p.name for p in (run_dir / "ranks").iterdir()) == ["0", "1"]
    result = runs.wb("plan", "parity", runs.baseline["run_dir"], str(run_dir), "--json")
    parity = json.loads(result.stdout)
    assert result.returncode == 0 and parity["max_abs_diff"] < 1e-5, parity

    # The cluster forms carry the same command, rendered for Slurm's and the operator's variables.
    slurm = (out / "plan_cls_dp.slurm").read_text()
    assert subprocess.run(["bash", "-n", str(out / "plan_cls_dp.slurm")]).returncode == 0
    slurm_command = template.format(
        master="$MASTER_ADDR:$MASTER_PORT", nnodes="$SLURM_NNODES", rank="$SLURM_NODEID", nproc=1,
        log_dir="log/node-$SLURM_NODEID", script=commands["script"],
    )  # fmt: skip
    assert f"srun bash -c {shlex.quote(slurm_command)}" in slurm and "#SBATCH --nodes=2" in slurm
    manifest = yaml.safe_load((out / "plan_cls_dp.paddlejob.yaml").read_text())
    assert manifest["kind"] == "PaddleJob" and manifest["spec"]["worker"]["replicas"] == 2
    container = manifest["spec"]["worker"]["template"]["spec"]["containers"][0]
    assert container["command"][-1] == template.format(
        master="$(PADDLE_MASTER)", nnodes=2, rank="$(PADDLE_TRAINER_ID)", nproc=1, log_dir="log",
        script=f"/workspace/{commands['script']}",
    )  # fmt: skip
    compile(((out / "plan_cls_dp.py").read_text()), "plan_cls_dp.py", "exec")


def _leftovers(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in part for part in proc.info["cmdline"] or ()):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def test_a_hanging_rank_is_named_by_the_watchdog_and_nothing_is_left_running(runs: Runs) -> None:
    env = dict(runs.env, PADDLE_WORKBENCH_INJECT="hang@4:600", PADDLE_WORKBENCH_INJECT_RANK="1")
    result = runs.wb(
        "plan", "run", str(SAMPLES / "plan_cls_tp.yaml"), *runs.overrides, "-o", "alerts.hang_after_s=2",
        "--watchdog", "6", "--json", env=env, timeout=200,
    )  # fmt: skip
    doc = json.loads(result.stdout)
    assert result.returncode == 1, doc
    assert doc["status"] == "failed" and doc["rank"] == 1, doc
    assert "rank 1 stalled after step 3" in doc["error"]
    run_dir = Path(doc["run_dir"])
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    failed = events[-1]
    assert failed["type"] == "run_failed" and failed["rank"] == 1
    assert "Python stack of rank 1" in failed["traceback"] and "_inject" in failed["traceback"]
    alerts = [e for e in events if e["type"] == "alert_raised" and e["kind"] == "stalled"]
    assert alerts and alerts[0]["rank"] == 1  # the monitor shows it as an alert with its evidence
    assert not _leftovers(str(run_dir)), "rank or launcher processes outlived the run"


def test_the_plan_screens_parity_finds_the_plans_run_and_its_baseline(runs: Runs) -> None:
    from workbench.parallel.parity import latest_pair
    from workbench.runs import RunStore

    pair = latest_pair(RunStore(runs.workspace), SAMPLES / "plan_cls_tp.yaml")
    assert pair is not None
    assert pair[0] == Path(runs.baseline["run_dir"]) and pair[1] == Path(runs.plans["tp"]["run_dir"])
