"""Atomic checkpoints: commit, manifest verification, keep-last-N, and a kill -9 in the middle of a save."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.training.checkpoints import CheckpointStore, find_resumable, verify_checkpoint


def _bytes_writer(data: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(data)

    return write


def _save(store: CheckpointStore, step: int) -> None:
    store.save(
        step, {"model.bin": _bytes_writer(f"weights {step}".encode()), "state.bin": _bytes_writer(b"s")}
    )


def test_save_commits_a_verified_folder_and_moves_the_pointer(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "ckpt", keep=3)
    info = store.save(7, {"model.bin": _bytes_writer(b"abc")}, meta={"loss": 0.5})
    assert info.path == tmp_path / "ckpt" / "step-7" and info.step == 7
    manifest = json.loads((info.path / "manifest.json").read_text())
    assert manifest["step"] == 7 and manifest["loss"] == 0.5
    assert (
        manifest["files"]["model.bin"]["bytes"] == 3 and len(manifest["files"]["model.bin"]["sha256"]) == 64
    )
    assert store.pointer() == "step-7"
    assert verify_checkpoint(info.path) == []
    assert sorted(p.name for p in (tmp_path / "ckpt").iterdir()) == ["latest", "step-7"]  # no work folders


def test_verification_catches_corruption_and_resume_skips_it(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path, keep=None)
    for step in (10, 20, 30):
        _save(store, step)
    (tmp_path / "step-30" / "model.bin").write_bytes(b"weights 3X")  # same size, other bytes
    (tmp_path / "step-20" / "state.bin").unlink()
    assert any("sha256" in p for p in verify_checkpoint(tmp_path / "step-30"))
    assert any("missing" in p for p in verify_checkpoint(tmp_path / "step-20"))
    best = find_resumable(tmp_path)
    assert best is not None and best.step == 10
    assert set(store.invalid()) == {tmp_path / "step-20", tmp_path / "step-30"}
    (tmp_path / "step-10" / "manifest.json").write_text("{not json")
    assert find_resumable(tmp_path) is None


def test_keep_last_n_prunes_only_after_the_new_commit(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path, keep=2)
    for step in (1, 2, 3, 4):
        _save(store, step)
    assert [info.step for info in store.committed()] == [3, 4]

    def boom(path: Path) -> None:
        path.write_bytes(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        store.save(5, {"model.bin": boom})
    # The failed save removed its work folder and deleted nothing: both committed ones still verify.
    assert [info.step for info in store.committed()] == [3, 4]
    assert store.pointer() == "step-4" and all(not verify_checkpoint(i.path) for i in store.committed())
    assert not list(tmp_path.glob("*.tmp-*"))


def test_resaving_a_step_replaces_it_atomically(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path, keep=3)
    store.save(5, {"model.bin": _bytes_writer(b"old")})
    store.save(5, {"model.bin": _bytes_writer(b"new!")})
    assert (tmp_path / "step-5" / "model.bin").read_bytes() == b"new!"
    assert not verify_checkpoint(tmp_path / "step-5")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step-5"]


def test_work_folders_are_ignored_and_stale_ones_cleaned(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path, keep=3)
    _save(store, 1)
    dead_pid = 2**22 + 12345  # above the default pid_max: no such process
    stale = tmp_path / f"step-2.tmp-{dead_pid}"
    stale.mkdir()
    (stale / "model.bin").write_bytes(b"partial")
    mine = tmp_path / f"step-3.tmp-{os.getpid()}"
    mine.mkdir()
    assert [info.step for info in store.committed()] == [1]
    assert store.latest_valid() is not None and store.latest_valid().step == 1  # type: ignore[union-attr]
    assert store.clean_stale_tmp() == [stale]
    assert mine.exists()


def test_stale_old_folders_are_removed_or_put_back(tmp_path: Path) -> None:
    """``step-<N>.old-<pid>`` (a re-save's moved-aside copy) of a dead writer: gone if step-<N> is back,
    renamed to step-<N> if the writer died between the two renames (it is then the only copy)."""
    store = CheckpointStore(tmp_path, keep=None)
    _save(store, 1)
    _save(store, 2)
    dead_pid = 2**22 + 12345  # above the default pid_max: no such process
    leftover = tmp_path / f"step-1.old-{dead_pid}"
    leftover.mkdir()
    (leftover / "model.bin").write_bytes(b"the replaced one")
    os.replace(tmp_path / "step-2", tmp_path / f"step-2.old-{dead_pid}")  # killed before the new step-2
    mine = tmp_path / f"step-1.old-{os.getpid()}"  # a live writer's: untouched
    mine.mkdir()
    assert [info.step for info in store.committed()] == [1]
    assert store.clean_stale_tmp() == [leftover]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step-1", mine.name, "step-2"]
    assert not verify_checkpoint(tmp_path / "step-2") and store.latest_valid().step == 2  # type: ignore[union-attr]


def test_verification_reports_an_unreadable_file_instead_of_raising(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path, keep=None)
    info = store.save(3, {"model.bin": _bytes_writer(b"w")})
    (info.path / "model.bin").unlink()
    (info.path / "model.bin").mkdir()  # a folder where the file was, its size written into the manifest
    manifest = json.loads((info.path / "manifest.json").read_text())
    manifest["files"]["model.bin"]["bytes"] = (info.path / "model.bin").stat().st_size
    (info.path / "manifest.json").write_text(json.dumps(manifest))
    problems = verify_checkpoint(info.path)
    assert len(problems) == 1 and "model.bin: unreadable" in problems[0]
    assert find_resumable(tmp_path) is None


KILL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from workbench.training.checkpoints import CheckpointStore

    store = CheckpointStore(Path(sys.argv[1]), keep=2)
    store.save(1, {"model.bin": lambda p: p.write_bytes(b"good weights"), "state.bin": lambda p: p.write_bytes(b"s1")})

    def slow(path):
        with open(path, "wb") as fh:
            fh.write(b"half of the new wei")
            fh.flush()
            print("WRITING", flush=True)
            time.sleep(60)

    store.save(2, {"model.bin": slow, "state.bin": lambda p: p.write_bytes(b"s2")})
    """
)


