"""Fragile native steps run in a child: paddle2onnx's abort, a model build that crashes, user code.

Everything goes through the commands a user types (``python -m workbench ...`` in a subprocess, the TUI on
a real pty). Every process these commands start carries a tag in its environment, so a process left
behind — re-parented to init, in a session of its own — is still found afterwards (:func:`_tagged`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.ui.pty_harness import Terminal, run_in_pty
from workbench.runs import RunStore
from workbench.training import prepare_training, start_training

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

HAS_ONNX = (
    importlib.util.find_spec("paddle2onnx") is not None
    and importlib.util.find_spec("onnxruntime") is not None
)
TAG = "PADDLE_WORKBENCH_TEST_TAG"
QUIT_WITHIN_S = 60.0
"""How long the TUI may take to return to the shell after ``q`` (a bound on a wait, not a measurement)."""

SHUFFLE_ENTRY = """
import numpy as np
import paddle
from workbench.training import TrainParts


class Net(paddle.nn.Layer):
    # nn.ChannelShuffle: an operator paddle2onnx has no converter for (it aborts the process).
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 8, 3, padding=1)
        self.shuffle = paddle.nn.ChannelShuffle(2)
        self.fc = paddle.nn.Linear(8 * 8 * 8, 4)

    def forward(self, x):
        return self.fc(paddle.flatten(self.shuffle(self.conv(x)), 1))


class Random(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, 3, 8, 8)).astype("float32")
        self.y = rng.integers(0, 4, size=n).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build(cfg):
    model = Net()
    opt = paddle.optimizer.SGD(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Random(16, 0), val_data=Random(8, 1),
                      loss=paddle.nn.functional.cross_entropy)
"""

CUSTOM_TRAIN = (
    "task: custom\nentry: {module}:build\n"
    "train: {{steps: 2, batch_size: 4, lr: 0.01, optimizer: sgd, seed: 3, device: cpu}}\n"
    "eval: {{every: 2}}\ncheckpoint: {{every: 2, keep: 1}}\nexport: {{enabled: false}}\n"
)


def _tagged(tag: str) -> list[psutil.Process]:
    """Processes (other than this one) whose environment carries ``tag``."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.pid != os.getpid() and proc.environ().get(TAG) == tag:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
            continue
    return found


def _alive(procs: list[psutil.Process]) -> list[psutil.Process]:
    out = []
    for proc in procs:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                out.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return out


