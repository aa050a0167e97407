"""The baseline is chosen by its rule or pinned, on real run folders written by the run store.

Every run here is a folder the store writes (``run.yaml``, ``events.jsonl``, ``state.json``) with the
config and environment its producer records: a training run with ``model.json`` (the training loop's
fingerprint), the numpy demo (``task: demo``), a ``track`` script (its environment names the script),
an attached kit log (kind ``linked``) and a parallel plan run (``parallel.json``).
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tests.stored_runs import CONFIG, ENVIRONMENT, write_stored_run
from workbench.baseline import (
    ATTACHED,
    DEMO,
    PARALLEL,
    TRACKED,
    choose_baseline,
    pin,
    read_pins,
    unpin,
)
from workbench.cli.root import build_cli
from workbench.events import RunFailed, RunFinished, RunStarted
from workbench.runs import RunStore
from workbench.training.model_fingerprint import write_model_fingerprint
from workbench.verify.engine import find_runs


class _Param:
    def __init__(self, shape: list[int]) -> None:
        self.shape = shape
        self.dtype = "paddle.float32"


class _Model:
    """What ``model_fingerprint`` reads of a Paddle layer: its named parameters."""

    def __init__(self, width: int) -> None:
        self.width = width

    def named_parameters(self) -> list[tuple[str, _Param]]:
        return [("conv.weight", _Param([self.width, 3, 3, 3])), ("fc.weight", _Param([self.width, 4]))]


def _run(
    store: RunStore,
    run_id: str,
    *,
    config: dict[str, Any] | None = None,
    environment: dict[str, Any] | None = None,
    kind: str = "in_process",
    width: int | None = 16,
    parallel: bool = False,
    failed: bool = False,
) -> Path:
    handle = store.create(
        run_id.split("-")[2],
        CONFIG if config is None else config,
        fingerprint=ENVIRONMENT if environment is None else environment,
        kind=kind,
        run_id=run_id,
    )
    handle.emit(RunStarted(run_id=run_id, name="r", kind=kind, time=1.0))
    if width is not None:
        write_model_fingerprint(handle.run_dir, _Model(width))
    if parallel:
        (handle.run_dir / "parallel.json").write_text("{}\n")
    end = (
        RunFailed(error="boom", traceback="", time=2.0)
        if failed
        else RunFinished(step=6, summary={}, time=2.0)
    )
    handle.writer.close(last=end)
    handle.update_state(end)
    handle.close()
    return handle.run_dir


def _workspace(tmp_path: Path) -> tuple[RunStore, dict[str, Path]]:
    """Oldest first: a training run (width 16), another model (width 32), then newer runs that must
    never be chosen implicitly, and a failed training run of the first model."""
    store = RunStore(tmp_path / "ws")
    runs = {
        "base": write_stored_run(store.workspace),  # 2026-11-30, no model.json: an older run
        "train16": _run(store, "20261201-100000-train16-aaaa"),
        "train32": _run(store, "20261201-100100-train32-bbbb", width=32),
        "demo": _run(
            store, "20261201-100200-demo-cccc", config={"task": "demo", "train": {"steps": 6}}, width=None
        ),
        "track": _run(
            store,
            "20261201-100300-script-dddd",
            config=CONFIG,  # a script may log the very config a training run records
            environment={"python": "3.11.7", "script": "/home/ada/train.py"},
            width=None,
        ),
        "plan": _run(store, "20261201-100400-plan-eeee", parallel=True),
        "failed": _run(store, "20261201-100500-train16-ffff", failed=True),
    }
    return store, runs


def test_the_newest_finished_training_run_is_chosen_and_the_others_are_named(tmp_path: Path) -> None:
    store, runs = _workspace(tmp_path)
    choice = choose_baseline(store)
    assert choice.run_dir == runs["train32"] and not choice.pinned
    assert choice.skipped == [
        (runs["plan"].name, PARALLEL),
        (runs["track"].name, TRACKED),
        (runs["demo"].name, DEMO),
    ]
    # of a model: its own newest run, however many newer runs of other models there are
    sha16 = json.loads((runs["train16"] / "model.json").read_text())["sha256"]
    assert choose_baseline(store, sha16).run_dir == runs["train16"]
    assert choose_baseline(store, "0" * 64).run_dir is None


def test_an_attached_kit_log_is_never_chosen(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")
    linked = _run(store, "20261201-110000-ocr-aaaa", kind="linked", width=None)
    assert choose_baseline(store).run_dir is None
    assert choose_baseline(store).skipped == [(linked.name, ATTACHED)]
    trained = _run(store, "20261201-100000-train-bbbb")
    assert choose_baseline(store).run_dir == trained


def test_the_dashboard_pairs_a_parallel_run_with_the_baseline_of_its_model(tmp_path: Path) -> None:
    store, runs = _workspace(tmp_path)
    baseline, parallel = find_runs(store)
    assert parallel == runs["plan"]
    assert baseline == runs["train16"]  # the plan trained the width-16 model; train32 is newer


def test_a_pin_wins_per_model_and_is_stored_owner_only(tmp_path: Path) -> None:
    store, runs = _workspace(tmp_path)
    made = pin(store, runs["demo"])  # any finished run may be pinned: the user chose it
    assert made.model is None
    assert choose_baseline(store).run_dir == runs["demo"] and choose_baseline(store).pinned
    path = store.workspace / "baseline.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    pin(store, runs["base"])  # another model-less run replaces the first pin of "no model"
    assert [p.run for p in read_pins(store.workspace)] == [runs["base"].name]
    sha32 = json.loads((runs["train32"] / "model.json").read_text())["sha256"]
    pin(store, runs["train32"])
    assert choose_baseline(store, sha32).run_dir == runs["train32"]
    assert {p.run for p in read_pins(store.workspace)} == {runs["base"].name, runs["train32"].name}
    assert [p.run for p in unpin(store, runs["train32"])] == [runs["train32"].name]
    assert choose_baseline(store).run_dir == runs["base"]
    unpin(store)
    assert read_pins(store.workspace) == [] and choose_baseline(store).run_dir == runs["train32"]


def test_a_pin_whose_run_was_deleted_is_passed_over(tmp_path: Path) -> None:
    import shutil

    store, runs = _workspace(tmp_path)
    pin(store, runs["train16"])
    shutil.rmtree(runs["train16"])
    assert choose_baseline(store).run_dir == runs["train32"]


def _cli(workspace: Path, *args: str) -> Any:
    return CliRunner().invoke(build_cli(), ["--workspace", str(workspace), "runs", *args])


def test_runs_pin_through_the_cli(tmp_path: Path) -> None:
    store, runs = _workspace(tmp_path)
    shown = _cli(store.workspace, "pin")
    assert shown.exit_code == 0, shown.output
    assert "no pinned baseline" in shown.output
    assert f"baseline: {runs['train32'].name} (newest finished single-card run of its model)" in shown.output
    assert f"passed over {runs['demo'].name}: the numpy demo" in shown.output
    result = _cli(store.workspace, "pin", runs["train16"].name[:24])  # a unique prefix
    assert result.exit_code == 0, result.output
    assert f"pinned {runs['train16'].name} as the baseline of its model" in result.output
    assert f"baseline: {runs['train16'].name} (pinned)" in result.output
    doc = json.loads(_cli(store.workspace, "pin", "--json").stdout)
    assert doc["baseline"]["run"] == runs["train16"].name and doc["baseline"]["pinned"] is True
    assert [p["run"] for p in doc["pins"]] == [runs["train16"].name]
    listed = json.loads(
        CliRunner().invoke(build_cli(), ["--workspace", str(store.workspace), "runs", "--json"]).stdout
    )
    assert [r["run_id"] for r in listed["runs"] if r["pinned"]] == [runs["train16"].name]
    # bad input: exit 2 with the reason, nothing changed
    failed = _cli(store.workspace, "pin", runs["failed"].name)
    assert failed.exit_code == 2 and "only a finished run can be a baseline" in failed.output
    missing = _cli(store.workspace, "pin", "nosuchrun")
    assert missing.exit_code == 2 and "nosuchrun" in missing.output
    assert [p.run for p in read_pins(store.workspace)] == [runs["train16"].name]
    gone = _cli(store.workspace, "unpin", runs["train16"].name)
    assert gone.exit_code == 0 and f"unpinned {runs['train16'].name}" in gone.output
    assert f"baseline: {runs['train32'].name}" in gone.output


def test_parity_takes_the_pinned_baseline_when_it_is_comparable(tmp_path: Path) -> None:
    from workbench.parallel.parity import comparable_baseline

    store, runs = _workspace(tmp_path)
    assert comparable_baseline(store, runs["plan"]) == runs["train16"]
    pin(store, runs["base"])  # same config, older, no model.json: comparable by its config
    assert comparable_baseline(store, runs["plan"]) == runs["base"]
    pin(store, runs["train32"])  # pinned for its own model (width 32): not comparable to the plan
    unpin(store, runs["base"])
    assert comparable_baseline(store, runs["plan"]) == runs["train16"]
