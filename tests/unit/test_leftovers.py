"""Leftovers of killed processes: removed when their pid is gone, never while their writer runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.datasets import generate_cls_demo
from workbench.leftovers import clean_workspace
from workbench.runs import RunStore, atomic_write_text


@pytest.fixture(scope="module")
def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    code = "import os; print(os.getpid())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(proc.stdout)


def test_a_failed_atomic_write_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    atomic_write_text(target, "{}")
    with pytest.raises(UnicodeEncodeError):  # fails mid-write, like a full disk does
        atomic_write_text(target, "\udc80")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]
    assert target.read_text() == "{}"


def test_workspace_leftovers_of_dead_pids_are_removed_and_live_ones_kept(
    tmp_path: Path, dead_pid: int
) -> None:
    store = RunStore(tmp_path / "ws")
    handle = store.create("killed")
    handle.close()
    run_dir = handle.run_dir
    checkpoints = run_dir / "checkpoints"
    (checkpoints / "step-3").mkdir(parents=True)
    (checkpoints / "step-3" / "manifest.json").write_text("{}")
    stale = [
        checkpoints / f"step-5.tmp-{dead_pid}",  # a checkpoint half-written when the process was killed
        run_dir / f"state.json.tmp-{dead_pid}-140000",  # 0 bytes after a full disk
        checkpoints / f"latest.tmp-{dead_pid}-140000",
    ]
    stale[0].mkdir()
    (stale[0] / "model.pdparams").write_bytes(b"half")
    stale[1].write_bytes(b"")
    stale[2].write_bytes(b"")
    live = [checkpoints / f"step-6.tmp-{os.getpid()}", run_dir / f"state.json.tmp-{os.getpid()}-1"]
    live[0].mkdir()
    live[1].write_bytes(b"")
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(store.workspace), "runs", "gc", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PADDLE_WORKBENCH_LANG="en"),
    )
    assert result.returncode == 0, result.stderr
    assert sorted(json.loads(result.stdout)["removed"]) == sorted(str(p) for p in stale)
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in live)  # this test process is alive: its work is not touched
    assert (checkpoints / "step-3" / "manifest.json").exists()
    assert clean_workspace(store) == []  # nothing left to do
    again = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(store.workspace), "runs", "gc"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PADDLE_WORKBENCH_LANG="en"),
    )
    assert again.returncode == 0 and "nothing to clean" in again.stdout


def test_an_interrupted_demo_generation_is_cleaned_by_the_next(tmp_path: Path, dead_pid: int) -> None:
    killed = tmp_path / f"cls.tmp-{dead_pid}"
    (killed / "images").mkdir(parents=True)
    (killed / "images" / "00000.png").write_bytes(b"half an image")
    running = tmp_path / "cls.tmp-1"  # pid 1 always runs: another generator's work in progress
    running.mkdir()
    other = tmp_path / "cls.tmp-notapid"
    other.mkdir()
    generate_cls_demo(tmp_path / "cls", n_train=4, n_val=2, seed=0)
    assert (tmp_path / "cls" / "label.txt").exists()
    assert not killed.exists()
    assert other.exists()  # not a work folder of ours: never touched
    assert running.exists()
