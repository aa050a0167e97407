"""``plan run`` stopped every way a job stops, with 2 real CPU ranks under ``paddle.distributed.launch``:
nothing of the job may be left running afterwards (checked with psutil), and the run says what happened.

Each stop path is one real ``paddle-workbench plan run`` of the bundled data-parallel sample on a long
run: SIGTERM, SIGHUP and one SIGINT (stop after the same step on every rank, checkpoints, ``cancelled``,
exit ``128 + N``), two SIGINTs (everything ends at once, still ``cancelled``, no click "Aborted!"), a rank
stopped with SIGSTOP (the watchdog names it and ends it: no process left in state ``T``) and a rank killed
with ``kill -9`` (the run names that rank and its signal; rank 0's broken connection is a consequence).
The launcher starts each rank in a session of its own, which is why a leftover check must look at every
process, not at the command's process group. A launch costs ~10 s of start-up: the sample data is made
once for the module.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
WAIT_S = 240.0


def _overrides(data: Path) -> list[str]:
    values = [
        f"data.dir={data}", "data.demo={train: 512, val: 64, seed: 0}", "train.steps=100000",
        "eval.every=0", "checkpoint.every=0", "export.enabled=false", "train.warmup_steps=0",
        "alerts.hang_after_s=600", *NARROW,
    ]  # fmt: skip
    return [arg for value in values for arg in ("-o", value)]


NARROW = ("model.width=4", "model.hidden=16")
"""The sample's model, narrowed (a step costs a quarter of the sample's on 2 CPU ranks): what these
tests check — how the job stops, at which step, and that nothing of it is left — does not depend on
the model's size."""


STOP_LEAD_S = 0.5
"""The plan's ``stop_lead_s``: ranks stop after the step they reach about this long after the stop (at
least two steps on). What these tests check — the same step on every rank, nothing left — holds for
any lead; a short one spares each stop a second and a half of training."""


