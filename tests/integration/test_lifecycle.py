"""How a ``train`` process ends when the world around it does: signals, closed pipes, kills.

Real ``paddle-workbench train`` subprocesses with real Paddle on a tiny custom model (a few ms a step),
each stopped the way production stops processes: SIGTERM (``kill``, a scheduler), SIGHUP (an SSH session
that dropped), two quick Ctrl-Cs, a reader that closes the pipe (``| head``). Each must end with a
checkpoint, a final status in ``state.json`` and ``events.jsonl``, and the documented exit code.
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

from tests.train_helpers import cli_env, event_rows
from workbench.training.checkpoints import CheckpointStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

ENTRY = """
import os
import subprocess
import sys
import time

import numpy as np
import paddle
from workbench.training import TrainParts


class Points(paddle.io.Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return np.full([4], i % 2, dtype="float32"), np.int64(i % 2)


def build(cfg):
    helper = cfg.options.get("helper_pid_file")
    if helper:
        # A process the user's code starts (a data server, a DataLoader-like worker): part of the job.
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(600)"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        with open(helper, "w") as fh:
            fh.write(str(child.pid))
    model = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    calls = [0]
    heavy_from = cfg.options.get("heavy_from", 0)
    big = paddle.randn([4000, 4000]) if heavy_from else None

    def loss(outputs, labels):
        calls[0] += 1
        if calls[0] == 1:
            # C-level writes, a screen clear among them: they must land in logs.txt, not on the terminal.
            os.write(1, b"\\x1b[2JC-LEVEL-STDOUT\\n")
            os.write(2, b"C-LEVEL-STDERR\\n")
            print("PY-PRINT", flush=True)
        if heavy_from and calls[0] >= heavy_from:
            print("HEAVY", calls[0], flush=True)
            float(paddle.matmul(big, big)[0, 0])  # ~1 s inside a Paddle kernel (GIL released)
        return paddle.nn.functional.cross_entropy(outputs, labels)

    def evaluate(model):
        flag = cfg.options.get("hang_in_eval_while")
        if flag and os.path.exists(flag):
            print("EVAL-HANG", flush=True)
            time.sleep(300)  # a test kills the process here
        return {"calls": float(calls[0])}

    return TrainParts(model=model, optimizer=opt, train_data=Points(), loss=loss, evaluate=evaluate)
"""

CONFIG = """\
task: custom
entry: lifecycle_entry:build
options: {{heavy_from: {heavy_from}, hang_in_eval_while: {flag}, helper_pid_file: {helper}}}
train: {{steps: {steps}, batch_size: 8}}
checkpoint: {{every: {every}}}
eval: {{every: 0}}
export: {{enabled: {export}}}
alerts: {{hang_after_s: 600}}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lifecycle")
    (folder / "lifecycle_entry.py").write_text(ENTRY)
    return folder


def _config(
    project: Path,
    name: str,
    *,
    steps: int = 100_000,
    every: int = 5,
    heavy_from: int = 0,
    export: bool = False,
    hang_in_eval_while: Path | None = None,
    helper_pid_file: Path | None = None,
) -> Path:
    path = project / f"{name}.yaml"
    flag = json.dumps(str(hang_in_eval_while)) if hang_in_eval_while else "null"
    helper = json.dumps(str(helper_pid_file)) if helper_pid_file else "null"
    text = CONFIG.format(
        steps=steps, every=every, heavy_from=heavy_from, export=str(export).lower(), flag=flag, helper=helper
    )
    path.write_text(text)
    return path


def _argv(tmp_path: Path, config: Path, *extra: str) -> list[str]:
    ws = tmp_path / "ws"
    return [sys.executable, "-m", "workbench", "--workspace", str(ws), "train", str(config), *extra]


@pytest.fixture
def spawn(tmp_path: Path, project: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start ``train`` in the project folder; every process started is killed if a test leaves it."""
    procs: list[subprocess.Popen[str]] = []

    def start(config: Path, *extra: str, **kwargs: Any) -> subprocess.Popen[str]:
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.PIPE)
        proc = subprocess.Popen(
            _argv(tmp_path, config, *extra), text=True, env=cli_env(tmp_path), cwd=project, **kwargs
        )
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _run_dir(tmp_path: Path) -> Path:
    [run_dir] = list((tmp_path / "ws" / "runs").iterdir())
    return run_dir


def _wait_until(proc: subprocess.Popen[str], tmp_path: Path, ready: Callable[[Path], bool]) -> Path:
    """Poll the run folder until ``ready(run_dir)``; fail (with the output) if the process ends first."""
    deadline = time.monotonic() + 180
    runs = tmp_path / "ws" / "runs"
    while time.monotonic() < deadline:
        found = list(runs.iterdir()) if runs.is_dir() else []
        if found and ready(found[0]):
            return found[0]
        if proc.poll() is not None:
            pytest.fail(f"train ended early ({proc.returncode}): {proc.communicate()}")
        time.sleep(0.05)
    pytest.fail("the run never got there")


def _checkpointed(run_dir: Path) -> bool:
    return (run_dir / "events.jsonl").exists() and any(
        row["type"] == "checkpoint_saved" for row in event_rows(run_dir)
    )


def _logs(run_dir: Path) -> str:
    path = run_dir / "logs.txt"
    return path.read_text(errors="replace") if path.exists() else ""


def _assert_ended(run_dir: Path, status: str) -> dict[str, Any]:
    """``state.json`` and the last line of ``events.jsonl`` agree on a final status; return the state."""
    state = json.loads((run_dir / "state.json").read_text())
    assert state["status"] == status, state
    last = event_rows(run_dir)[-1]
    assert last["type"] == {"cancelled": "run_cancelled", "finished": "run_finished"}[status], last
    return state


def _assert_nothing_left(tmp_path: Path, helper_pid_file: Path) -> None:
    """No process of the job outlived ``train``: not the helper its code started, nor anything running
    with the workspace on its command line (psutil over every process)."""
    pid = int(helper_pid_file.read_text())
    with contextlib.suppress(psutil.NoSuchProcess):
        helper = psutil.Process(pid)
        left = helper.is_running() and helper.status() != psutil.STATUS_ZOMBIE
        if left:
            helper.kill()  # the test fails, but leaves nothing behind
        assert not left, "the job's helper is left"
    marker = str(tmp_path / "ws")
    for proc in psutil.process_iter(["cmdline", "status"]):
        if proc.info["status"] != psutil.STATUS_ZOMBIE:
            assert marker not in " ".join(proc.info["cmdline"] or ()), proc


def _stopped_with_a_checkpoint(run_dir: Path) -> int:
    """The run ended ``cancelled`` at a step whose checkpoint verifies (``--resume`` continues there)."""
    state = _assert_ended(run_dir, "cancelled")
    stopped = event_rows(run_dir)[-1]["step"]
    assert stopped == state["last_step"] and stopped > 0
    latest = CheckpointStore(run_dir / "checkpoints").latest_valid()
    assert latest is not None and latest.step == stopped
    return int(stopped)


@pytest.mark.parametrize(
    ("signum", "code", "mode"),
    [(signal.SIGTERM, 143, "--plain"), (signal.SIGHUP, 129, "--json")],
    ids=["SIGTERM", "SIGHUP-json-to-a-pipe"],
)
def test_sigterm_and_sighup_stop_after_the_step_with_a_checkpoint(
    tmp_path: Path,
    project: Path,
    spawn: Callable[..., subprocess.Popen[str]],
    signum: int,
    code: int,
    mode: str,
) -> None:
    helper = tmp_path / "helper.pid"
    proc = spawn(_config(project, "stop", helper_pid_file=helper), mode)
    run_dir = _wait_until(proc, tmp_path, _checkpointed)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, (out, err)
    _assert_nothing_left(tmp_path, helper)
    assert "FatalError" not in err and "Traceback" not in out + err  # not Paddle's C++ SIGTERM dump
    stopped = _stopped_with_a_checkpoint(run_dir)
    name = signal.Signals(signum).name
    human = err if mode == "--json" else out
    assert f"{name} received" in human and f"stopped at step {stopped}" in human
    assert human.strip().splitlines()[-1] == str(run_dir)
    if mode == "--json":  # stdout was a pipe, not the terminal: the document still arrives there
        document = json.loads(out)
        assert document["status"] == "cancelled" and document["stop_signal"] == name
        assert document["last_step"] == stopped


def test_one_ctrl_c_stops_after_the_step_with_a_checkpoint_and_nothing_left(
    tmp_path: Path, project: Path, spawn: Callable[..., subprocess.Popen[str]]
) -> None:
    helper = tmp_path / "helper.pid"
    proc = spawn(_config(project, "ctrl-c", helper_pid_file=helper), "--plain")
    run_dir = _wait_until(proc, tmp_path, _checkpointed)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert "Aborted!" not in err and "Traceback" not in out + err
    stopped = _stopped_with_a_checkpoint(run_dir)
    assert f"stopped at step {stopped}" in out
    _assert_nothing_left(tmp_path, helper)


def test_sighup_on_a_terminal_sends_the_remaining_lines_to_the_run_log(
    tmp_path: Path, project: Path, spawn: Callable[..., subprocess.Popen[str]]
) -> None:
    """An SSH session that dropped: the terminal is gone, so nothing more is written to it."""
    master, slave = pty.openpty()
    proc = spawn(_config(project, "hangup"), "--plain", stdout=slave, stderr=slave)
    os.close(slave)
    shown = bytearray()

    def read_terminal() -> None:
        with contextlib.suppress(OSError):  # EIO once every writer of the terminal is gone
            while chunk := os.read(master, 65536):
                shown.extend(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        run_dir = _wait_until(proc, tmp_path, _checkpointed)
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(timeout=120) == 129
        reader.join(timeout=30)
    finally:
        os.close(master)
    stopped = _stopped_with_a_checkpoint(run_dir)
    terminal = shown.decode(errors="replace")
    assert "run folder:" in terminal and f"stopped at step {stopped}" not in terminal
    logs = _logs(run_dir)
    assert "SIGHUP received" in logs and f"stopped at step {stopped}" in logs
    assert logs.rstrip().splitlines()[-1] == str(run_dir)


def test_two_quick_ctrl_c_abort_with_130_and_a_recorded_status(
    tmp_path: Path, project: Path, spawn: Callable[..., subprocess.Popen[str]]
) -> None:
    """The second Ctrl-C lands while the training thread is inside a ~1 s Paddle kernel."""
    helper = tmp_path / "helper.pid"
    proc = spawn(
        _config(project, "abort", every=1, heavy_from=3, helper_pid_file=helper), "--plain", "--json"
    )
    run_dir = _wait_until(proc, tmp_path, lambda run: "HEAVY" in _logs(run))
    assert proc.stderr is not None and proc.stdout is not None
    lines: list[str] = []
    stderr = proc.stderr
    reader = threading.Thread(target=lambda: lines.extend(iter(stderr.readline, "")), daemon=True)
    reader.start()
    proc.send_signal(signal.SIGINT)
    # The second Ctrl-C only once the first was taken (two signals close together can arrive as one).
    deadline = time.monotonic() + 60
    while (
        not any("stopping after the current step" in line for line in lines) and time.monotonic() < deadline
    ):
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out = proc.stdout.read()
    proc.wait(timeout=120)
    reader.join(timeout=30)
    err = "".join(lines)
    assert proc.returncode == 130, (out, err)
    assert "Aborted!" not in err
    _assert_nothing_left(tmp_path, helper)
    assert "terminate called" not in err and "Traceback" not in err
    document = json.loads(out)
    assert document["status"] == "cancelled" and document["run_dir"] == str(run_dir)
    assert "aborted at step" in err and err.strip().splitlines()[-1] == str(run_dir)
    _assert_ended(run_dir, "cancelled")
    # Every checkpoint committed before the abort stays and verifies.
    latest = CheckpointStore(run_dir / "checkpoints").latest_valid()
    assert latest is not None and latest.step >= 2


@pytest.mark.parametrize(
    ("mode", "reader"),
    [("--plain", ["head", "-3"]), ("--json", ["head", "-c", "0"])],
    ids=["plain-head-3", "json-reader-gone"],
)
def test_a_reader_that_closes_the_pipe_does_not_stop_the_run(
    tmp_path: Path,
    project: Path,
    spawn: Callable[..., subprocess.Popen[str]],
    mode: str,
    reader: list[str],
) -> None:
    """``train … | head -3`` (closes mid-run), ``train --json`` whose reader left before the document:
    the run trains on, ends ``finished`` with its checkpoint, and the command exits by that status (0)."""
    proc = spawn(_config(project, "piped", steps=400, every=100), mode, stderr=subprocess.DEVNULL)
    head = subprocess.Popen(reader, stdin=proc.stdout, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.close()  # head alone reads the pipe now; when it exits, the pipe is closed
    shown, _ = head.communicate(timeout=180)
    assert proc.wait(timeout=180) == 0
    assert len(shown.splitlines()) == (3 if mode == "--plain" else 0)
    run_dir = _run_dir(tmp_path)
    _assert_ended(run_dir, "finished")
    latest = CheckpointStore(run_dir / "checkpoints").latest_valid()
    assert latest is not None and latest.step == 400


def test_c_level_output_of_the_users_code_goes_to_the_log_not_the_terminal(
    tmp_path: Path, project: Path, spawn: Callable[..., subprocess.Popen[str]]
) -> None:
    proc = spawn(_config(project, "noisy", steps=10, every=5), "--plain")
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, (out, err)
    for text in (out, err):
        assert "\x1b[2J" not in text and "C-LEVEL" not in text and "PY-PRINT" not in text
    logs = _logs(_run_dir(tmp_path))
    assert "C-LEVEL-STDOUT" in logs and "C-LEVEL-STDERR" in logs and "PY-PRINT" in logs
    assert out.strip().splitlines()[-1] == str(_run_dir(tmp_path))


def test_check_piped_into_head_exits_with_its_own_verdict(tmp_path: Path) -> None:
    """The verdict is the one the check stored in the workspace before it printed (exit 1 when a check
    failed, else 0), whatever the closed pipe did to the printing."""
    env = cli_env(tmp_path)
    argv = [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "check"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    head = subprocess.Popen(["head", "-2"], stdin=proc.stdout, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    head.communicate(timeout=180)
    err = proc.stderr.read()
    code = proc.wait(timeout=180)
    (stored,) = (tmp_path / "ws" / "reports").glob("check-*.json")
    checks = json.loads(stored.read_text(encoding="utf-8"))["checks"]
    assert len(checks) > 2 and code == (1 if any(c["status"] == "fail" for c in checks) else 0), err
    assert "BrokenPipeError" not in err and "Exception ignored" not in err


def test_a_checkpoints_steps_are_in_the_history_before_it_is_committed(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 right after a commit must not leave the checkpoint's step out of ``events.jsonl``."""
    import workbench.runs as runs_module
    from workbench.runs import RunStore
    from workbench.training import prepare_training, start_training

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(runs_module, "FLUSH_INTERVAL_S", 3600.0)  # no background flush to hide a gap
    on_disk_at_commit: dict[int, set[int]] = {}
    commit = CheckpointStore._commit

    def spy(self: CheckpointStore, tmp: Path, step: int) -> Path:
        rows = event_rows(self.directory.parent)
        on_disk_at_commit[step] = {row["step"] for row in rows if row["type"] == "metrics"}
        return commit(self, tmp, step)

    monkeypatch.setattr(CheckpointStore, "_commit", spy)
    store = RunStore(tmp_path / "ws")
    plan = prepare_training(_config(project, "history", steps=10, every=5), store=store, environ={})
    job = start_training(plan, store)
    assert job.wait(120) and job.status == "finished", job.result
    assert on_disk_at_commit == {5: set(range(1, 6)), 10: set(range(1, 11))}


def test_a_checkpoint_killed_half_way_is_cleaned_when_the_next_run_starts(
    tmp_path: Path,
    project: Path,
    spawn: Callable[..., subprocess.Popen[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workbench.runs import RunStore
    from workbench.training import prepare_training, start_training

    config = _config(project, "killed", steps=20, every=5)
    proc = spawn(config, "--plain", "-o", "debug.inject=slow_checkpoint@10:120")
    run_dir = _wait_until(
        proc, tmp_path, lambda run: any((run / "checkpoints").glob("step-10.tmp-*/model.pdparams"))
    )
    proc.kill()  # kill -9 in the middle of writing checkpoint 10
    proc.communicate()
    [half] = list((run_dir / "checkpoints").glob("step-10.tmp-*"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    store = RunStore(tmp_path / "ws")
    plan = prepare_training(config, store=store, resume=run_dir.name, environ={})
    assert plan.resume is not None and plan.resume.step == 5
    job = start_training(plan, store)
    assert not half.exists()  # its writer is gone: removed when the next run started
    assert job.wait(120) and job.status == "finished", job.result


def test_a_run_killed_during_its_final_evaluation_is_finished_by_resume(
    tmp_path: Path,
    project: Path,
    spawn: Callable[..., subprocess.Popen[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workbench.runs import RunStore
    from workbench.training import PrepareError, prepare_training, start_training

    flag = tmp_path / "hang-in-eval"
    flag.write_text("")
    config = _config(project, "final", steps=10, every=5, export=True, hang_in_eval_while=flag)
    proc = spawn(config, "--plain")
    killed = _wait_until(proc, tmp_path, lambda run: "EVAL-HANG" in _logs(run))
    proc.kill()  # kill -9 after the last checkpoint, during the final evaluation
    proc.communicate()
    latest = CheckpointStore(killed / "checkpoints").latest_valid()
    assert latest is not None and latest.step == 10 and not (killed / "export").exists()
    flag.unlink()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    store = RunStore(tmp_path / "ws")
    plan = prepare_training(config, store=store, resume="latest", environ={})
    assert plan.resume is not None and plan.resume.run_dir == killed and plan.resume.step == 10
    assert any("final evaluation and export" in notice for notice in plan.notices)
    job = start_training(plan, store)
    assert job.wait(120) and job.status == "finished", job.result
    rows = event_rows(job.run_dir)
    assert not [r for r in rows if r["type"] == "metrics" and "loss" in r["values"]]  # nothing retrained
    assert [r["step"] for r in rows if r["type"] == "metrics" and "eval/calls" in r["values"]] == [10]
    assert (job.run_dir / "export" / "model.json").exists()
    summary = job.result.summary  # type: ignore[union-attr]
    assert summary["export"] and summary["final_metrics"]["loss"] is not None
    # Now it is complete: nothing is left to do.
    with pytest.raises(PrepareError, match="nothing left to train"):
        prepare_training(config, store=store, resume="latest", environ={})
