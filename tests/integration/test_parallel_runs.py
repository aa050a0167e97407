"""Sharding plans run for real: 2 CPU ranks through ``paddle.distributed.launch``, parity with the baseline.

One module-scoped set of runs (a 2-rank launch costs ~10 s, nearly all start-up) is shared by the
tests and started together, four at a time: the single-card baseline of ``train_cls_mlp.yaml`` and the
data-parallel, sharding-level, column/row tensor-parallel and 2-D (dp × mp, 4 ranks) samples, all on
the same 100 steps — long enough for float32 rounding to be amplified by training, which the parity
verdict must tell from a real error — and the runs that plant the real errors a verdict must name
(another seed, an un-scaled learning rate, a wrong global batch, a loop of the user's own that never
all-reduces its gradients). A run of another model is one that parity must refuse. Then the export folder, copied elsewhere, runs as two "nodes" over
loopback (one through launch.sh, one through the PaddleJob's command with the operator's variables),
and a rank that hangs is named by the watchdog with nothing left running. The verdict's combinatorics are unit
tests on curves recorded from such runs (tests/unit/test_parity_verdict.py).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
import yaml

from tests.parallel_helpers import (
    cache_plan_facts,
    concurrently,
    kubernetes_expand,
    operator_env,
    prepare_cls_data,
    workbench_in_process,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
PLANS = ("dp", "sharding", "tp", "2d")
NPROC = {"2d": 4}
STEPS = 100


def _overrides(data: Path) -> list[str]:
    values = [
        f"data.dir={data}", "data.demo={train: 512, val: 64, seed: 0}", f"train.steps={STEPS}", "eval.every=0",
        "eval.max_samples=64", "checkpoint.every=0", "export.enabled=false", "train.warmup_steps=2",
        "model.width=4",  # a tiny model: its 100 steps cost little beside a launch's start-up
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
        self.planted: dict[str, tuple[Path, Path]] = {}
        """``name -> (baseline, run with the planted error)``."""
        self.others: set[str] = set()
        """Run folders of plan_cls_dp.yaml made for other tests (the planted errors)."""
        self.hung: subprocess.CompletedProcess[str] | None = None
        """``plan run`` of the tp sample with a rank that hangs (it must fail, naming that rank)."""

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "workbench", "--workspace", str(self.workspace), *args]

    def run(
        self, argv: list[str], env: dict[str, str] | None = None, timeout: float = 240
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, capture_output=True, text=True, env=env or self.env, timeout=timeout, cwd=self.root
        )

    def wb(
        self, *args: str, env: dict[str, str] | None = None, timeout: float = 240
    ) -> subprocess.CompletedProcess[str]:
        return self.run(self.argv(*args), env=env, timeout=timeout)

    def parity(self, *args: str) -> tuple[int, dict[str, Any]]:
        """``plan parity ARGS --json`` (in this process: it reads run folders, nothing more); the exit
        code and the document."""
        result = workbench_in_process(self.workspace, "plan", "parity", *args, "--json")
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        return result.exit_code, json.loads(result.stdout)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """Every launched run the module's tests read, started together (four at a time, the longest
    first): the four samples and the single-card baseline, three dp runs with a planted error and a
    baseline of their length, a loop of the user's own without gradient sync (launched and as one
    process), and the tp sample with a rank that hangs. The demo data and the samples' model facts are
    made once before, as a user's second run finds them."""
    state = Runs(tmp_path_factory.mktemp("parallel"))
    prepare_cls_data(state.root / "data", n_train=512, n_val=64)
    cache_plan_facts(SAMPLES / "plan_cls_dp.yaml", state.workspace, state.overrides[1::2])
    script = state.root / "manual_dp.py"
    script.write_text(MANUAL_DP)
    manual_env = dict(state.env, PADDLE_WORKBENCH_WORKSPACE=str(state.workspace))
    launcher = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2"]
    jobs: dict[str, tuple[list[str], dict[str, str] | None]] = {}
    for name in sorted(PLANS, key=lambda plan: -NPROC.get(plan, 2)):
        nproc = ("--nproc", str(NPROC[name])) if name in NPROC else ()
        plan = str(SAMPLES / f"plan_cls_{name}.yaml")
        jobs[name] = (state.argv("plan", "run", plan, *nproc, *state.overrides, "--json"), None)
    log_dir = str(state.root / "manual-log")
    jobs["manual-launched"] = ([*launcher, "--log_dir", log_dir, str(script)], manual_env)
    short = ["-o", f"train.steps={PLANTED_STEPS}"]
    for name, values in PLANTED.items():
        extra = [arg for value in values for arg in ("-o", value)]
        dp = str(SAMPLES / "plan_cls_dp.yaml")
        argv = state.argv("plan", "run", dp, *state.overrides, *short, *extra, "--json")
        jobs[f"planted-{name}"] = (argv, None)
    train = str(SAMPLES / "train_cls_mlp.yaml")
    jobs["baseline"] = (state.argv("train", train, *state.overrides, "--plain", "--json"), None)
    jobs["baseline-short"] = (state.argv("train", train, *state.overrides, *short, "--plain", "--json"), None)
    jobs["manual-single"] = ([sys.executable, str(script)], manual_env)
    hang = dict(state.env, PADDLE_WORKBENCH_INJECT="hang@4:600", PADDLE_WORKBENCH_INJECT_RANK="1")
    tp = str(SAMPLES / "plan_cls_tp.yaml")
    jobs["hang"] = (
        state.argv(
            "plan", "run", tp, *state.overrides, "-o", "alerts.hang_after_s=2", "--watchdog", "6", "--json"
        ),
        hang,
    )
    done = concurrently({key: functools.partial(state.run, argv, env) for key, (argv, env) in jobs.items()})
    state.hung = done.pop("hang")
    for key, result in done.items():
        assert result.returncode == 0, (key, result.stdout[-2000:], result.stderr[-3000:])
    state.baseline = json.loads(done["baseline"].stdout)
    state.plans = {name: json.loads(done[name].stdout) for name in PLANS}
    baseline = Path(json.loads(done["baseline-short"].stdout)["run_dir"])
    for name in PLANTED:
        doc = json.loads(done[f"planted-{name}"].stdout)
        state.planted[name] = (baseline, Path(doc["run_dir"]))
        state.others.add(doc["run_dir"])
    manual = sorted((state.workspace / "runs").glob("*manual_dp*"))
    single = next(d for d in manual if not (d / "ranks").is_dir())
    launched = next(d for d in manual if (d / "ranks").is_dir())
    state.planted["no_grad_sync"] = (single, launched)
    yield state


