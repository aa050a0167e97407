"""The monitor on real runs: a short Paddle training started from the TUI, an injected NaN, and runs
written by other processes (``track.log`` in a plain script, ``paddle.Model.fit`` with the callback)."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from workbench.datasets import generate_cls_demo
from workbench.events import AlertRaised, RunFailed, RunFinished
from workbench.screens.app import WorkbenchApp
from workbench.screens.monitor import MonitorScreen

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

CONFIG = """\
task: image_classification
data: {{dir: {data}, format: cls}}
train: {{steps: 30, batch_size: 16, lr: 0.01, optimizer: adam, seed: 3}}
eval: {{every: 10}}
checkpoint: {{every: 10, keep: 2}}
export: {{enabled: false}}
{extra}
"""


@pytest.fixture
def config_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # Paddle's ~/.cache writes stay in tmp
    monkeypatch.delenv("PADDLE_WORKBENCH_INJECT", raising=False)
    monkeypatch.chdir(tmp_path)
    generate_cls_demo(tmp_path / "cls", n_train=96, n_val=32, seed=2)

    def make(extra: str = "") -> str:
        path = tmp_path / "tiny.yaml"
        path.write_text(CONFIG.format(data=tmp_path / "cls", extra=extra))
        return str(path)

    return make


def _plain(widget: Static) -> str:
    """What a Static shows, as plain text (it may hold a Rich table)."""
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def _until(predicate, pilot, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(timeout / 0.1)):
        if predicate():
            return
        await asyncio.sleep(0.1)
        await pilot.pause()
    raise AssertionError("condition not met in time")


async def test_a_real_run_started_from_the_tui_streams_into_the_monitor(config_factory) -> None:  # type: ignore[no-untyped-def]
    app = WorkbenchApp("ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.train_config(config_factory())
        await _until(lambda: isinstance(app.screen, MonitorScreen) and app.monitor_target is not None, pilot)
        job = app.monitor_target
        await _until(lambda: job.done, pilot)
        await pilot.pause(0.7)
        assert isinstance(job.result, RunFinished)
        assert job.metrics.last_step[0] == 30
        assert {"loss", "lr", "eval/accuracy", "data_wait_ms", "compute_ms"} <= set(job.metrics.names())
        title = _plain(app.screen.query_one("#monitor-title", Static))
        assert "finished" in title and "30/30" in title
        events = _plain(app.screen.query_one("#monitor-events", Static))
        assert "checkpoint at step 20" in events and "checkpoint at step 30" in events


async def test_an_injected_nan_is_an_alert_and_a_failed_run_with_the_app_alive(config_factory) -> None:  # type: ignore[no-untyped-def]
    app = WorkbenchApp("ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.train_config(config_factory("alerts: {nonfinite: stop}\ndebug: {inject: 'nan@12'}"))
        await _until(lambda: app.monitor_target is not None, pilot)
        job = app.monitor_target
        await _until(lambda: job.done, pilot)
        await pilot.pause(0.7)
        assert any(isinstance(e, AlertRaised) and e.kind == "nonfinite" for e in job.lifecycle), (
            job.run_id,
            job.lifecycle,
        )
        assert isinstance(job.result, RunFailed)
        assert app.screen.query_one("#monitor-failure").display
        rows = [json.loads(x) for x in (job.run_dir / "events.jsonl").read_text().splitlines()]
        steps = [r["step"] for r in rows if r["type"] == "metrics" and "loss" in r["values"]]
        assert steps == list(range(1, 13))  # every step up to the NaN is on disk
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.is_running and app.current_mode == "runs"


async def test_a_hang_is_an_alert_and_stop_still_works(config_factory) -> None:  # type: ignore[no-untyped-def]
    app = WorkbenchApp("ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.train_config(config_factory("alerts: {hang_after_s: 2}\ndebug: {inject: 'hang@5:120'}"))
        await _until(lambda: app.monitor_target is not None, pilot)
        job = app.monitor_target
        await _until(
            lambda: any(isinstance(e, AlertRaised) and e.kind == "hang" for e in job.lifecycle), pilot
        )
        await pilot.pause(0.7)
        assert "hang" in _plain(app.screen.query_one("#monitor-events", Static))
        assert list(job.run_dir.glob("hang-*.txt")), "the training stack is written to the run folder"
        await pilot.press("s")  # the UI still answers; the hung step wakes on cancel
        await _until(lambda: job.done, pilot, timeout=30)
        assert job.status == "cancelled"
        loss = job.metrics.series("loss")
        assert loss is not None and loss.arrays()[0][:4].tolist() == [
            1,
            2,
            3,
            4,
        ]  # nothing before the hang lost


THREADS_SCRIPT = """
import threading
from workbench.training.runtime import import_paddle

modes = {}

def first_import():
    modes["importer"] = import_paddle().in_dynamic_mode()

def later_thread():
    paddle = import_paddle()
    x = paddle.to_tensor([1.0], stop_gradient=False)
    (x * 2).sum().backward()
    modes["other"] = paddle.in_dynamic_mode()

for target in (first_import, later_thread):
    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
print(modes["importer"], modes["other"])
"""


def test_paddle_imported_on_one_thread_trains_in_dygraph_on_another(tmp_path: Path) -> None:
    """Regression: the TUI imports Paddle on a worker; a training thread must not be in static mode."""
    env = dict(os.environ, HOME=str(tmp_path), GLOG_minloglevel="2")
    result = subprocess.run(
        [sys.executable, "-c", THREADS_SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "True"]


TRACK_SCRIPT = """
import sys
from workbench import track
track.init(name="scripted", workspace=sys.argv[1])
for step in range(1, 6):
    track.log(step, loss=1.0 / step)
"""

FIT_SCRIPT = """
import sys
import numpy as np
import paddle
from workbench.training.callback import WorkbenchCallback

class Data(paddle.io.Dataset):
    def __init__(self):
        rng = np.random.default_rng(0)
        self.x = rng.normal(size=(64, 8)).astype("float32")
        self.y = (self.x.sum(1) > 0).astype("int64").reshape(-1, 1)
    def __getitem__(self, i):
        return self.x[i], self.y[i]
    def __len__(self):
        return 64

net = paddle.nn.Linear(8, 2)
model = paddle.Model(net)
model.prepare(paddle.optimizer.Adam(parameters=net.parameters()), paddle.nn.CrossEntropyLoss())
model.fit(Data(), epochs=2, batch_size=16, verbose=0, callbacks=[WorkbenchCallback(name="fit", workspace=sys.argv[1])])
"""


@pytest.mark.parametrize(("script", "name"), [(TRACK_SCRIPT, "scripted"), (FIT_SCRIPT, "fit")])
async def test_runs_from_user_scripts_appear_in_the_monitor(tmp_path: Path, script: str, name: str) -> None:
    path = tmp_path / "user_script.py"
    path.write_text(textwrap.dedent(script))
    env = dict(os.environ, HOME=str(tmp_path / "home"), GLOG_minloglevel="2")
    result = subprocess.run(
        [sys.executable, str(path), str(tmp_path / "ws")],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        [run] = app.store.list()
        assert run.name == name
        app.open_in_monitor(run.run_id)
        await _until(lambda: app.monitor_target is not None and app.monitor_target.done, pilot)
        await pilot.pause(0.7)
        job = app.monitor_target
        assert isinstance(job.result, RunFinished)
        assert job.metrics.series("loss") is not None and len(job.metrics.series("loss")) >= 5
        assert isinstance(app.screen, MonitorScreen)
        assert "loss" in _plain(app.screen.query_one("#monitor-values", Static))
