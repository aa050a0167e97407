"""``plan run`` against a hand launch of the same job: what the workbench costs around Paddle's launcher.

In a temporary folder, copies the tensor-parallel sample (``sample_configs/plan_cls_tp.yaml`` and its
training config, 2 ranks on CPU) and runs, once and unmeasured, ``plan validate`` (which builds the demo
data and fills the workspace's model-facts cache, so every measured ``plan run`` reuses the facts and
builds no model) and ``plan export``. Then it times, from process start to exit, alternating pairs (the
order flipped every pair, after one unmeasured run of each that warms the page cache and Python's
bytecode cache):

* ``plan``: ``paddle-workbench plan run plan_cls_tp.yaml -o train.steps=N`` — check the plan (facts
  from the cache), create the run, start ``python -m paddle.distributed.launch``, follow the ranks
  (watchdog, system sampler, events), report;
* ``hand``: ``python -m paddle.distributed.launch --nproc_per_node 2 --log_dir DIR plan_cls_tp.py`` in
  the export folder, the file ``plan export`` wrote — the same model, data, steps and plan, under the
  user's own launcher. Each rank still trains with the workbench's engine and lands in the workspace
  as one run with a stream per rank (rank 0 samples the system), so this is ``plan run``'s cost against
  the same job launched by hand, not against a bare Paddle script.

It prints every pair, the medians of wall and CPU time (every process of the job), plan / hand, the
median of the per-pair differences, the fastest run of each (about half the runs of either kind spend
~3 s instead of ~0.3 s in their first step, which makes single pairs differ by ±25 %), the medians of
the runs without that slow first step, the load average around every pair, and where ``plan run``'s time
goes: before the launch (up to its "started on" line), from start to the ranks' first step, training,
and from the ranks' last event to the command's exit — the same phases for the hand launch. A ``plan
run`` that built the model after all is marked (the cache key includes the workbench's own code, so
editing the package while the benchmark runs makes the next run build once) and counted.

Run from the repository root: ``python benchmarks/plan_run_overhead.py [--pairs 5] [--steps 100]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLAN = "plan_cls_tp.yaml"
TRAIN = "train_cls_mlp.yaml"
STARTED = "started on "
SLOW_FIRST_STEP_S = 1.5
"""A first step longer than this is Paddle's ~3 s one (the usual first step takes ~0.3 s)."""
REUSED = "not built again"