@pytest.mark.parametrize("name", PLANS)
def test_sample_runs_on_launched_ranks_and_passes_parity_at_100_steps(runs: Runs, name: str) -> None:
    doc = runs.plans[name]
    run_dir = Path(doc["run_dir"])
    ranks = [str(r) for r in range(NPROC.get(name, 2))]
    assert doc["status"] == "finished" and doc["ranks"] == len(ranks)
    assert doc["last_step"] == dict.fromkeys(ranks, STEPS)
    for rank in ranks:  # measured per rank, beside the estimate
        assert doc["measured"][rank]["step_ms_median"] > 0 and doc["measured"][rank]["host_rss_mib"] > 0
    assert doc["estimate"]["total_bytes"] > 0
    for rank in ranks:
        assert (run_dir / "ranks" / rank / "events.jsonl").is_file()
        assert (run_dir / "ranks" / "log" / f"workerlog.{rank}").is_file()
        assert (run_dir / "dist_checkpoints" / f"step-{STEPS}" / f"rank-{rank}.state.pkl").is_file()
    # The model as built, before the plan split it: the baseline's fingerprint.
    baseline_model = json.loads((Path(runs.baseline["run_dir"]) / "model.json").read_text())
    assert json.loads((run_dir / "model.json").read_text())["sha256"] == baseline_model["sha256"]
    code, parity = runs.parity(runs.baseline["run_dir"], str(run_dir))
    assert code == 0, parity
    assert parity["ok"] and parity["verdict"] in ("match", "match_amplified"), parity["verdict_text"]
    assert parity["first_divergence_step"] is None and parity["comparable"]["model_by_fingerprint"]
    assert parity["verdict_text"].startswith("parity holds")
    assert len(parity["curves"]["steps"]) == STEPS and len(parity["curves"]["floor"]) == STEPS
    assert parity["next"] == f"paddle-workbench compare {Path(runs.baseline['run_dir']).name}"
    assert {c["id"] for c in parity["checks"]} >= {
        "global_batch",
        "learning_rate",
        "seeds",
        "metric_averaging",
        "uneven_split",
    }


