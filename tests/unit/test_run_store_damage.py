"""One damaged run folder never hides a run, breaks a listing, or stalls ``--resume`` for the others."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.events import RunFinished, RunStarted
from workbench.runs import RunHandle, RunStore, read_state
from workbench.training import PrepareError, prepare_training
from workbench.training.checkpoints import CheckpointStore
from workbench.training.plan import find_resume_point

CONFIG = "task: custom\nentry: os.path:join\nname: job\ntrain: {steps: 50}\n"


def _writer(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _finished_run(store: RunStore, name: str = "job", steps: tuple[int, ...] = (10, 20)) -> RunHandle:
    handle = store.create(name, {"task": "custom", "train": {"steps": 50}})
    handle.emit(RunStarted(run_id=handle.run_id, name=name))
    for step in steps:
        handle.writer.sample(0, step, {"loss": 1.0 / step}, float(step))
        CheckpointStore(handle.run_dir / "checkpoints", keep=None).save(
            step, {"model.bin": _writer(b"w%d" % step)}
        )
    handle.emit(RunFinished(step=steps[-1]))
    handle.close()
    return handle


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "job.yaml"
    path.write_text(CONFIG)
    return path


def test_a_run_without_run_yaml_is_listed_as_damaged_and_resumable(tmp_path: Path, store: RunStore) -> None:
    handle = _finished_run(store)
    (handle.run_dir / "run.yaml").unlink()
    [summary] = store.list()
    assert summary.run_id == handle.run_id and summary.status == "finished"
    assert "run.yaml is missing" in summary.damaged
    plan = prepare_training(_config(tmp_path), resume=str(handle.run_dir), store=store, environ={})
    assert plan.resume is not None and plan.resume.step == 20
    assert any("run.yaml of" in n and "settings of" in n for n in plan.notices)  # says which config is used
    assert prepare_training(_config(tmp_path), resume=handle.run_id, store=store, environ={}).resume


@pytest.mark.parametrize("bad", ['"yesterday"', "1e308", "-5", '{"a": 1}'])
def test_a_bad_state_field_is_dropped_with_a_reason_not_a_crash(store: RunStore, bad: str) -> None:
    handle = _finished_run(store)
    state = json.loads((handle.run_dir / "state.json").read_text())
    text = json.dumps(state)[:-1] + f', "started": {bad}}}'
    (handle.run_dir / "state.json").write_text(text.replace('"started": ', '"x": ', 1))
    [summary] = store.list()
    assert summary.started is None and summary.status == "finished" and summary.name == "job"
    assert "'started'" in summary.damaged
    assert read_state(handle.run_dir)[0].last_step == 20


def test_runs_cli_survives_bad_folders(
    tmp_path: Path, store: RunStore, subprocess_env: dict[str, str]
) -> None:
    good = _finished_run(store)
    bad = _finished_run(store)
    (bad.run_dir / "state.json").write_text('{"status": "finished", "started": 1e308, "last_step": "x"}')
    lost = _finished_run(store)
    (lost.run_dir / "run.yaml").unlink()
    for args in (["runs", "--json"], ["runs"]):
        result = subprocess.run(
            [sys.executable, "-m", "workbench", "--workspace", str(store.workspace), *args],
            capture_output=True,
            text=True,
            env=subprocess_env,
            timeout=60,
        )
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        if args == ["runs", "--json"]:
            runs = {r["run_id"]: r for r in json.loads(result.stdout)["runs"]}
            assert set(runs) == {good.run_id, bad.run_id, lost.run_id}
            assert runs[good.run_id]["damaged"] is None
            assert "started" in runs[bad.run_id]["damaged"] and "last_step" in runs[bad.run_id]["damaged"]
            assert "run.yaml is missing" in runs[lost.run_id]["damaged"]
        else:
            assert f"{lost.run_id}: damaged: run.yaml is missing" in result.stdout


def test_resume_latest_reads_names_from_state_not_from_every_run_yaml(
    tmp_path: Path, store: RunStore
) -> None:
    mine = _finished_run(store, "job")
    other = _finished_run(store, "other")
    # Another run's run.yaml is a FIFO nobody writes: reading it would block forever (as a multi-GB file
    # once took minutes). Resolving `latest` for "job" must not open it.
    (other.run_dir / "run.yaml").unlink()
    os.mkfifo(other.run_dir / "run.yaml")
    result: list[object] = []
    worker = threading.Thread(
        target=lambda: result.append(find_resume_point("latest", store, "job")), daemon=True
    )
    worker.start()
    worker.join(60)
    blocked = worker.is_alive()
    if blocked:  # unblock the reader so the test process can end
        with open(other.run_dir / "run.yaml", "w"):
            pass
        worker.join(10)
    assert not blocked, "resolving --resume latest opened another run's run.yaml"
    assert result and getattr(result[0], "run_dir", None) == mine.run_dir


def test_an_oversized_run_yaml_is_not_parsed(store: RunStore) -> None:
    from workbench.runs import MAX_RUN_YAML_BYTES, read_run_config

    handle = _finished_run(store)
    with open(handle.run_dir / "run.yaml", "a") as fh:
        fh.truncate(MAX_RUN_YAML_BYTES + 1)
    assert read_run_config(handle.run_dir) == {}


def test_an_ambiguous_prefix_says_so_and_lists_the_runs(tmp_path: Path, store: RunStore) -> None:
    a = _finished_run(store)
    b = _finished_run(store)
    prefix = os.path.commonprefix([a.run_id, b.run_id])
    with pytest.raises(PrepareError) as info:
        prepare_training(_config(tmp_path), resume=prefix, store=store, environ={})
    [message] = info.value.messages
    assert "matches 2 runs" in message and a.run_id in message and b.run_id in message


def test_a_corrupt_newest_checkpoint_is_named_when_it_is_skipped(tmp_path: Path, store: RunStore) -> None:
    handle = _finished_run(store)
    (handle.run_dir / "checkpoints" / "step-20" / "model.bin").write_bytes(b"xxx")
    plan = prepare_training(_config(tmp_path), resume="latest", store=store, environ={})
    assert plan.resume is not None and plan.resume.step == 10
    [skipped] = [n for n in plan.notices if "skipped checkpoint" in n]
    assert str(handle.run_dir / "checkpoints" / "step-20") in skipped and "sha256 differs" in skipped