def _wait_until(condition: Callable[[], bool], timeout: float, poll_s: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(poll_s)
    return condition()


def _assert_nothing_left(tag: str) -> None:
    """No process of the command is left; waits (bounded) for the ones that are on their way out."""
    _wait_until(lambda: not _alive(_tagged(tag)), 30)
    left = [(p.pid, " ".join(p.cmdline())[:120]) for p in _alive(_tagged(tag))]
    for proc in _alive(_tagged(tag)):  # leave nothing behind for the next test, then fail
        proc.kill()
    assert not left, f"processes left behind: {left}"


class Workspace:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.ws = root / "ws"
        self.home = root / "home"
        self.shuffle_run = Path()

    def env(self, tag: str) -> dict[str, str]:
        env = dict(os.environ, HOME=str(self.home), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
        env[TAG] = tag
        env.pop("PADDLE_WORKBENCH_INJECT", None)
        return env

    def wb(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "workbench", "--workspace", str(self.ws), *args]

    def cli(self, *args: str) -> list[str]:
        """The ``paddle-workbench`` console script, as a user types it."""
        return [str(Path(sys.executable).with_name("paddle-workbench")), "--workspace", str(self.ws), *args]


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One trained ``task: custom`` run of a model with ``nn.ChannelShuffle`` (HOME in tmp)."""
    root = tmp_path_factory.mktemp("fragile")
    out = Workspace(root)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(out.home))
        patch.setenv("GLOG_minloglevel", "2")
        folder = root / "shuffle"
        folder.mkdir()
        (folder / "shuffle_entry.py").write_text(SHUFFLE_ENTRY)
        (folder / "shuffle.yaml").write_text(CUSTOM_TRAIN.format(module="shuffle_entry"))
        store = RunStore(out.ws)
        plan = prepare_training(folder / "shuffle.yaml", [], store=store, environ={})
        job = start_training(plan, store)
        assert job.wait(120), "training did not end"
        assert job.status == "finished", job.status
        out.shuffle_run = job.run_dir
        yield out


# -- finding 4: paddle2onnx aborts on an operator it cannot convert ----------------------------------


@pytest.mark.skipif(not HAS_ONNX, reason="the onnx extra is not installed")
def test_compare_reports_every_path_when_paddle2onnx_aborts_on_channel_shuffle(space: Workspace) -> None:
    """Before: exit 134 (``FatalError: Process abort signal``), no JSON, every other path's result lost."""
    tag = uuid.uuid4().hex
    proc = subprocess.run(
        space.wb("compare", str(space.shuffle_run), "--repeats", "2", "--json"),
        capture_output=True, text=True, env=space.env(tag), timeout=300,
    )  # fmt: skip
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-3000:])
    doc = json.loads(proc.stdout)
    paths = {p["name"]: p for p in doc["paths"]}
    for name in ("jit_load", "predictor_ir_off", "predictor_ir_on", "predictor_memory_optim"):
        assert paths[name]["status"] == "ok", (name, paths[name])
    onnx = paths["onnxruntime"]
    assert onnx["status"] == "error" and "channel_shuffle" in onnx["error"], onnx
    assert "SIGABRT" in onnx["error"], onnx["error"]
    findings = {f["id"]: f for f in doc["findings"]}
    assert "channel_shuffle" in findings["onnx_unconvertible"]["evidence"]
    assert "channel_shuffle" in findings["path_error"]["summary"]
    assert doc["ok"] is False and doc["matrix_rows"]
    # The human report (stderr under --json) shows every path and names the operator.
    for name in paths:
        assert name in proc.stderr
    assert "onnx_unconvertible" in proc.stderr and "channel_shuffle" in proc.stderr
    _assert_nothing_left(tag)


@pytest.mark.skipif(not HAS_ONNX, reason="the onnx extra is not installed")
@pytest.mark.parametrize(
    "signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"]
)
def test_compare_stopped_mid_conversion_says_so_exits_128_plus_n_and_leaves_no_process(
    space: Workspace, tmp_path: Path, signum: int
) -> None:
    """The conversion child is frozen (SIGSTOP) as soon as it runs, so it cannot end by itself: only the
    workbench can end it. Paddle is imported by then, with its C-level SIGTERM handler. Every stop signal
    ends ``compare`` the same way: the conversion's group killed, one "stopped by SIG…" line, exit
    ``128 + N``. Before: Ctrl-C ended with click's "Aborted!" and exit 1; SIGTERM (through Paddle's C
    handler) and SIGHUP killed the command by the signal (status -15, -1; no line of ours), leaving the
    child to its watchdog."""
    tag = uuid.uuid4().hex
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    proc = subprocess.Popen(
        space.cli("compare", str(space.shuffle_run), "--repeats", "2", "--path", "onnxruntime"),
        stdout=out.open("wb"), stderr=err.open("wb"), env=space.env(tag), start_new_session=True,
    )  # fmt: skip
    converter: list[psutil.Process] = []
    try:

        def converting() -> bool:
            for child in psutil.Process(proc.pid).children(recursive=True):
                try:
                    leads = os.getpgid(child.pid) == child.pid  # the child itself, not its watchdog
                    watched = bool(child.children())  # its watchdog runs: the child is under way
                    if leads and watched and "workbench.inference.onnx_convert" in " ".join(child.cmdline()):
                        converter.append(child)
                        return True
                except (psutil.NoSuchProcess, psutil.AccessDenied, ProcessLookupError):
                    continue
            return False

        assert _wait_until(converting, 240, poll_s=0.01), "the conversion never started"
        converter[0].suspend()
        proc.send_signal(signum)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = err.read_text(encoding="utf-8", errors="replace")
    assert code == 128 + signum, (code, text[-3000:])
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[-1] == f"stopped by {signal.Signals(signum).name}", text[-3000:]
    for word in ("Aborted!", "Traceback", "FatalError"):
        assert word not in text, text[-3000:]
    _assert_nothing_left(tag)