def test_parity_reports_the_first_step_beyond_tolerance(runs: Runs) -> None:
    code, parity = runs.parity(runs.baseline["run_dir"], runs.plans["dp"]["run_dir"], "--tolerance", "0")
    if parity["max_abs_diff"] == 0:
        pytest.skip("bit-identical losses: no step differs at all")
    assert code == 1 and isinstance(parity["first_divergence_step"], int)


PLANTED_STEPS = 20
"""The planted errors' runs and their baseline train this many steps: each error shows at step 1 or 2
(the 100 steps are for telling float32 rounding, amplified, from a real error)."""
PLANTED = {
    "seed": ["train.seed=43"],
    "unscaled_lr": ["train.batch_size=128"],  # the global batch doubled, the learning rate left as it was
    "wrong_batch": ["train.batch_size=32", "train.lr=0.025"],  # a scaled lr, but not the baseline's batch
}
NAMED = {
    "seed": {"seeds"},
    "unscaled_lr": {"learning_rate", "global_batch"},
    "wrong_batch": {"global_batch"},
    "no_grad_sync": {"gradient_sync"},
}

MANUAL_DP = textwrap.dedent(
    """\
    # A data-parallel loop of the user's own that never all-reduces its gradients.
    import os

    import numpy as np
    import paddle

    from workbench import track

    rank = int(os.environ.get("PADDLE_TRAINER_ID", "0"))
    world = int(os.environ.get("PADDLE_TRAINERS_NUM", "1"))
    config = {
        "task": "image_classification",
        "model": {"name": "mlp", "hidden": 32},
        "data": {"dir": "synthetic", "format": "cls", "demo": {"train": 512, "val": 64, "seed": 0}},
        "train": {"steps": 100, "batch_size": 64, "lr": 0.1, "optimizer": "sgd", "seed": 7},
    }
    if world > 1:
        config["parallel"] = {"mesh": {"shape": [world], "dim_names": ["dp"]}}
    track.init(name="manual_dp", config=config, system=False)
    paddle.seed(7)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(512, 16)).astype("float32")
    y = (x @ rng.normal(size=(16, 4))).argmax(1).astype("int64")
    model = paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(), paddle.nn.Linear(32, 4))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    for step in range(1, 101):
        start = (step - 1) * 64 % 512
        xb, yb = x[start : start + 64][rank::world], y[start : start + 64][rank::world]
        loss = paddle.nn.functional.cross_entropy(model(paddle.to_tensor(xb)), paddle.to_tensor(yb))
        loss.backward()
        opt.step()  # (a correct loop averages every gradient over the ranks first)
        opt.clear_grad()
        track.log(step, loss=float(loss))
    track.finish()
    """
)


@pytest.mark.parametrize("name", sorted(NAMED))
def test_each_planted_error_fails_parity_with_its_check_named(runs: Runs, name: str) -> None:
    baseline, run_dir = runs.planted[name]
    code, parity = runs.parity(str(baseline), str(run_dir))
    assert code == 1, parity
    assert parity["verdict"] == "diverged" and set(parity["named_causes"]) == NAMED[name], parity["checks"]
    assert parity["verdict_text"].startswith("parity does not hold")
    assert all(cause in parity["verdict_text"] for cause in NAMED[name])
    assert not parity["next"].startswith("paddle-workbench plan parity")  # never the same comparison