def test_kill_minus_9_during_a_save_keeps_the_previous_checkpoint(tmp_path: Path) -> None:
    ckpt = tmp_path / "ckpt"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILL_SCRIPT, str(ckpt)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "WRITING"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert (ckpt / f"step-2.tmp-{proc.pid}").is_dir()  # the half-written work folder is left behind...
    store = CheckpointStore(ckpt, keep=2)
    assert store.pointer() == "step-1"
    best = store.latest_valid()  # ...and ignored: the previous checkpoint still loads
    assert best is not None and best.step == 1
    assert (best.path / "model.bin").read_bytes() == b"good weights"
    # Saving again works and the dead writer's folder can be cleaned up.
    _save(store, 3)
    assert store.clean_stale_tmp() == [ckpt / f"step-2.tmp-{proc.pid}"]
    assert [info.step for info in store.committed()] == [1, 3]


# --------------------------------------------------------------------------- a real training run


def _events(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines() if line.strip()]


def _losses(run_dir: Path) -> dict[int, float]:
    out: dict[int, float] = {}
    for row in _events(run_dir):
        values = row.get("values")
        if row["type"] == "metrics" and isinstance(values, dict) and "loss" in values:
            out[int(row["step"])] = values["loss"]  # type: ignore[call-overload]
    return out


@pytest.mark.integration
def test_training_killed_mid_checkpoint_resumes_bit_identically(tmp_path: Path) -> None:
    """kill -9 while step 20's checkpoint is half written: step 10's loads, and the resumed run
    recomputes steps 11-20 with exactly the losses the killed run had logged."""
    pytest.importorskip("paddle")
    config = tmp_path / "tiny.yaml"
    config.write_text(
        "task: image_classification\n"
        "data: {dir: data, format: cls, demo: {train: 96, val: 16}}\n"
        "train: {steps: 30, batch_size: 16, lr: 0.01, optimizer: adam}\n"
        "eval: {every: 0}\n"
        "checkpoint: {every: 10, keep: 3}\n"
        "export: {enabled: false}\n"
    )
    workspace = tmp_path / "ws"
    env = dict(os.environ, HOME=str(tmp_path / "home"), GLOG_minloglevel="2", PADDLE_WORKBENCH_LANG="en")
    argv = [sys.executable, "-m", "workbench", "--workspace", str(workspace), "train", str(config), "--plain"]
    proc = subprocess.Popen(
        argv,
        env={**env, "PADDLE_WORKBENCH_INJECT": "slow_checkpoint@20:120"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        work: list[Path] = []
        while time.monotonic() < deadline and not work:
            work = list(workspace.glob("runs/*/checkpoints/step-20.tmp-*"))
            time.sleep(0.05)
        assert work, "the slow checkpoint never started"
        while time.monotonic() < deadline and not (work[0] / "model.pdparams").exists():
            time.sleep(0.05)
        time.sleep(0.7)  # let the event writer flush step 20's metrics (it flushes every 0.5 s)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    [killed] = [p for p in (workspace / "runs").iterdir()]
    store = CheckpointStore(killed / "checkpoints")
    assert store.pointer() == "step-10"
    best = store.latest_valid()
    assert best is not None and best.step == 10
    before = _losses(killed)
    assert sorted(before)[-1] >= 20

    resumed = subprocess.run(
        argv + ["--resume", "latest", "--json"], env=env, capture_output=True, text=True, timeout=180
    )
    assert resumed.returncode == 0, resumed.stderr
    doc = json.loads(resumed.stdout)
    assert doc["status"] == "finished" and doc["resumed_from"]["step"] == 10
    after = _losses(Path(doc["run_dir"]))
    assert sorted(after) == list(range(11, 31))
    for step in range(11, 21):
        assert after[step] == before[step], step  # bit for bit