@dataclass
class Timing:
    wall_s: float
    cpu_s: float
    rebuilt: bool = False
    """``plan run`` built the model again (the facts cache missed: the workbench's code changed)."""
    phases: dict[str, float] = field(default_factory=dict)


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _events(path: Path) -> list[dict[str, Any]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def _rank_times(run_dir: Path) -> tuple[float, float, float] | None:
    """Wall-clock time when the slowest rank ended its first step, of the last event of any rank, and
    the longest first step (seconds)."""
    firsts, lasts, first_s = [], [], []
    for events_file in sorted((run_dir / "ranks").glob("*/events.jsonl")):
        events = [e for e in _events(events_file) if isinstance(e.get("time"), int | float)]
        step1 = [e for e in events if e.get("type") == "metrics" and e.get("step") == 1]
        if step1:
            firsts.append(min(float(e["time"]) for e in step1))
            lasts.append(max(float(e["time"]) for e in events))
            first_s.extend(float(e.get("values", {}).get("step_ms") or 0.0) / 1000.0 for e in step1)
    if not firsts:
        return None
    return max(firsts), max(lasts), max(first_s, default=0.0)


def _new_run(runs: Path, before: set[str]) -> Path | None:
    made = sorted(set(os.listdir(runs)) - before) if runs.is_dir() else []
    return runs / made[-1] if made else None


def run_timed(argv: list[str], cwd: Path, env: dict[str, str], runs: Path, log: Path) -> Timing:
    """Run ``argv`` to its end; its wall and CPU time and its phases (see the module docstring)."""
    before = set(os.listdir(runs)) if runs.is_dir() else set()
    cpu0 = _cpu_children()
    started_wall = time.time()
    started = time.perf_counter()
    launched_at: float | None = None
    reused = False
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            if launched_at is None and line.startswith(STARTED):
                launched_at = time.perf_counter() - started
            reused = reused or REUSED in line
            out.write(line)
        code = proc.wait()
    wall = time.perf_counter() - started
    cpu = _cpu_children() - cpu0
    if code != 0:
        tail = "".join(log.read_text(encoding="utf-8").splitlines(keepends=True)[-30:])
        run_dir = _new_run(runs, before)
        for worker_log in sorted(run_dir.glob("ranks/log/workerlog.*")) if run_dir is not None else []:
            lines = worker_log.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
            tail += f"--- {worker_log.name}\n" + "".join(lines[-40:])
        raise SystemExit(f"{' '.join(argv)} exited {code}; the end of its output:\n{tail}")
    phases: dict[str, float] = {}
    run_dir = _new_run(runs, before)
    ranks = _rank_times(run_dir) if run_dir is not None else None
    if launched_at is not None:
        phases["before launch"] = launched_at
    if ranks is not None:
        first_step, last_event, phases["first step"] = ranks
        phases["to first step"] = first_step - started_wall - phases.get("before launch", 0.0)
        phases["training"] = last_event - first_step
        phases["after ranks"] = started_wall + wall - last_event
    rebuilt = launched_at is not None and not reused
    return Timing(wall, cpu, rebuilt, phases)


def _cli() -> list[str]:
    """``paddle-workbench`` as installed beside this Python (what a user types), else ``-m workbench``."""
    script = Path(sys.executable).parent / "paddle-workbench"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "workbench"]