def test_two_different_models_are_refused_with_what_differs(runs: Runs) -> None:
    demo = runs.wb(
        "train",
        str(SAMPLES / "train_cls_demo.yaml"),
        *runs.overrides,
        "-o",
        "train.steps=2",
        "--plain",
        "--json",
    )
    assert demo.returncode == 0, demo.stderr[-3000:]
    demo_dir = Path(json.loads(demo.stdout)["run_dir"])
    tp = runs.plans["tp"]["run_dir"]
    result = workbench_in_process(runs.workspace, "plan", "parity", str(demo_dir), tp)
    assert result.exit_code == 2, result.output
    out = result.output
    assert "are not comparable" in out and "model.name: small_cnn ≠ small_cnn_mlp" in out
    assert f"parameters only in {demo_dir.name}: fc.weight, fc.bias" in out
    assert "max |Δloss|" not in out  # nothing was compared
    assert f"next: paddle-workbench plan parity {Path(runs.baseline['run_dir']).name}" in out
    code, doc = runs.parity(str(demo_dir), tp)
    assert code == 2 and doc["verdict"] == "not_comparable" and doc["compared_steps"] == 0
    assert {d["what"] for d in doc["comparable"]["differences"]} >= {"model"}
    reports = list((Path(tp) / "reports").glob("parity-*.json"))  # a refusal stores no parity report
    assert all(json.loads(p.read_text())["verdict"] != "not_comparable" for p in reports)

    # The path dashboard: the demo run is the newest single-card run, yet the parity it suggests pairs
    # the tp run with its comparable baseline.
    from workbench.runs import RunStore
    from workbench.verify.config import VerifyConfig
    from workbench.verify.layers.parallel import parity_command
    from workbench.verify.model import Context

    ctx = Context(RunStore(runs.workspace), VerifyConfig(), False, demo_dir, Path(tp))
    assert (
        parity_command(ctx)
        == f"paddle-workbench plan parity {Path(runs.baseline['run_dir']).name} {Path(tp).name}"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_exported_folder_runs_from_a_copy_as_two_nodes_over_loopback(runs: Runs) -> None:
    """The export folder, copied elsewhere (the original removed), runs as two "nodes" on loopback:
    node 0 by ``launch.sh HOST:PORT 0`` from another working directory, node 1 by the PaddleJob's own
    command under ``bash -c`` in the copy (the pod's workingDir), with paddle-operator's variables set
    as the operator sets them — one job, one run, parity with the single card."""
    made = runs.root / "export"
    result = workbench_in_process(
        runs.workspace,
        "plan",
        "export",
        str(SAMPLES / "plan_cls_dp.yaml"),
        "--output",
        str(made),
        *runs.overrides,
    )
    assert result.exit_code == 0, result.output[-2000:]
    copy = runs.root / "cluster" / "job"
    shutil.copytree(made, copy)
    shutil.rmtree(made)
    manifest = yaml.safe_load((copy / "plan_cls_dp.paddlejob.yaml").read_text())
    assert manifest["kind"] == "PaddleJob" and manifest["spec"]["worker"]["replicas"] == 2
    container = manifest["spec"]["worker"]["template"]["spec"]["containers"][0]
    # Two pods have two addresses: Paddle's launcher counts the nodes of PADDLE_TRAINER_ENDPOINTS by host
    # (its collective_compatible plugin), so the second "pod" is 127.0.0.2 (loopback too).
    endpoints = [f"127.0.0.1:{_free_port()}", f"127.0.0.2:{_free_port()}"]
    env = dict(runs.env, PADDLE_WORKBENCH_WORKSPACE=str(runs.workspace))
    elsewhere = runs.root / "node0"
    elsewhere.mkdir()
    pod_env = {**env, **operator_env(1, endpoints)}
    procs = [
        subprocess.Popen(
            ["sh", str(copy / "launch.sh"), endpoints[0], "0"], cwd=elsewhere, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        ),
        subprocess.Popen(
            ["bash", "-c", kubernetes_expand(container["command"][2], pod_env)], cwd=copy, env=pod_env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        ),
    ]  # fmt: skip
    try:
        for proc, log in zip(procs, (elsewhere / "log", copy / "log"), strict=True):
            assert proc.wait(240) == 0, [p.read_text()[-3000:] for p in sorted(log.glob("workerlog.*"))]
    finally:  # a node that failed leaves the other waiting in the rendezvous: end both launchers' groups
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(30)
    listed = json.loads(workbench_in_process(runs.workspace, "runs", "--json").stdout)["runs"]
    job = [
        r for r in listed if r["run_id"].endswith(tuple("0123456789abcdef")) and "plan_cls_dp" in r["run_id"]
    ]
    joined = [r for r in job if r["run_dir"] not in {p["run_dir"] for p in runs.plans.values()} | runs.others]
    assert len(joined) == 1 and joined[0]["status"] == "finished", listed
    run_dir = Path(joined[0]["run_dir"])
    assert sorted(p.name for p in (run_dir / "ranks").iterdir()) == ["0", "1"]
    code, parity = runs.parity(runs.baseline["run_dir"], str(run_dir))
    assert code == 0 and parity["ok"], parity
    assert subprocess.run(["bash", "-n", str(copy / "plan_cls_dp.slurm")]).returncode == 0


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
    """The tp sample with rank 1 hanging at step 4 and a 6 s watchdog (a job of the module's batch)."""
    result = runs.hung
    assert result is not None
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
