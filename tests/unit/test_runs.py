from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from workbench.events import CheckpointSaved, RunFinished, RunStarted
from workbench.runs import (
    STATUS_FINISHED,
    STATUS_INTERRUPTED,
    STATUS_RUNNING,
    EventTailer,
    RunStore,
    add_run_config,
    read_run,
    read_run_config,
    read_run_doc,
    resolve_workspace,
)


def test_create_writes_layout_and_lists(store: RunStore) -> None:
    handle = store.create("baseline", {"train": {"steps": 3}}, fingerprint={"paddle": "3.3.1"})
    handle.emit(RunStarted(run_id=handle.run_id, name="baseline"))
    for step in range(1, 4):
        handle.writer.sample(0, step, {"loss": 1.0 / step}, float(step))
    handle.emit(CheckpointSaved(step=3, path="checkpoints/step-3"))
    handle.emit(RunFinished(step=3))
    handle.close()

    assert (handle.run_dir / "run.yaml").read_text().startswith("run_id:")
    lines = [json.loads(x) for x in (handle.run_dir / "events.jsonl").read_text().splitlines()]
    assert [row["type"] for row in lines] == [
        "run_started", "metrics", "metrics", "metrics", "checkpoint_saved", "run_finished",
    ]  # fmt: skip
    assert lines[1] == {"type": "metrics", "rank": 0, "step": 1, "time": 1.0, "values": {"loss": 1.0}}

    [summary] = store.list()
    assert summary.status == STATUS_FINISHED and summary.last_step == 3 and summary.name == "baseline"
    record = store.read("latest")
    assert record.config == {"train": {"steps": 3}}
    assert record.metrics.series("loss") is not None
    assert [e.TYPE for e in record.events][-1] == "run_finished"


def test_resolve_by_id_prefix_path_and_latest(store: RunStore) -> None:
    a = store.create("a")
    b = store.create("b")
    a.close()
    b.close()
    assert store.resolve(a.run_id) == a.run_dir
    assert store.resolve(str(b.run_dir)) == b.run_dir
    assert store.resolve("latest") in (a.run_dir, b.run_dir)
    assert store.resolve("no-such-run") is None


def test_run_whose_writer_died_is_interrupted(store: RunStore) -> None:
    handle = store.create("orphan")
    handle.emit(RunStarted(run_id=handle.run_id))
    handle.close()
    assert store.list()[0].status == STATUS_RUNNING  # this process is alive
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    state = json.loads((handle.run_dir / "state.json").read_text())
    state["pid"] = int(dead.stdout)
    (handle.run_dir / "state.json").write_text(json.dumps(state))
    assert store.list()[0].status == STATUS_INTERRUPTED


def test_tailer_waits_for_complete_lines_and_reads_rank_files(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    (run_dir / "ranks" / "1").mkdir(parents=True)
    top = run_dir / "events.jsonl"
    top.write_text('{"type": "run_started", "time": 1, "run_id": "r"}\n{"type": "metr')
    tailer = EventTailer(run_dir)
    assert [e.TYPE for e, _ in tailer.poll()] == ["run_started"]
    with open(top, "a") as fh:
        fh.write('ics", "rank": 0, "step": 5, "time": 2, "values": {"loss": "nan"}}\nnot json\n')
    (run_dir / "ranks" / "1" / "events.jsonl").write_text(
        '{"type": "metrics", "rank": 1, "step": 5, "time": 2, "values": {"loss": 0.5}}\n'
    )
    assert tailer.poll() == []
    assert tailer.bad_lines == 1
    assert tailer.metrics.last_step == {0: 5, 1: 5}
    series = tailer.metrics.series("loss", 0)
    assert series is not None and str(series.last()) == "(5, nan)"


def test_workspace_resolution(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert resolve_workspace(None) == Path(".paddle-workbench")
    monkeypatch.setenv("PADDLE_WORKBENCH_WORKSPACE", str(tmp_path))
    assert resolve_workspace(None) == tmp_path
    assert resolve_workspace(tmp_path / "x") == tmp_path / "x"


def test_read_run_tolerates_a_missing_events_file(store: RunStore) -> None:
    handle = store.create("empty")
    handle.close()
    (handle.run_dir / "events.jsonl").unlink()
    record = read_run(handle.run_dir)
    assert record.events == [] and record.summary.run_id == handle.run_id


def test_a_reused_pid_does_not_keep_a_dead_run_running(store: RunStore) -> None:
    handle = store.create("reused")
    handle.close()
    state = json.loads((handle.run_dir / "state.json").read_text())
    state["pid_started"] = state["pid_started"] - 3600  # same pid, another process's start time
    (handle.run_dir / "state.json").write_text(json.dumps(state))
    assert store.list()[0].status == STATUS_INTERRUPTED


def test_brief_reads_the_tail_of_a_long_run(store: RunStore) -> None:
    from workbench.events import RunFailed
    from workbench.runs import read_run_brief

    handle = store.create("long")
    for step in range(1, 20_001):
        handle.writer.sample(0, step, {"loss": 1.0 / step, "big": float("nan")}, float(step))
    handle.emit(RunFailed(error="boom", traceback="tb", step=20_000))
    handle.close()
    brief = read_run_brief(handle.run_dir, tail_bytes=4096)
    assert brief.latest["loss"] == 1.0 / 20_000
    assert brief.failure is not None and brief.failure.error == "boom"
    assert brief.summary.status == "failed"


def test_unusual_metric_values_never_kill_the_writer(store: RunStore) -> None:
    handle = store.create("odd")
    handle.writer.sample(0, 1, {"complex": 1 + 2j, "ok": 1.0}, 1.0)  # type: ignore[dict-item]
    handle.writer.sample(0, 2, {"ok": 2.0}, 2.0)
    handle.close()
    rows = [json.loads(x) for x in (handle.run_dir / "events.jsonl").read_text().splitlines()]
    assert rows[0]["values"] == {"complex": "(1+2j)", "ok": 1.0} and rows[1]["step"] == 2


def test_add_run_config_adds_missing_keys_and_keeps_the_runs_own(store: RunStore) -> None:
    handle = store.create(
        "launched", {"lr": 0.5, "epochs": 3}, fingerprint={"python": "3.11"}, kind="launched"
    )
    handle.close()
    clashes = add_run_config(handle.run_dir, {"lr": 0.1, "epochs": 3, "layers": 2})
    assert clashes == ["lr"]  # the same value is no clash
    assert read_run_config(handle.run_dir) == {"lr": 0.5, "epochs": 3, "layers": 2}
    doc = read_run_doc(handle.run_dir)
    assert (doc["name"], doc["kind"], doc["environment"]) == ("launched", "launched", {"python": "3.11"})
    # A value YAML cannot hold raises before anything is written.
    with pytest.raises(yaml.YAMLError):
        add_run_config(handle.run_dir, {"fn": object()})
    assert read_run_config(handle.run_dir) == {"lr": 0.5, "epochs": 3, "layers": 2}
