"""The run overview of a real run: a short Paddle training started from the TUI inside a git checkout;
the pane shows what the run recorded, and the copied config prepares a new run as it is."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from tests.ui.waiting import wait_for
from workbench.datasets import generate_cls_demo
from workbench.overview import CONFIG_COPY_NAME
from workbench.runs import RunStore, read_run_doc
from workbench.screens.app import WorkbenchApp
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.overview import OverviewPane
from workbench.training import prepare_training

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

CONFIG = """\
task: image_classification
data: {dir: cls, format: cls}
train: {steps: 8, batch_size: 16, lr: 0.01, optimizer: adam, seed: 7}
eval: {every: 4}
checkpoint: {every: 100}
export: {enabled: false}
"""


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    done = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env
    )
    return done.stdout.strip()


def _plain(widget: Static) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def test_overview_of_a_real_run_in_a_git_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paddle

    repo = tmp_path / "proj"
    repo.mkdir()
    (repo / "tiny.yaml").write_text(CONFIG)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "tiny.yaml")
    _git(repo, "commit", "-q", "-m", "config")
    commit = _git(repo, "rev-parse", "HEAD")
    (repo / "tiny.yaml").write_text(CONFIG + "# tried something\n")  # a tracked file changed: dirty
    generate_cls_demo(repo / "cls", n_train=48, n_val=16, seed=2)  # untracked: does not count
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PADDLE_WORKBENCH_INJECT", raising=False)
    monkeypatch.chdir(repo)
    app = WorkbenchApp("ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.train_config(str(repo / "tiny.yaml"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.monitor_target is not None
        )
        job = app.monitor_target
        await wait_for(pilot, lambda: job.done, timeout=180)
        assert job.status == "finished"
        env = read_run_doc(job.run_dir)["environment"]
        assert (
            env["code"]["commit"] == commit and env["code"]["dirty"] is True and env["code"]["changed"] == 1
        )
        assert env["dataset"]["samples"] == {"train": 48, "val": 16}
        await pilot.press("v")
        pane = app.screen.query_one(OverviewPane)
        facts = pane.query_one("#overview-facts", Static)
        await wait_for(pilot, lambda: paddle.__version__ in _plain(facts))
        text = _plain(facts)
        build = "CUDA" if paddle.is_compiled_with_cuda() else "CPU"
        for expected in (
            "✔ finished",
            "8 of 8",
            build,
            "train 48  val 16",
            f"{commit[:10]} (main), 1 tracked",
        ):
            assert expected in text, (expected, text)
        assert "eval/accuracy" in text.split("best eval", 1)[1]
        await pilot.press("k")
        copy = job.run_dir / CONFIG_COPY_NAME
        await wait_for(pilot, copy.exists)
    # The copy prepares the same training from another folder: data.dir was made absolute.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = elsewhere / "again.yaml"
    moved.write_text(copy.read_text(encoding="utf-8"))
    plan = prepare_training(moved, store=RunStore(tmp_path / "ws2"), environ={})
    assert plan.data_dir is not None and plan.data_dir.resolve() == (repo / "cls").resolve()
    assert plan.cfg.train.steps == 8 and plan.cfg.train.seed == 7
