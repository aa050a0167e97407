"""Many runs on one set of axes (workbench/compare_runs.py): alignment, reading at a position,
differences to a baseline, the runs sidebar's list and filter."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench.compare_runs import (
    AlignedSeries,
    Difference,
    RunEntry,
    aligned_x,
    batch_size,
    compare_latest,
    difference,
    list_entries,
    matches,
    value_at,
)
from workbench.events import RunFinished, RunStarted
from workbench.runs import RunStore


def test_alignment_by_step_and_by_samples_seen() -> None:
    steps = np.array([1, 2, 10], dtype=np.int64)
    config = {"train": {"batch_size": 64}}
    assert aligned_x(steps, config, "step").tolist() == [1.0, 2.0, 10.0]
    assert aligned_x(steps, config, "samples").tolist() == [64.0, 128.0, 640.0]
    assert aligned_x(steps, {}, "samples") is None  # no batch size: cannot be placed by samples
    assert aligned_x(steps, {}, "step").tolist() == [1.0, 2.0, 10.0]
    assert (
        batch_size({"train": {"batch_size": True}}) is None
        and batch_size({"train": {"batch_size": 0}}) is None
    )


def test_runs_with_different_batch_sizes_meet_at_the_same_samples() -> None:
    small = aligned_x(np.array([2], dtype=np.int64), {"train": {"batch_size": 32}}, "samples")
    large = aligned_x(np.array([1], dtype=np.int64), {"train": {"batch_size": 64}}, "samples")
    assert small is not None and large is not None and small[0] == large[0] == 64.0


def test_value_at_reads_the_nearest_point_at_or_before() -> None:
    x = np.array([10.0, 20.0, 30.0])
    y = np.array([1.0, 2.0, 3.0])
    assert value_at(x, y, 20.0) == 2.0
    assert value_at(x, y, 29.9) == 2.0  # not the next point: what the run had logged by then
    assert value_at(x, y, 99.0) == 3.0
    assert value_at(x, y, 9.0) is None
    assert value_at(np.empty(0), np.empty(0), 1.0) is None


def test_difference_absolute_and_percent() -> None:
    assert difference(1.1, 1.0) == Difference(absolute=1.1 - 1.0, percent=(1.1 - 1.0) * 100.0)
    diff = difference(0.5, -2.0)
    assert diff is not None and diff.absolute == 2.5 and diff.percent == 125.0  # relative to |baseline|
    zero = difference(0.25, 0.0)
    assert zero is not None and zero.absolute == 0.25 and zero.percent is None
    assert difference(None, 1.0) is None and difference(float("nan"), 1.0) is None


def test_compare_latest_differs_at_the_last_position_both_reached() -> None:
    base = AlignedSeries("base", np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0]))
    longer = AlignedSeries("longer", np.array([1.0, 2.0, 3.0, 4.0]), np.array([4.0, 3.0, 1.5, 0.5]))
    shorter = AlignedSeries("shorter", np.array([1.0, 2.0]), np.array([2.0, 1.0]))
    rows = {r.run_id: r for r in compare_latest([base, longer, shorter], "base")}
    assert rows["base"].is_baseline and rows["base"].diff is None and rows["base"].latest == 1.0
    assert rows["longer"].latest == 0.5 and rows["longer"].at == 3.0
    assert rows["longer"].diff == Difference(0.5, 50.0)  # 1.5 vs 1.0 at x=3, not 0.5 vs 1.0
    assert rows["shorter"].at == 2.0 and rows["shorter"].diff == Difference(-1.0, -50.0)


def test_compare_latest_without_a_baseline_gives_values_only() -> None:
    runs = [
        AlignedSeries("a", np.array([1.0]), np.array([2.0])),
        AlignedSeries("b", np.empty(0), np.empty(0)),
    ]
    rows = compare_latest(runs, None)
    assert [(r.run_id, r.latest, r.diff) for r in rows] == [("a", 2.0, None), ("b", None, None)]
    assert not any(r.is_baseline for r in rows)


def test_filter_by_name_status_task_and_tag() -> None:
    entry = RunEntry(
        "20260101-000001-lr-sweep-ab12", "lr-sweep", "failed", "image_classification", ("sweep", "A100")
    )
    assert matches(entry, "")
    assert matches(entry, "sweep") and matches(entry, "FAILED") and matches(entry, "image")
    assert matches(entry, "a100 failed")  # every word must match, any field
    assert not matches(entry, "finished")
    assert matches(entry, "status:fail") and not matches(entry, "status:sweep")
    assert matches(entry, "tag:a100") and not matches(entry, "tag:lr")
    assert matches(entry, "task:classif") and matches(entry, "id:ab12") and matches(entry, "name:lr")
    assert matches(entry, "nokey:") is False  # an unknown key is looked for as a word


def test_list_entries_reads_task_and_tags_from_the_stored_config(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")
    for run_id, config in (
        ("20260101-000001-a-0001", {"task": "image_classification", "tags": ["sweep", "lr=0.1"]}),
        ("20260101-000002-b-0002", {"task": "text_recognition", "tags": "baseline"}),
        ("20260101-000003-c-0003", {}),
    ):
        handle = store.create(run_id[16:17], config, run_id=run_id)
        handle.emit(RunStarted(run_id=run_id, name=run_id[16:17]))
        handle.emit(RunFinished(step=1))
        handle.close()
    entries = {e.run_id: e for e in list_entries(store)}
    assert [e.run_id for e in list_entries(store)][0] == "20260101-000003-c-0003"  # newest first
    assert entries["20260101-000001-a-0001"].tags == ("sweep", "lr=0.1")
    assert entries["20260101-000001-a-0001"].task == "image_classification"
    assert entries["20260101-000002-b-0002"].tags == ("baseline",)
    assert (
        entries["20260101-000003-c-0003"].task == ""
        and entries["20260101-000003-c-0003"].status == "finished"
    )
    assert [e.run_id for e in entries.values() if matches(e, "tag:sweep")] == ["20260101-000001-a-0001"]


def test_a_training_configs_tags_reach_run_yaml_as_the_sidebar_reads_them() -> None:
    from workbench.config.training import TrainingConfig

    cfg = TrainingConfig.model_validate(
        {"task": "custom", "entry": "pkg.mod:build", "tags": ["sweep", "a100"]}
    )
    dumped = cfg.model_dump(mode="json")  # what the run store writes as run.yaml's config
    assert dumped["tags"] == ["sweep", "a100"]
    entry = RunEntry("r", "n", "finished", dumped["task"], tuple(dumped["tags"]))
    assert matches(entry, "tag:a100")
    assert TrainingConfig.model_validate({"task": "custom", "entry": "pkg.mod:build"}).tags == []