def _plan(data: Path) -> Path:
    """The bundled data-parallel sample plan, with :data:`STOP_LEAD_S`, beside ``data``."""
    return data.parent / "plan_cls_dp.yaml"


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's demo data, made once (``plan run`` makes it when it is missing), the sample plan with
    a short stop lead beside it (:func:`_plan`), and the model facts of the plan's check built once
    into ``<data>/../facts`` (each test's workspace starts with a copy, as a user's second ``plan run``
    of an unchanged config finds them: the jobs under test, not the build)."""
    from workbench.datasets import generate_cls_demo
    from workbench.parallel.validate import check_plan

    folder = tmp_path_factory.mktemp("ends-whole-data") / "cls"
    generate_cls_demo(folder, n_train=512, n_val=64, seed=0)
    plan = (SAMPLES / "plan_cls_dp.yaml").read_text(encoding="utf-8")
    plan = plan.replace("train: train_cls_mlp.yaml", f"train: {SAMPLES / 'train_cls_mlp.yaml'}")
    _plan(folder).write_text(f"{plan}stop_lead_s: {STOP_LEAD_S}\n", encoding="utf-8")
    overrides = _overrides(folder)[1::2]
    report = check_plan(_plan(folder), train_overrides=overrides, facts_cache=folder.parent / "facts")
    assert report.ok and any((folder.parent / "facts").iterdir()), [str(e) for e in report.errors]
    return folder


class PlanRun:
    """One ``plan run`` subprocess and what the test needs to watch it."""

    def __init__(
        self, root: Path, data: Path, *extra: str, env: dict[str, str] | None = None, nohup: bool = False
    ) -> None:
        self.workspace = root / "ws"
        import shutil

        shutil.copytree(data.parent / "facts", self.workspace / "cache" / "model-facts", dirs_exist_ok=True)
        self.env = dict(os.environ, HOME=str(root / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
        for name in ("PADDLE_WORKBENCH_INJECT", "PADDLE_WORKBENCH_INJECT_RANK", "PADDLE_WORKBENCH_RUN_DIR"):
            self.env.pop(name, None)
        self.env.update(env or {})
        argv = [
            sys.executable, "-m", "workbench", "--workspace", str(self.workspace), "plan", "run",
            str(_plan(data)), *_overrides(data), "--json", *extra,
        ]  # fmt: skip
        if nohup:  # started with SIGHUP ignored, as `nohup` does
            argv.insert(0, "nohup")
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env, cwd=root
        )
        self.out = ""
        self.err = ""

    @property
    def run_dir(self) -> Path:
        runs = list((self.workspace / "runs").iterdir()) if (self.workspace / "runs").is_dir() else []
        assert len(runs) == 1, runs
        return runs[0]

    def progress(self, rank: int) -> int:
        """The step rank ``rank`` is in (its ``progress`` file, written every step), or -1."""
        from workbench.parallel.worker import read_progress

        try:
            found = read_progress(self.run_dir / "ranks" / str(rank) / "progress")
        except AssertionError:
            return -1
        return found[0] if found else -1

    def rank_pid(self, rank: int) -> int:
        return int((self.run_dir / "ranks" / str(rank) / "pid").read_text())

    def wait_until(self, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if ready():
                return
            if self.proc.poll() is not None:
                out, err = self.proc.communicate()
                pytest.fail(f"plan run ended early ({self.proc.returncode}): {out[-2000:]} {err[-3000:]}")
            time.sleep(0.1)
        pytest.fail("the run never got there")

    def training(self, steps: int = 3) -> None:
        """Wait until both ranks are past ``steps`` steps."""
        self.wait_until(lambda: min(self.progress(0), self.progress(1)) > steps)

    def finish(self) -> dict[str, Any]:
        self.out, self.err = self.proc.communicate(timeout=WAIT_S)
        try:
            doc: dict[str, Any] = json.loads(self.out)
        except ValueError:
            pytest.fail(f"no JSON document ({self.proc.returncode}): {self.out[-2000:]} {self.err[-3000:]}")
        return doc

    def events(self) -> list[dict[str, Any]]:
        text = (self.run_dir / "events.jsonl").read_text()
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def _job_processes(workspace: Path) -> list[str]:
    """Every live process of a job in ``workspace``: the command, the launcher, the ranks and their
    supervisors (by their command line or their ``$PADDLE_WORKBENCH_RUN_DIR``), zombies excepted."""
    marker = str(workspace)
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        try:
            if proc.pid == os.getpid() or proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            cmdline = " ".join(proc.info["cmdline"] or ())
            if marker in cmdline or marker in proc.environ().get("PADDLE_WORKBENCH_RUN_DIR", ""):
                found.append(f"{proc.pid} [{proc.status()}] {cmdline[:160]}")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def _assert_nothing_left(workspace: Path) -> None:
    """No process of the job runs: checked at once (the command has exited, so it must be true now),
    then once more a moment later, to catch a rank that was still being re-parented to init."""
    assert _job_processes(workspace) == [], "processes of the job outlived it"
    time.sleep(0.5)
    assert _job_processes(workspace) == [], "processes of the job outlived it"


@pytest.fixture
def plan_run(tmp_path: Path, data: Path) -> Iterator[Callable[..., PlanRun]]:
    """Start ``plan run``; whatever a failing test leaves of the job is killed afterwards."""
    started: list[PlanRun] = []

    def start(*extra: str, env: dict[str, str] | None = None, nohup: bool = False) -> PlanRun:
        run = PlanRun(tmp_path, data, *extra, env=env, nohup=nohup)
        started.append(run)
        return run

    yield start
    for run in started:
        if run.proc.poll() is None:
            run.proc.kill()
            run.proc.communicate()
        for line in _job_processes(run.workspace):
            pid = int(line.split()[0])
            try:
                proc = psutil.Process(pid)
                proc.send_signal(signal.SIGCONT)
                proc.kill()
            except psutil.Error:
                pass


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)],
    ids=["SIGTERM", "SIGHUP", "SIGINT-once"],
)
def test_a_stop_signal_stops_every_rank_after_the_same_step(
    plan_run: Callable[..., PlanRun], signum: int, code: int
) -> None:
    """Finding 1: SIGTERM used to end the command through Paddle's handler (143) with the launcher and
    both ranks training on under init, in a run listed "interrupted"."""
    run = plan_run(nohup=signum == signal.SIGTERM)
    run.training()
    if signum == signal.SIGTERM:
        run.proc.send_signal(signal.SIGHUP)  # ignored under nohup: it stays ignored
    run.proc.send_signal(signum)
    doc = run.finish()
    assert run.proc.returncode == code, (doc, run.err[-3000:])
    assert "FatalError" not in run.err and "Traceback" not in run.err
    assert doc["status"] == "cancelled" and doc["stop_signal"] == signal.Signals(signum).name, doc
    _assert_nothing_left(run.workspace)
    state = json.loads((run.run_dir / "state.json").read_text())
    assert state["status"] == "cancelled"
    assert run.events()[-1]["type"] == "run_cancelled"
    # Both ranks stopped after the same step and saved their shards there, in one distributed checkpoint.
    steps = {int(rank): step for rank, step in doc["last_step"].items()}
    assert len(set(steps.values())) == 1 and steps[0] > 3, steps
    for rank in (0, 1):
        assert (run.run_dir / "dist_checkpoints" / f"step-{steps[0]}" / f"rank-{rank}.state.pkl").is_file()
        ended = json.loads((run.run_dir / "ranks" / str(rank) / "exit.json").read_text())
        assert ended["returncode"] == 130  # stopped on request, not killed


def test_a_second_ctrl_c_ends_every_process_at_once_and_records_cancelled(
    plan_run: Callable[..., PlanRun],
) -> None:
    """Finding 1: two Ctrl-C printed click's "Aborted!", exited 1 and recorded no ``run_cancelled``."""
    run = plan_run()
    run.training()
    run.proc.send_signal(signal.SIGINT)
    run.wait_until(lambda: (run.run_dir / "ranks" / "stop").exists())  # the first one was taken
    run.proc.send_signal(signal.SIGINT)
    doc = run.finish()
    assert run.proc.returncode == 130, (doc, run.err[-3000:])
    assert "Aborted!" not in run.err and "Traceback" not in run.err
    assert doc["status"] == "cancelled", doc
    _assert_nothing_left(run.workspace)
    assert json.loads((run.run_dir / "state.json").read_text())["status"] == "cancelled"
    assert run.events()[-1]["type"] == "run_cancelled"