def _setup(work: Path, env: dict[str, str], steps: int) -> tuple[Path, Path]:
    """The sample plan and its training config in ``work/configs``, its data made, the facts cached,
    the export written; returns (configs folder, export folder)."""
    configs = work / "configs"
    configs.mkdir()
    for name in (PLAN, TRAIN):
        shutil.copy2(ROOT / "sample_configs" / name, configs / name)
    cli = _cli()
    override = ["-o", f"train.steps={steps}"]
    for argv in (
        [*cli, "plan", "validate", PLAN, *override],
        [*cli, "plan", "export", PLAN, "--output", str(work / "export"), *override],
    ):
        done = subprocess.run(argv, cwd=configs, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return configs, work / "export"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pairs", type=int, default=5, help="measured pairs (one run of each, alternating)")
    parser.add_argument("--steps", type=int, default=100, help="training steps of the job")
    args = parser.parse_args()
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as on a user's machine from the 2nd run
    with tempfile.TemporaryDirectory(prefix="plan_run_bench_") as tmp:
        work = Path(tmp)
        workspace = work / "ws"
        env = dict(
            base,
            PYTHONPATH=str(ROOT),
            PADDLE_WORKBENCH_LANG="en",
            PADDLE_WORKBENCH_WORKSPACE=str(workspace),
        )
        print(f"load average before setup: {_load()}")
        configs, export = _setup(work, env, args.steps)
        runs = workspace / "runs"
        commands = {
            "plan": (
                [*_cli(), "plan", "run", PLAN, "-o", f"train.steps={args.steps}"],
                configs,
            ),
            "hand": (
                [
                    sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
                    "--log_dir", str(work / "hand-log"), "plan_cls_tp.py",
                ],
                export,
            ),
        }  # fmt: skip
        logs = work / "logs"
        logs.mkdir()

        def one(kind: str, index: int) -> Timing:
            argv, cwd = commands[kind]
            return run_timed(argv, cwd, env, runs, logs / f"{kind}-{index}.txt")

        one("plan", 0)
        one("hand", 0)
        results: dict[str, list[Timing]] = {"plan": [], "hand": []}
        loads: list[str] = []
        print(f"{args.pairs} pairs, {args.steps} steps, 2 CPU ranks, tensor parallel (the sample plan)")
        print(
            f"{'pair':>4}  {'first':<5} {'plan s':>7} {'hand s':>7} {'ratio':>6}  load average before → after"
        )
        for pair in range(1, args.pairs + 1):
            order = ("plan", "hand") if pair % 2 else ("hand", "plan")
            load_before = _load()
            timings = {kind: one(kind, pair) for kind in order}
            loads.extend([load_before, _load()])
            for kind in order:
                results[kind].append(timings[kind])
            plan_s, hand_s = timings["plan"].wall_s, timings["hand"].wall_s
            print(
                f"{pair:>4}  {order[0]:<5} {plan_s:7.2f} {hand_s:7.2f} {plan_s / hand_s:6.3f}  "
                f"{load_before} → {loads[-1]}"
                + ("  (plan run built the model: cache missed)" if timings["plan"].rebuilt else ""),
                flush=True,
            )
        wall = {kind: statistics.median(t.wall_s for t in results[kind]) for kind in results}
        cpu = {kind: statistics.median(t.cpu_s for t in results[kind]) for kind in results}
        diffs = [p.wall_s - h.wall_s for p, h in zip(results["plan"], results["hand"], strict=True)]
        ratios = [p.wall_s / h.wall_s for p, h in zip(results["plan"], results["hand"], strict=True)]
        ones = [float(value) for text in loads for value in text.split()[:1]]
        print(
            f"median wall: plan run {wall['plan']:.2f} s, hand launch {wall['hand']:.2f} s: "
            f"plan / hand = {wall['plan'] / wall['hand']:.3f} (budget ≤ 1.10); per-pair ratios "
            f"{min(ratios):.3f}–{max(ratios):.3f}, median {statistics.median(ratios):.3f}"
        )
        print(f"median of the per-pair differences: {statistics.median(diffs):+.2f} s")
        fastest = {kind: min(t.wall_s for t in results[kind]) for kind in results}
        print(
            f"fastest of each (about half the runs of either kind spend ~3 s instead of ~0.3 s in their first step): "
            f"plan run {fastest['plan']:.2f} s, hand launch {fastest['hand']:.2f} s: "
            f"{fastest['plan'] / fastest['hand']:.3f}"
        )
        print(
            f"median CPU (every process of the job): plan run {cpu['plan']:.2f} s, hand launch "
            f"{cpu['hand']:.2f} s: {cpu['plan'] / cpu['hand']:.3f}"
        )
        print(f"1-minute load average over the pairs: {min(ones):.2f}–{max(ones):.2f}")
        calm = {
            kind: [t.wall_s for t in results[kind] if t.phases.get("first step", 0.0) < SLOW_FIRST_STEP_S]
            for kind in results
        }
        if calm["plan"] and calm["hand"]:
            plan_calm, hand_calm = statistics.median(calm["plan"]), statistics.median(calm["hand"])
            print(
                f"runs whose first step took under {SLOW_FIRST_STEP_S:g} s: plan run {len(calm['plan'])} of "
                f"{args.pairs}, median {plan_calm:.2f} s; hand launch {len(calm['hand'])} of {args.pairs}, "
                f"median {hand_calm:.2f} s: {plan_calm / hand_calm:.3f}"
            )
        rebuilt = sum(t.rebuilt for t in results["plan"])
        if rebuilt:
            print(f"{rebuilt} of {args.pairs} plan runs built the model (the facts cache missed)")
        print("where the time goes (median seconds):")
        for kind in ("plan", "hand"):
            parts = []
            for name in ("before launch", "to first step", "first step", "training", "after ranks"):
                values = [t.phases[name] for t in results[kind] if name in t.phases]
                if values:
                    parts.append(f"{name} {statistics.median(values):.2f}")
            print(f"  {kind}: " + ", ".join(parts))


if __name__ == "__main__":
    main()
