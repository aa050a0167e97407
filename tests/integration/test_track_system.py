"""A ``track`` script of the user's own records the machine like a workbench job: ``system`` rows in its
run folder at 1 Hz off the training thread, stopped with the run however it ends, once per job under
the launcher (rank 0 measures the launcher and every rank under it), and off when asked.

Real subprocesses running tiny scripts; Paddle is not needed (the scripts never import it), and the
launcher is a stand-in that starts its ranks with the environment ``paddle.distributed.launch`` gives
them (the real launcher's run is ``test_launcher_track.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from workbench.runner.launched import attach
from workbench.runs import RunStore, read_run, read_run_config
from workbench.training.track import SYSTEM_ENV, system_metrics_enabled
from workbench.troubleshoot.bundle import build_bundle

pytestmark = pytest.mark.integration

SCRIPT = textwrap.dedent(
    """
    import sys, threading, time
    from workbench import track

    workspace, outcome = sys.argv[1], sys.argv[2]
    kwargs = {"system": False} if outcome == "param-off" else {}
    run = track.init(name="tracked", workspace=workspace, **kwargs)
    print("sampler:", None if run.sampler is None else "on", flush=True)
    step, deadline = 0, time.monotonic() + 60
    while run.sampler is not None and run.sampler.samples < 2 and time.monotonic() < deadline:
        step += 1
        track.log(step, loss=1.0 / step)
        time.sleep(0.05)
    track.log(step + 1, loss=0.0)
    print("threads:", sorted(t.name.split(":")[0] for t in threading.enumerate()), flush=True)
    if outcome == "fail":
        raise RuntimeError("the script broke")
    """
)  # ends with the interpreter: the exit hooks finish the run and stop the sampler


def _run(tmp_path: Path, outcome: str, env_extra: dict[str, str] | None = None) -> tuple[str, Path]:
    script = tmp_path / "user_train.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en")
    for name in ("PADDLE_WORKBENCH_RUN_DIR", "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", SYSTEM_ENV):
        env.pop(name, None)
    env.update(env_extra or {})
    workspace = tmp_path / "ws"
    result = subprocess.run(
        [sys.executable, str(script), str(workspace), outcome],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,  # a sampler thread that kept the interpreter alive would end here
    )
    assert (result.returncode == 0) == (outcome != "fail"), result.stderr[-3000:]
    [run_dir] = RunStore(workspace).run_dirs()
    return result.stdout, run_dir


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("outcome", ["ok", "fail"])
def test_a_track_script_records_system_rows_that_the_monitor_and_report_read(
    tmp_path: Path, outcome: str
) -> None:
    out, run_dir = _run(tmp_path, outcome)
    assert "sampler: on" in out
    # The sampler ran on its own thread, never the script's.
    assert "'system-sampler'" in out.split("threads:")[1]
    rows = _rows(run_dir / "events.jsonl")
    system = [r for r in rows if r["type"] == "system"]
    assert len(system) >= 2
    assert all({"sys/cpu_percent", "sys/rss_mb"} <= set(r["values"]) for r in system)
    assert all(r["values"]["sys/rss_mb"] > 5 for r in system)  # a Python process, in MiB
    last_step = max(r["step"] for r in rows if r["type"] == "metrics")
    assert all(1 <= r["step"] <= last_step for r in system)
    # Stopped with the run: nothing after the final event, whether the script ended or raised.
    assert rows[-1]["type"] == ("run_finished" if outcome == "ok" else "run_failed")
    # The monitor reads them back as series (a finished run opened, or attached while it ran)…
    record = read_run(run_dir)
    assert record.summary.status == ("finished" if outcome == "ok" else "failed")
    assert record.summary.last_step == last_step  # system rows never move the step
    rss = record.metrics.series("sys/rss_mb")
    assert rss is not None and len(rss) == len(system)
    followed = attach(run_dir)
    try:
        assert followed.done and {"sys/cpu_percent", "sys/rss_mb"} <= set(followed.metrics.names())
    finally:
        followed.detach()
    # …and the report bundle is built from the same folder.
    bundle = build_bundle(run_dir, tmp_path / "ws", env="skip")
    assert bundle.doc["status"] == record.summary.status and bundle.doc["last_step"] == last_step


@pytest.mark.parametrize("how", ["param-off", "env-off"])
def test_system_sampling_of_a_track_script_can_be_switched_off(tmp_path: Path, how: str) -> None:
    extra = {SYSTEM_ENV: "0"} if how == "env-off" else {}
    out, run_dir = _run(tmp_path, "ok" if how == "env-off" else how, extra)
    assert "sampler: None" in out
    assert "'system-sampler'" not in out.split("threads:")[1]
    rows = _rows(run_dir / "events.jsonl")
    assert not [r for r in rows if r["type"] == "system"]
    assert rows[-1]["type"] == "run_finished"


def test_the_switch_reads_the_environment() -> None:
    assert system_metrics_enabled({})
    assert system_metrics_enabled({SYSTEM_ENV: "1"})
    assert all(not system_metrics_enabled({SYSTEM_ENV: off}) for off in ("0", "false", "No", " off "))


# --------------------------------------------------------------------------- under a launcher

LAUNCHER = textwrap.dedent(
    """
    import os, subprocess, sys
    rank_script, folder = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PADDLE_TRAINERS_NUM="2", PADDLE_MASTER="127.0.0.1:6170", PADDLE_NNODES="1",
               PADDLE_TRAINER_ENDPOINTS="127.0.0.1:6171,127.0.0.1:6172", POD_NAME="stand-in")
    ranks = [subprocess.Popen([sys.executable, rank_script, folder], env=dict(env, PADDLE_TRAINER_ID=str(r)))
             for r in (0, 1)]
    sys.exit(max(rank.wait() for rank in ranks))
    """
)

RANK = textwrap.dedent(
    """
    import os, sys, time, pathlib
    import psutil
    from workbench import track

    folder = pathlib.Path(sys.argv[1])
    rank = int(os.environ["PADDLE_TRAINER_ID"])
    run = track.init(name="launched-script")
    print(f"rank {rank} sampler:", None if run.sampler is None else "on", flush=True)
    ready, stop = folder / "ready", folder / "stop"
    step, deadline = 0, time.monotonic() + 90
    if rank == 1:  # holds 96 MiB until rank 0 has sampled it
        ballast = bytearray(96 * 2**20)
        for i in range(0, len(ballast), 4096):
            ballast[i] = 1
        ready.touch()
        while not stop.exists() and time.monotonic() < deadline:
            step += 1
            track.log(step, loss=1.0)
            time.sleep(0.05)
        sys.exit(0)
    seen = None
    while time.monotonic() < deadline:
        step += 1
        track.log(step, loss=1.0 / step)
        if ready.exists():
            if seen is None:
                seen = run.sampler.samples
            elif run.sampler.samples >= seen + 2:  # two samples taken while rank 1 held its ballast
                break
        time.sleep(0.05)
    (folder / "rank0-rss").write_text(str(psutil.Process().memory_info().rss / 2**20))
    stop.touch()
    """
)


def test_under_a_launcher_rank_0_samples_the_whole_job_once(tmp_path: Path) -> None:
    (tmp_path / "launcher.py").write_text(LAUNCHER)
    (tmp_path / "rank.py").write_text(RANK)
    workspace = tmp_path / "ws"
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_WORKSPACE=str(workspace))
    for name in ("PADDLE_WORKBENCH_RUN_DIR", SYSTEM_ENV):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, str(tmp_path / "launcher.py"), str(tmp_path / "rank.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "rank 0 sampler: on" in result.stdout and "rank 1 sampler: None" in result.stdout
    [run_dir] = RunStore(workspace).run_dirs()
    record = read_run(run_dir)
    assert record.summary.status == "finished" and record.metrics.ranks() == [0, 1]
    # One sampler for the job: its rows are in the run's own file, none in the ranks' streams.
    system = [r for r in _rows(run_dir / "events.jsonl") if r["type"] == "system"]
    assert len(system) >= 2
    for rank in (0, 1):
        assert not [r for r in _rows(run_dir / "ranks" / str(rank) / "events.jsonl") if r["type"] == "system"]
    # Its RSS is the launcher's tree: rank 0 alone cannot reach it, rank 1's 96 MiB ballast is in it.
    own = float((tmp_path / "rank0-rss").read_text())
    assert max(r["values"]["sys/rss_mb"] for r in system) > own + 96
    series = record.metrics.series("sys/rss_mb")
    assert series is not None and len(series) == len(system)


# --------------------------------------------------------------------------- in a workbench-launched child

CHILD_SCRIPT = textwrap.dedent(
    """
    import json, os, pathlib, sys, threading, time
    from workbench import track

    outcome = sys.argv[1]
    run = track.init(name="my-script", config={"lr": 0.1, "layers": 2, "note": "mine"})
    print("joined:", run.run_dir == pathlib.Path(os.environ["PADDLE_WORKBENCH_RUN_DIR"]), flush=True)
    print("sampler:", None if run.sampler is None else "on", flush=True)
    top = run.run_dir / "events.jsonl"

    def system_rows():
        lines = top.read_text().splitlines() if top.exists() else []
        return sum(1 for line in lines if json.loads(line)["type"] == "system")

    step, deadline = 0, time.monotonic() + 90
    while step < 5 or (system_rows() < 2 and time.monotonic() < deadline):  # the job's sampler ran
        step += 1
        track.log(step, loss=1.0 / step)
        time.sleep(0.05)
    run.log(step + 1, loss=0.0)  # the handle writes where track.log does
    print("threads:", sorted(t.name.split(":")[0] for t in threading.enumerate()), flush=True)
    if outcome == "fail":
        raise RuntimeError("the script broke")
    if outcome == "finish":
        run.finish()  # the script's part is over; the workbench still ends the run when the process does
        track.log(step + 2, loss=0.0)
    """
)


@pytest.mark.parametrize("outcome", ["exit", "finish", "fail"])
def test_track_init_in_a_child_the_workbench_launched_joins_its_run(
    tmp_path: Path, subprocess_env: dict[str, str], outcome: str
) -> None:
    from workbench.runner import start_launched

    script = tmp_path / "user_train.py"
    script.write_text(CHILD_SCRIPT)
    store = RunStore(tmp_path / "ws")
    env = dict(subprocess_env, PADDLE_WORKBENCH_WORKSPACE=str(store.workspace))
    env.pop(SYSTEM_ENV, None)
    job = start_launched(
        store, "launched-script", [sys.executable, str(script), outcome],
        config={"lr": 0.5, "epochs": 3}, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert job.wait(150)
    logs = (job.run_dir / "logs.txt").read_text()
    assert job.status == ("failed" if outcome == "fail" else "finished"), (job.result, logs[-3000:])
    # One run, the workbench's: no second folder in its workspace, none in the script's working folder.
    assert store.run_dirs() == [job.run_dir]
    assert not (tmp_path / ".paddle-workbench").exists()
    assert "joined: True" in logs and "sampler: None" in logs
    # The script's metrics are in it, in its rank's stream, with every step (the last ones too).
    record = read_run(job.run_dir)
    assert record.summary.name == "launched-script"
    last = max(
        r["step"] for r in _rows(job.run_dir / "ranks" / "0" / "events.jsonl") if r["type"] == "metrics"
    )
    assert record.metrics.last_step == {0: last} and last >= 6
    loss = record.metrics.series("loss")
    assert loss is not None and len(loss) == last
    # One sampler: the job's. The child started none, so no second set of rows anywhere.
    assert "'system-sampler'" not in logs.split("threads:")[1]
    top = _rows(job.run_dir / "events.jsonl")
    assert len([r for r in top if r["type"] == "system"]) >= 2
    assert not [r for r in _rows(job.run_dir / "ranks" / "0" / "events.jsonl") if r["type"] == "system"]
    # One terminal event for the run (the workbench's, last), one for the rank (the script's end).
    terminal = ("run_finished", "run_failed", "run_cancelled")
    assert [r["type"] for r in top if r["type"] in terminal] == [top[-1]["type"]]
    assert top[-1]["type"] == ("run_failed" if outcome == "fail" else "run_finished")
    rank_rows = _rows(job.run_dir / "ranks" / "0" / "events.jsonl")
    assert len([r for r in rank_rows if r["type"] in terminal]) == 1
    if outcome == "fail":
        assert record.failure is not None and "RuntimeError: the script broke" in record.failure.error
        assert "raise RuntimeError" in record.failure.traceback
    # The script's config joins the run's; the workbench's values win a clash, and the log says so.
    assert read_run_config(job.run_dir) == {"lr": 0.5, "epochs": 3, "layers": 2, "note": "mine"}
    assert "my-script" in logs and "lr" in logs


CHILD_RANK = textwrap.dedent(
    """
    import sys, threading
    from workbench import track

    run = track.init(name="ranks-script", config={"world": 2})
    for step in range(1, 6):
        track.log(step, loss=1.0 / step + run.ctx.rank)
    samplers = [t.name for t in threading.enumerate() if t.name.startswith("system-sampler")]
    print(f"rank {run.ctx.rank} sampler:", run.sampler, samplers, flush=True)
    """
)


def test_track_init_in_the_ranks_of_a_job_the_workbench_launched_joins_its_run(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    from workbench.runner import start_launched

    (tmp_path / "launcher.py").write_text(LAUNCHER)
    (tmp_path / "rank.py").write_text(CHILD_RANK)
    store = RunStore(tmp_path / "ws")
    env = dict(subprocess_env, PADDLE_WORKBENCH_WORKSPACE=str(store.workspace))
    argv = [sys.executable, str(tmp_path / "launcher.py"), str(tmp_path / "rank.py"), str(tmp_path)]
    job = start_launched(store, "two-ranks", argv, env=env, cwd=tmp_path, ranks=2)
    assert job.wait(150)
    logs = (job.run_dir / "logs.txt").read_text()
    assert job.status == "finished", (job.result, logs[-3000:])
    assert store.run_dirs() == [job.run_dir] and not (tmp_path / ".paddle-workbench").exists()
    assert "rank 0 sampler: None []" in logs and "rank 1 sampler: None []" in logs
    record = read_run(job.run_dir)
    assert record.metrics.ranks() == [0, 1] and record.metrics.last_step == {0: 5, 1: 5}
    assert read_run_config(job.run_dir) == {"world": 2}  # rank 0 recorded it; the launch had none
    for rank in (0, 1):
        rows = _rows(job.run_dir / "ranks" / str(rank) / "events.jsonl")
        assert [r["type"] for r in rows if r["type"].startswith("run_")] == ["run_finished"]
    top = _rows(job.run_dir / "events.jsonl")
    assert [r["type"] for r in top if r["type"] in ("run_finished", "run_failed")] == ["run_finished"]


def test_track_log_alone_in_a_launched_child_keeps_its_last_rows(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    from workbench.runner import start_launched

    script = tmp_path / "plain.py"
    script.write_text(
        "from workbench import track\nfor step in range(1, 201):\n    track.log(step, loss=1.0)\n"
    )
    store = RunStore(tmp_path / "ws")
    job = start_launched(
        store, "plain", [sys.executable, str(script)], env=subprocess_env, system_metrics=False
    )
    assert job.wait(60) and job.status == "finished", job.result
    # The script ends well inside the writer's flush interval: the rows still queued are written at exit.
    assert read_run(job.run_dir).metrics.last_step == {0: 200}
    assert store.run_dirs() == [job.run_dir]