# -- findings 3 and 14: the plan editor and plan validate build the model in a child ------------------


def _write_custom_plan(folder: Path, entry: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "train.yaml").write_text(CUSTOM_TRAIN.format(module="user_model"))
    (folder / "user_model.py").write_text(entry)
    plan = folder / "plan.yaml"
    plan.write_text("train: train.yaml\nmesh: {shape: [2], dim_names: [dp]}\n")
    return plan


RECORDING_ENTRY = SHUFFLE_ENTRY.replace("ChannelShuffle(2)", "Identity()") + (
    "\nimport os\nfrom pathlib import Path\n"
    "Path(__file__).with_name('imported_in').write_text(str(os.getpid()))\n"
)


def test_plan_validate_says_first_that_it_imports_the_users_code_and_does_it_in_a_child(
    space: Workspace, tmp_path: Path
) -> None:
    """Before: nothing said the user's module was imported, and it was imported in the command itself."""
    plan = _write_custom_plan(tmp_path / "custom", RECORDING_ENTRY)
    tag = uuid.uuid4().hex
    proc = subprocess.Popen(
        space.wb("plan", "validate", str(plan)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=space.env(tag),
    )  # fmt: skip
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, (out[-2000:], err[-2000:])
    first = out.splitlines()[0]
    assert first.startswith("importing your code: user_model (from ") and "in a child process" in first, first
    assert str(tmp_path / "custom") in first
    imported_in = int((tmp_path / "custom" / "imported_in").read_text())
    assert imported_in != proc.pid  # the module ran in a child, not in the command
    _assert_nothing_left(tag)

    doc = json.loads(
        subprocess.run(
            space.wb("plan", "validate", str(plan), "--json"),
            capture_output=True,
            text=True,
            env=space.env(tag),
            timeout=300,
            check=True,
        ).stdout  # fmt: skip
    )
    assert doc["ok"] and doc["user_code"].startswith("importing your code: user_model")


def test_plan_validate_reports_a_build_that_aborts_as_a_located_finding(
    space: Workspace, tmp_path: Path
) -> None:
    """Before: the user's build aborting (C++ ``abort()``) killed ``plan validate`` itself (exit 134)."""
    aborting = SHUFFLE_ENTRY.replace("    model = Net()", "    import os\n    os.abort()\n    model = Net()")
    plan = _write_custom_plan(tmp_path / "custom", aborting)
    tag = uuid.uuid4().hex
    proc = subprocess.run(
        space.wb("plan", "validate", str(plan), "--json"),
        capture_output=True, text=True, env=space.env(tag), timeout=300,
    )  # fmt: skip
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    doc = json.loads(proc.stdout)
    (error,) = doc["errors"]
    assert error["code"] == "train_build" and "SIGABRT" in error["message"], error
    assert error["file"] == str(plan) and error["line"] == 1
    _assert_nothing_left(tag)


def test_validate_says_it_does_not_import_the_users_code(space: Workspace, tmp_path: Path) -> None:
    plan = _write_custom_plan(tmp_path / "custom", RECORDING_ENTRY)
    train = plan.with_name("train.yaml")
    tag = uuid.uuid4().hex
    help_text = subprocess.run(
        space.wb("validate", "--help"), capture_output=True, text=True, env=space.env(tag), timeout=60
    ).stdout
    assert "never imports or runs your code" in " ".join(help_text.split())
    proc = subprocess.run(
        space.wb("validate", str(train)), capture_output=True, text=True, env=space.env(tag), timeout=60
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    first = proc.stdout.splitlines()[0]
    assert "your code was not imported" in first and "user_model:build" in first, first
    assert not (tmp_path / "custom" / "imported_in").exists()
    plan_help = subprocess.run(
        space.wb("plan", "validate", "--help"), capture_output=True, text=True, env=space.env(tag), timeout=60
    ).stdout
    assert "imports and runs your entry's module" in " ".join(plan_help.split())


@pytest.mark.parametrize("leave_first", [True, False], ids=["1-then-q", "ctrl+q-in-plan-mode"])
def test_leaving_the_plan_mode_mid_build_and_quitting_returns_to_the_shell_with_nothing_left(
    space: Workspace, tmp_path: Path, leave_first: bool
) -> None:
    """Finding 3: ``3``, wait until the build has started its workers, ``1``, ``q`` (or quit from the
    plan mode itself). Before: the TUI did not return (the dataset linter's spawned workers, left with
    PPID 1, held the killed build's output pipe, which the TUI read until the build's time-out)."""
    tag = uuid.uuid4().hex
    screen: dict[str, Any] = {"out": b"", "term": None}
    pid: list[int] = []
    steps: list[str] = []

    def on_output(output: bytes, terminal: Terminal) -> None:
        screen["out"], screen["term"] = output, terminal

    def type_keys(keys: bytes) -> None:
        terminal = screen["term"]
        assert isinstance(terminal, Terminal)
        terminal(keys)

    def shown(text: bytes, after: int = 0) -> Callable[[], bool]:
        return lambda: text in screen["out"][after:]

    def workers_started() -> bool:
        """The build's child has started the dataset linter's pool of spawned decoders (its life is a
        second or two for the demo's 2,500 images: looked for among the TUI's descendants, quickly)."""
        try:
            descendants = psutil.Process(pid[0]).children(recursive=True)
        except (IndexError, psutil.NoSuchProcess):
            return False
        for proc in descendants:
            try:
                if "spawn_main" in " ".join(proc.cmdline()):
                    return True
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return False

    def drive() -> None:
        if not _wait_until(shown(b"Train config"), 120):  # the runs screen's footer
            return
        type_keys(b"3")
        steps.append("plan")
        if not _wait_until(workers_started, 180, poll_s=0.01):
            return
        steps.append("building")
        if leave_first:
            seen = len(screen["out"])
            type_keys(b"1")
            if not _wait_until(shown(b"Train config", seen), 30):
                return
            type_keys(b"q")
        else:
            type_keys(b"\x11")  # ctrl+q: the plan mode's editor may have the focus (q would be typed)
        steps.append("quit")

        def tui_exited() -> bool:
            try:
                return psutil.Process(pid[0]).status() == psutil.STATUS_ZOMBIE
            except psutil.NoSuchProcess:
                return True

        # Bounded, like every wait here: before, the TUI sat on the killed build's pipe for the whole
        # 180 s build time-out (its spawned workers, left with PPID 1, held it open).
        if _wait_until(tui_exited, QUIT_WITHIN_S):
            steps.append("returned")
        else:
            os.kill(pid[0], signal.SIGKILL)

    driver = threading.Thread(target=drive, daemon=True)
    driver.start()
    code, output = run_in_pty(
        space.wb(),
        env=dict(space.env(tag), TERM="xterm-256color"),
        cwd=str(tmp_path),
        timeout=300,
        on_output=on_output,
        on_start=pid.append,
    )
    driver.join(5)
    try:
        assert steps[:3] == ["plan", "building", "quit"], (steps, output[-1500:])
        assert steps[3:] == ["returned"], f"the TUI did not return to the shell {QUIT_WITHIN_S:.0f} s after q"
        assert code == 0
    finally:
        _assert_nothing_left(tag)


# -- finding 4 in the TUI: the comparison runs in a child; quitting ends it -------------------------------


async def _open_compare_on(app: Any, pilot: Any, run_dir: Path) -> Any:
    from textual.widgets import DataTable

    from workbench.screens.compare import CompareScreen

    await app.switch_mode("compare")
    await pilot.pause(0.2)
    screen = app.screen
    assert isinstance(screen, CompareScreen)
    table = screen.query_one("#checkpoints", DataTable)
    for _ in range(200):
        await pilot.pause(0.05)
        if table.row_count:
            break
    keys = [row.value for row in table.rows]
    table.move_cursor(row=next(i for i, key in enumerate(keys) if key and run_dir.name in key))
    await pilot.press("c")
    return screen


def _comparison_children() -> list[psutil.Process]:
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if "workbench.inference." in " ".join(proc.cmdline()):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


@pytest.mark.skipif(not HAS_ONNX, reason="the onnx extra is not installed")
async def test_the_compare_mode_survives_paddle2onnx_aborting_and_shows_every_path(
    space: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the abort killed the TUI's own process (here: the test process) with every run in it."""
    from workbench.screens.app import WorkbenchApp

    monkeypatch.setenv("HOME", str(space.home))
    app = WorkbenchApp(space.ws, preload_paddle=False)
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause(0.1)
        screen = await _open_compare_on(app, pilot, space.shuffle_run)
        for _ in range(3000):
            await pilot.pause(0.05)
            if screen.result is not None:
                break
        doc = screen.result
        assert doc is not None
        paths = {p["name"]: p for p in doc["paths"]}
        assert paths["predictor_ir_on"]["status"] == "ok"
        assert (
            paths["onnxruntime"]["status"] == "error" and "channel_shuffle" in paths["onnxruntime"]["error"]
        )
        assert any(f["id"] == "onnx_unconvertible" for f in doc["findings"])
        assert app.is_running
    assert not _comparison_children()


async def test_quitting_the_tui_mid_comparison_ends_its_process_group(
    space: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workbench.screens.app import WorkbenchApp

    monkeypatch.setenv("HOME", str(space.home))
    app = WorkbenchApp(space.ws, preload_paddle=False)
    started: list[psutil.Process] = []
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause(0.1)
        await _open_compare_on(app, pilot, space.shuffle_run)
        for _ in range(600):
            await pilot.pause(0.05)
            started = _comparison_children()
            if started:
                break
        assert started, "the comparison's child process never started"
        app.exit()
    assert _wait_until(lambda: not _alive(started), 30), [p.pid for p in _alive(started)]


async def test_the_plan_editor_says_it_imports_the_users_code_and_does_it_in_a_child(
    space: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 14 in the TUI: before, nothing said the entry's module was imported (in a child or not)."""
    from rich.console import Console
    from textual.widgets import Static

    from workbench.screens.app import WorkbenchApp
    from workbench.screens.plan import PlanScreen

    def plain(widget: Static) -> str:
        console = Console(width=300, record=True)
        console.print(widget.render())
        return console.export_text()

    monkeypatch.setenv("HOME", str(space.home))
    plan = _write_custom_plan(tmp_path / "custom", RECORDING_ENTRY)
    app = WorkbenchApp(space.ws, preload_paddle=False)
    notices: list[str] = []
    async with app.run_test(size=(160, 48)) as pilot:
        screen = PlanScreen(plan)
        await app.push_screen(screen)
        findings = screen.query_one("#plan-findings", Static)
        for _ in range(3000):
            await pilot.pause(0.05)
            text = plain(findings)
            if "importing your code" in text:
                notices.append(text)
            if screen.report is not None:
                break
        assert screen.report is not None and screen.report.ok, plain(findings)
    assert notices and "importing your code: user_model (from " in notices[0], notices
    assert int((tmp_path / "custom" / "imported_in").read_text()) != os.getpid()