def test_the_watchdog_ends_a_stopped_rank_too(plan_run: Callable[..., PlanRun]) -> None:
    """Finding 2: the watchdog named the stalled rank and ended the launcher, but the rank (a process
    group of its own) stayed alive in state T under init."""
    run = plan_run("--watchdog", "5")
    run.training()
    stalled = psutil.Process(run.rank_pid(1))
    stalled.suspend()  # SIGSTOP: state T, deaf to SIGTERM until continued
    doc = run.finish()
    _assert_nothing_left(run.workspace)
    assert run.proc.returncode == 1, (doc, run.err[-3000:])
    assert doc["status"] == "failed" and doc["rank"] == 1, doc
    assert "rank 1 stalled" in doc["error"]


def test_a_rank_killed_with_sigkill_is_named_with_its_signal(plan_run: Callable[..., PlanRun]) -> None:
    """Finding 5: the run said "exit code 241/250", named no rank and no signal, and showed rank 0's
    gloo error as if rank 0 were the cause."""
    run = plan_run()
    run.training()
    os.kill(run.rank_pid(1), signal.SIGKILL)
    doc = run.finish()
    _assert_nothing_left(run.workspace)
    assert run.proc.returncode == 1, (doc, run.err[-3000:])
    assert doc["status"] == "failed" and doc["rank"] == 1, doc
    assert doc["error"].startswith("rank 1: killed by SIGKILL"), doc["error"]
    failed = run.events()[-1]
    assert failed["type"] == "run_failed" and failed["rank"] == 1
    assert "last lines of rank 1's log (workerlog.1)" in failed["traceback"]
    if "rank(s) 0" in doc["error"]:  # rank 0 died of the broken connection: named as a consequence
        assert "as a consequence, not a cause" in doc["error"]
    assert (run.run_dir / "ranks" / "log" / "workerlog.1").is_file()
    ended = json.loads((run.run_dir / "ranks" / "1" / "exit.json").read_text())
    assert ended["signal"] == "SIGKILL"


def test_the_ranks_end_when_the_command_that_owns_them_is_killed(plan_run: Callable[..., PlanRun]) -> None:
    """``kill -9`` of the command itself (it can end nothing then): the ranks' supervisors see their
    owner gone and stop every rank after the same step, so the launcher ends too; the run reads
    ``interrupted``. Each rank stops on request at that step (a stop signal to each rank would stop
    each after its own next step, and the first to stop would leave its peer waiting in a collective
    until its supervisor killed it)."""
    run = plan_run()
    run.training()
    run.proc.kill()
    run.proc.communicate()
    deadline = time.monotonic() + WAIT_S
    while _job_processes(run.workspace) and time.monotonic() < deadline:
        time.sleep(0.2)
    _assert_nothing_left(run.workspace)
    from workbench.runs import summarize

    assert summarize(run.run_dir).status == "interrupted"
    ended = [json.loads((run.run_dir / "ranks" / str(r) / "exit.json").read_text()) for r in (0, 1)]
    assert [doc["returncode"] for doc in ended] == [130, 130], ended  # stopped on request, not killed
    stop_step = json.loads((run.run_dir / "ranks" / "stop").read_text())["step"]
    for rank in (0, 1):
        assert (run.run_dir / "dist_checkpoints" / f"step-{stop_step}" / f"rank-{rank}.state.pkl").is_file()


def test_sighup_on_a_terminal_sends_the_remaining_lines_to_the_run_log(tmp_path: Path, data: Path) -> None:
    """A dropped SSH session: nothing more is written to the dead terminal; the lines go to logs.txt."""
    master, slave = pty.openpty()
    workspace = tmp_path / "ws"
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
    argv = [
        sys.executable, "-m", "workbench", "--workspace", str(workspace), "plan", "run",
        str(_plan(data)), *_overrides(data),
    ]  # fmt: skip
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    shown = bytearray()

    def read_terminal() -> None:
        with contextlib.suppress(OSError):  # EIO once every writer of the terminal is gone
            while chunk := os.read(master, 65536):
                shown.extend(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        from workbench.parallel.worker import read_progress

        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and proc.poll() is None:
            found = [read_progress(path) for path in workspace.glob("runs/*/ranks/*/progress")]
            if len(found) == 2 and all(p is not None and p[0] > 3 for p in found):
                break
            time.sleep(0.1)
        assert proc.poll() is None, shown.decode(errors="replace")[-3000:]
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(timeout=WAIT_S) == 129
        reader.join(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    _assert_nothing_left(workspace)
    [run_dir] = list((workspace / "runs").iterdir())
    terminal = shown.decode(errors="replace")
    assert "started on 2 ranks" in terminal and "run cancelled" not in terminal, terminal[-2000:]
    logs = (run_dir / "logs.txt").read_text(errors="replace")
    assert "SIGHUP received" in logs and "run cancelled" in logs
    assert json.loads((run_dir / "state.json").read_text())["status"] == "cancelled"
