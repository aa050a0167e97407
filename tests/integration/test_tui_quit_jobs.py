"""Quitting the real TUI, on a real terminal, while a 2-rank ``plan run`` it started trains.

The TUI is driven as a user drives it: ``3`` (the plan editor on the packaged tensor-parallel sample),
``n`` (run it on its mesh's two ranks, under ``paddle.distributed.launch``), then ``q`` and a choice in
the quit dialog — or a signal (SIGTERM from ``kill``, the terminal hanging up as a dropped SSH link does).
Every process of the job carries a tag in its environment (inherited from the TUI), so a leftover is
found with psutil wherever the launcher put it (each rank is a session of its own). The module shares
one workspace: the plan editor makes the sample's demo data once.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest

from tests.ui.pty_harness import Terminal, run_in_pty

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

TAG = "PADDLE_WORKBENCH_TEST_TAG"
WAIT_S = 240.0
QUIT_WITHIN_S = 60.0
"""A bound on every wait for the TUI to return (stopping is bounded by the quit wait, 15 s, then the
job's tree is ended at once): a TUI that does not return fails instead of hanging the suite."""


def _wait_until(condition: Callable[[], bool], timeout: float, poll_s: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(poll_s)
    return condition()


def _tagged(tag: str) -> list[psutil.Process]:
    """Running processes (not zombies) whose environment carries ``tag``."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.pid == os.getpid() or proc.environ().get(TAG) != tag:
                continue
            if proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
            continue
    return found


def _assert_nothing_left(tag: str) -> None:
    """No process of the TUI's job is left; waits (bounded) for the ones on their way out."""
    _wait_until(lambda: not _tagged(tag), 30)
    left = []
    for proc in _tagged(tag):
        try:
            left.append((proc.pid, " ".join(proc.cmdline())[:120]))
            proc.kill()  # leave nothing behind for the next test, then fail
        except psutil.Error:
            continue
    assert not left, f"processes left behind: {left}"


def _rank_steps(run_dir: Path) -> int:
    """The lowest step both ranks have written so far (0 before both started)."""
    steps = []
    for rank in (0, 1):
        best = 0
        try:
            text = (run_dir / "ranks" / str(rank) / "events.jsonl").read_text(
                encoding="utf-8", errors="replace"
            )
        except OSError:
            return 0
        for line in text.splitlines():
            try:
                best = max(best, int(json.loads(line).get("step") or 0))
            except (ValueError, AttributeError):
                continue
        steps.append(best)
    return min(steps)


def _status(run_dir: Path) -> str:
    try:
        return str(json.loads((run_dir / "state.json").read_text(encoding="utf-8")).get("status"))
    except (OSError, ValueError):
        return ""


class Session:
    """One TUI on a pty in the shared workspace, and the run it starts from the plan editor."""

    def __init__(self, root: Path, plan: Path | None = None) -> None:
        self.root = root
        self.plan = plan
        """A user's plan opened with ``tui --plan`` (else ``3`` opens the packaged sample)."""
        self.workspace = root / "ws"
        self.tag = uuid.uuid4().hex
        self.out = b""
        self.term: Terminal | None = None
        self.pid = 0
        self.steps: list[str] = []
        self.run_dir: Path | None = None
        self.code: int | None = None
        self.output = b""

    def _runs(self) -> set[Path]:
        folder = self.workspace / "runs"
        return set(folder.iterdir()) if folder.is_dir() else set()

    def type(self, keys: bytes) -> None:
        assert self.term is not None
        self.term(keys)

    def shown(self, text: bytes, after: int = 0) -> Callable[[], bool]:
        return lambda: text in self.out[after:]

    def exited(self) -> bool:
        try:
            return psutil.Process(self.pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    def start_run(self) -> bool:
        """``3``, then ``n`` until the run starts (the editor checks the plan first: an ``n`` before the
        check says so and starts nothing, the next one goes as soon as the check shows the plan valid),
        then wait until both ranks are past their first steps. Whether it got there (``steps`` says how
        far)."""
        before = self._runs()
        valid = self.shown(b"the plan is valid", len(self.out))
        if self.plan is not None:
            if not _wait_until(self.shown(b"open a plan"), WAIT_S):  # the plan editor's footer
                return False
        else:
            if not _wait_until(self.shown(b"Train config"), WAIT_S):  # the runs screen's footer
                return False
            self.type(b"3")
        self.steps.append("plan")
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and not (self._runs() - before):
            checked = valid()
            self.type(b"n")  # refused with a notice until the check is done: the plan is fine

            def started_or_checked(checked: bool = checked) -> bool:
                return bool(self._runs() - before) or (not checked and valid())

            _wait_until(started_or_checked, 30.0 if checked else 3.0)
        new = self._runs() - before
        if not new:
            return False
        (self.run_dir,) = new
        self.steps.append("launched")
        run_dir = self.run_dir
        if not _wait_until(lambda: _rank_steps(run_dir) >= 3, WAIT_S):
            return False
        self.steps.append("training")
        return True

    def quit_with(self, choice: bytes) -> bool:
        """``q``, then ``choice`` in the quit dialog once it shows; whether the TUI returned."""
        seen = len(self.out)
        self.type(b"q")
        if not _wait_until(self.shown(b"leave them running", seen), 30):
            return False
        self.steps.append("asked")
        self.type(choice)
        return self.wait_exit()

    def wait_exit(self) -> bool:
        if _wait_until(self.exited, QUIT_WITHIN_S):
            self.steps.append("returned")
            return True
        os.kill(self.pid, signal.SIGKILL)
        return False

    def run(self, drive: Callable[[Session], None]) -> None:
        """Start the TUI on a pty and ``drive`` it from a thread until it exits."""

        def on_output(output: bytes, terminal: Terminal) -> None:
            self.out, self.term = output, terminal

        def driver() -> None:
            if _wait_until(lambda: self.term is not None, 60):
                drive(self)
            # A drive that stopped short (the run never started, the dialog never showed) left the TUI
            # up: end it, so the test fails with what the screen showed instead of on the suite's timeout.
            if self.pid and not _wait_until(self.exited, 5):
                os.kill(self.pid, signal.SIGKILL)

        thread = threading.Thread(target=driver, daemon=True)
        thread.start()
        env = dict(
            os.environ, TERM="xterm-256color", HOME=str(self.root / "home"), PADDLE_WORKBENCH_LANG="en"
        )
        env.update(GLOG_minloglevel="2", **{TAG: self.tag})
        for name in ("PADDLE_WORKBENCH_INJECT", "PADDLE_WORKBENCH_INJECT_RANK", "PADDLE_WORKBENCH_RUN_DIR"):
            env.pop(name, None)
        argv = [sys.executable, "-m", "workbench", "--workspace", str(self.workspace)]
        if self.plan is not None:
            argv += ["tui", "--plan", str(self.plan)]
        self.code, self.output = run_in_pty(
            argv,
            env=env,
            cwd=str(self.root),
            size=(160, 45),
            timeout=WAIT_S + 2 * QUIT_WITHIN_S,
            on_output=on_output,
            on_start=lambda pid: setattr(self, "pid", pid),
        )
        thread.join(5)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the module: the plan editor makes the sample's demo data the first time."""
    return tmp_path_factory.mktemp("tui-quit")


@pytest.fixture
def session(root: Path) -> Iterator[Session]:
    made = Session(root)
    try:
        yield made
    finally:
        _assert_nothing_left(made.tag)


def test_quit_choosing_stop_ends_every_process_of_the_plan_run_and_records_cancelled(
    session: Session,
) -> None:
    """``q``, ``s``: the ranks stop after an agreed step, the TUI returns, nothing of the job is left."""

    def drive(s: Session) -> None:
        if s.start_run():
            s.quit_with(b"s")

    session.run(drive)
    assert session.steps == ["plan", "launched", "training", "asked", "returned"], (
        session.steps,
        session.output[-1500:],
    )
    assert session.code == 0
    assert session.run_dir is not None and _status(session.run_dir) == "cancelled"


SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SHORT_STEPS = 200
"""The user's plan trains this many steps: seconds after the quit (the test quits once both ranks are
past their third step), so the test waits for a whole run's end (the packaged sample trains 300 steps
with six evaluations)."""
SHORT_MODEL = {"width: 16": "width: 4", "hidden: 64": "hidden: 16"}
"""The user's plan trains a narrower model than the sample's (a step costs a quarter of the sample's on
2 CPU ranks): what the test checks — the ranks train on after the TUI returned, to a ``finished`` run —
does not depend on the model's size, and the steps left after the quit still outlast the TUI's
return by seconds."""


@pytest.fixture
def short_plan(root: Path) -> Path:
    """The packaged tensor-parallel sample as a user's own plan, over a training config of fewer steps."""
    folder = root / "my-plans"
    folder.mkdir(exist_ok=True)
    train = (SAMPLES / "train_cls_mlp.yaml").read_text(encoding="utf-8")
    train = train.replace("steps: 300", f"steps: {SHORT_STEPS}")  # evaluated every 50 steps
    for sample, short in SHORT_MODEL.items():
        assert sample in train, sample
        train = train.replace(sample, short)
    train = train.replace(
        "dir: ../demo_data/cls", f"dir: {root / 'ws' / 'demo_data' / 'cls'}"
    )  # the sample's
    (folder / "train_short.yaml").write_text(train, encoding="utf-8")
    plan = (SAMPLES / "plan_cls_tp.yaml").read_text(encoding="utf-8")
    (folder / "tp_short.yaml").write_text(
        plan.replace("train_cls_mlp.yaml", "train_short.yaml"), encoding="utf-8"
    )
    return folder / "tp_short.yaml"


def test_quit_choosing_leave_running_keeps_the_ranks_going_until_the_run_finishes(
    root: Path, short_plan: Path
) -> None:
    """``tui --plan`` on a user's plan, ``n``, ``q``, ``d``: the TUI returns at once and says how to follow
    the run; the ranks go on under a keeper of their own (the TUI's exit does not stop them), and the run
    ends ``finished``."""
    session = Session(root, short_plan)

    def drive(s: Session) -> None:
        if s.start_run():
            s.quit_with(b"d")

    session.run(drive)
    assert session.steps == ["plan", "launched", "training", "asked", "returned"], (
        session.steps,
        session.output[-1500:],
    )
    assert session.code == 0
    run_dir = session.run_dir
    assert run_dir is not None
    assert f"attach {run_dir.name}".encode() in session.output
    at_exit = _rank_steps(run_dir)
    assert _tagged(session.tag), "the job ended with the TUI"
    assert _wait_until(lambda: _status(run_dir) != "running", WAIT_S), "the detached run never ended"
    assert _status(run_dir) == "finished", (run_dir / "logs.txt").read_text(errors="replace")[-2000:]
    assert _rank_steps(run_dir) > at_exit  # it trained on after the TUI had gone
    _assert_nothing_left(session.tag)


@pytest.mark.parametrize("how", ["SIGTERM", "terminal-hangs-up"])
def test_a_stop_signal_to_the_tui_ends_its_plan_run_whole(session: Session, how: str) -> None:
    """SIGTERM (``kill``, a scheduler) or the terminal hanging up (SIGHUP: a dropped SSH link outside
    tmux) is not a choice to leave the job running: it stops after its step like ``s``, and the TUI
    exits 128 + N with nothing of the job left."""

    def drive(s: Session) -> None:
        if not s.start_run():
            return
        if how == "SIGTERM":
            os.kill(s.pid, signal.SIGTERM)
        else:
            assert s.term is not None
            s.term.hangup()
        s.steps.append("signalled")
        s.wait_exit()

    session.run(drive)
    assert session.steps == ["plan", "launched", "training", "signalled", "returned"], (
        session.steps,
        session.output[-1500:],
    )
    signum = signal.SIGTERM if how == "SIGTERM" else signal.SIGHUP
    assert session.code == 128 + signum
    assert session.run_dir is not None
    assert _wait_until(lambda: _status(session.run_dir) != "running", 30)  # type: ignore[arg-type]
    assert _status(session.run_dir) == "cancelled"
