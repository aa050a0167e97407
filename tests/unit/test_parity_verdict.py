"""The parity verdict (workbench/parallel/parity.py) and comparability (workbench/parallel/comparable.py)
on loss curves recorded from real runs (tests/fixtures/parity/curves.json says which), written into run
folders in tmp with the run store itself: the float32 noise model, each planted error named by its check,
refusals that say what differs, and what to do next."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from workbench.events import RunFinished, RunStarted
from workbench.parallel.comparable import differences
from workbench.parallel.parity import (
    AMPLIFIED,
    DIVERGED,
    MATCH,
    Curves,
    compare_runs,
    judge,
    latest_pair,
    next_command,
    rounding_floor,
)
from workbench.runs import RunStore

CURVES = json.loads((Path(__file__).parents[1] / "fixtures" / "parity" / "curves.json").read_text())

CONFIG: dict[str, Any] = {
    "task": "image_classification",
    "entry": None,
    "data": {"dir": "/data/cls", "format": "cls", "demo": {"train": 512, "val": 64, "seed": 0}},
    "model": {"name": "small_cnn_mlp", "num_classes": None, "width": 8, "hidden": 64},
    "train": {
        "steps": 100, "batch_size": 64, "lr": 0.05, "optimizer": "sgd", "seed": 42, "device": "auto",
        "lr_schedule": "cosine", "warmup_steps": 2, "weight_decay": 0.0, "grad_clip": None,
    },
    "options": {},
}  # fmt: skip
PARAMS = [
    ["conv1.weight", [8, 3, 3, 3], "float32"], ["conv1.bias", [8], "float32"],
    ["conv2.weight", [16, 8, 3, 3], "float32"], ["conv2.bias", [16], "float32"],
    ["fc1.weight", [1024, 64], "float32"], ["fc1.bias", [64], "float32"],
    ["fc2.weight", [64, 10], "float32"], ["fc2.bias", [10], "float32"],
]  # fmt: skip


def _config(parallel: dict[str, Any] | None = None, **train: Any) -> dict[str, Any]:
    config = copy.deepcopy(CONFIG)
    config["train"].update(train)
    if parallel is not None:
        config["parallel"] = parallel
    return config


DP = {"plan_file": "/plans/plan_cls_dp.yaml", "train_file": "/plans/train.yaml", "train_name": "train_cls_mlp",
      "mesh": {"shape": [2], "dim_names": ["dp"]}}  # fmt: skip


def _model_doc(params: list[list[Any]]) -> dict[str, Any]:
    import hashlib

    digest = hashlib.sha256(json.dumps(params, separators=(",", ":")).encode()).hexdigest()
    return {"sha256": digest, "count": len(params), "numel": 0, "params": params}


def _run(
    store: RunStore,
    name: str,
    config: dict[str, Any],
    ranks: list[list[float]],
    params: list[list[Any]] | None = PARAMS,
) -> Path:
    handle = store.create(name, config)
    handle.emit(RunStarted(run_id=handle.run_id, name=name))
    for rank, losses in enumerate(ranks):
        for step, loss in enumerate(losses, start=1):
            handle.writer.sample(rank, step, {"loss": loss}, float(step))
    finished = RunFinished(step=len(ranks[0]))
    handle.emit(finished)
    handle.update_state(finished)
    handle.close()
    if params is not None:
        (handle.run_dir / "model.json").write_text(json.dumps(_model_doc(params)))
    return handle.run_dir


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "ws")


@pytest.fixture
def baseline(store: RunStore) -> Path:
    return _run(store, "train_cls_mlp", _config(), [CURVES["baseline"]])


@pytest.mark.parametrize("name", ["dp", "tp", "2d"])
def test_the_recorded_correct_plans_pass_at_100_steps(store: RunStore, baseline: Path, name: str) -> None:
    plan = _run(store, f"plan_cls_{name}", _config(DP if name != "tp" else {"plan_file": "/p/tp.yaml"}),
                [CURVES[name], CURVES[name]])  # fmt: skip
    result = compare_runs(baseline, plan)
    assert result.ok, result.to_dict()
    assert result.compared == 100 and result.first_divergence_step is None
    assert result.verdict == (MATCH if name == "dp" else AMPLIFIED)
    text = result.verdict_text()
    assert text.startswith("parity holds")
    if name != "dp":  # tp and 2-D grow out of the floor late and gradually: amplified rounding
        assert result.leaves_floor_step is not None and result.leaves_floor_step > 40
        assert "grew out of it gradually" in text


def test_the_old_fixed_tolerance_calls_the_correct_tp_plan_broken(store: RunStore, baseline: Path) -> None:
    tp = _run(store, "plan_cls_tp", _config({"plan_file": "/p/tp.yaml"}), [CURVES["tp"]])
    result = compare_runs(baseline, tp, tolerance=1e-5)
    assert not result.ok and result.verdict == DIVERGED and result.first_divergence_step == 46
    assert result.verdict_text().startswith("parity does not hold by the fixed tolerance: at step 46")
    loose = compare_runs(baseline, tp, tolerance=0.01)
    assert loose.ok and loose.verdict_text().startswith("parity holds within the fixed tolerance")


@pytest.mark.parametrize(
    ("curve", "train", "named"),
    [
        ("seed_43", {"seed": 43}, {"seeds"}),
        ("batch_128", {"batch_size": 128}, {"global_batch", "learning_rate"}),  # un-scaled learning rate
        ("batch_32_lr_0.025", {"batch_size": 32, "lr": 0.025}, {"global_batch"}),  # wrong global batch
        ("lr_0.1", {"lr": 0.1}, {"learning_rate"}),
    ],
)
def test_each_planted_config_error_fails_with_its_check_named(
    store: RunStore, baseline: Path, curve: str, train: dict[str, Any], named: set[str]
) -> None:
    planted = _run(store, "planted", _config(DP, **train), [CURVES[curve], CURVES[curve]])
    result = compare_runs(baseline, planted)
    assert not result.ok and result.verdict == DIVERGED
    assert set(result.named_causes) == named
    assert result.first_divergence_step is not None and result.first_divergence_step <= 3  # it jumps at once
    text = result.verdict_text()
    assert text.startswith("parity does not hold") and all(name in text for name in named)
    assert next_command(result.to_dict()) == "paddle-workbench plan run /plans/plan_cls_dp.yaml"


def test_ranks_without_gradient_sync_are_named(store: RunStore) -> None:
    manual = {
        **CONFIG,
        "model": {"name": "mlp", "hidden": 32},
        "train": {"batch_size": 64, "lr": 0.1, "seed": 7},
    }
    single = _run(store, "manual_dp", manual, [CURVES["manual_single"]], params=None)
    nosync = _run(store, "manual_dp", {**manual, "parallel": {"mesh": {"shape": [2], "dim_names": ["dp"]}}},
                  CURVES["manual_nosync_ranks"], params=None)  # fmt: skip
    result = compare_runs(single, nosync)
    assert result.comparability is not None and not result.comparability.by_fingerprint
    assert not result.ok and result.named_causes == ["gradient_sync"]
    check = next(c for c in result.checks if c.id == "gradient_sync")
    assert "not synchronised" in check.summary and "all-reduce" in check.fix
    # A script of the user's own has no plan to re-run: the next thing is the named fix.
    assert "all-reduce" in next_command(result.to_dict())


def test_ranks_logging_their_own_loss_with_parameters_in_sync_only_warn(
    store: RunStore, baseline: Path
) -> None:
    # Each rank logs its half's loss; their mean is the global loss (the parameters stay in sync).
    base = CURVES["baseline"]
    halves = [[v + 0.01 for v in base], [v - 0.01 for v in base]]
    plan = _run(store, "plan_cls_dp", _config(DP), halves)
    result = compare_runs(baseline, plan)
    checks = {c.id: c.status for c in result.checks}
    assert checks["metric_averaging"] == "warn" and "gradient_sync" not in result.named_causes
    assert result.ok


def test_the_floor_grows_with_steps_and_loss_scale() -> None:
    assert rounding_floor(2.0, 2.0, 100) == pytest.approx(10 * rounding_floor(2.0, 2.0, 1))
    assert rounding_floor(20.0, 20.0, 4) == pytest.approx(10 * rounding_floor(2.0, 2.0, 4))


def test_a_gap_that_grows_gradually_but_past_the_envelope_diverges() -> None:
    steps = list(range(1, 61))
    loss = [2.0] * 60
    other = [2.0] * 40 + [2.0 * (1 + 1e-6 * 3**k) for k in range(20)]  # from the floor, ×3 a step
    floor = [rounding_floor(a, b, s) for s, a, b in zip(steps, loss, other, strict=True)]
    verdict, first, left = judge(Curves(steps, loss, other, floor))
    assert verdict == DIVERGED and left is not None and first is not None and first > left


def test_curves_in_a_report_are_thinned_keeping_the_largest_gaps(store: RunStore) -> None:
    base = _run(store, "long", _config(), [[2.0] * 1200])
    bumped = [2.0] * 1200
    bumped[777] = 2.0 + 1e-7
    plan = _run(store, "long_plan", _config(DP), [bumped])
    doc = compare_runs(base, plan).to_dict()
    assert len(doc["curves"]["steps"]) <= 500 and 778 in doc["curves"]["steps"]
    assert set(doc["curves"]) == {"steps", "abs", "rel", "floor"}


# -- comparable or refused ------------------------------------------------------------------------


def test_two_different_models_are_refused_with_what_differs(store: RunStore, baseline: Path) -> None:
    other = [["conv1.weight", [8, 3, 3, 3], "float32"], ["conv1.bias", [8], "float32"],
             ["fc.weight", [1024, 10], "float32"], ["fc.bias", [10], "float32"]]  # fmt: skip
    demo = _run(store, "train_cls_demo", {**_config(), "model": {"name": "small_cnn", "width": 8}},
                [CURVES["baseline"]], params=other)  # fmt: skip
    result = compare_runs(demo, _run(store, "plan_cls_tp", _config(DP), [CURVES["tp"]]))
    assert not result.comparable and not result.ok and result.compared == 0
    texts = [d.text() for d in result.comparability.differences]  # type: ignore[union-attr]
    assert any("fc.weight, fc.bias" in x for x in texts) and any("fc1.weight" in x for x in texts)
    assert "model.name: small_cnn ≠ small_cnn_mlp" in texts
    assert result.to_dict()["verdict"] == "not_comparable"
    assert result.verdict_text().startswith("not comparable")


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda p: p.__setitem__(4, ["fc1.weight", [1024, 32], "float32"]), "fc1.weight (shape)"),
        (lambda p: p.__setitem__(4, ["fc1.weight", [1024, 64], "float16"]), "fc1.weight (dtype)"),
    ],
)
def test_a_shape_or_dtype_difference_is_named(store: RunStore, baseline: Path, change: Any, key: str) -> None:
    params = copy.deepcopy(PARAMS)
    change(params)
    found = differences(baseline, _run(store, "x", _config(DP), [CURVES["dp"]], params=params))
    assert [d.key for d in found.differences if d.what == "model"] == [key]


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda c: c["data"].__setitem__("dir", "/data/other"), "data.dir"),
        (lambda c: c["data"].__setitem__("format", "rec"), "data.format"),
        (lambda c: c.__setitem__("options", {"mean": [0.5]}), "options"),
        (lambda c: c["train"].__setitem__("optimizer", "adamw"), "train.optimizer"),
        (lambda c: c["train"].__setitem__("steps", 300), "train.steps"),  # the cosine schedule spans it
    ],
)
def test_data_preprocessing_and_recipe_differences_refuse(
    store: RunStore, baseline: Path, edit: Any, key: str
) -> None:
    config = _config(DP)
    edit(config)
    found = differences(baseline, _run(store, "x", config, [CURVES["dp"]]))
    assert [d.key for d in found.differences] == [key]


def test_what_a_plan_may_change_does_not_refuse(store: RunStore, baseline: Path) -> None:
    config = _config(DP, batch_size=128, lr=0.1, seed=1, device="gpu")
    config["eval"], config["name"] = {"every": 5}, "other"
    assert differences(baseline, _run(store, "x", config, [CURVES["dp"]])).ok


def test_a_refusal_suggests_the_comparable_baseline_then_training_one(store: RunStore) -> None:
    plan = _run(store, "plan_cls_dp", _config(DP), [CURVES["dp"], CURVES["dp"]])
    demo = _run(store, "train_cls_demo", {**_config(), "model": {"name": "small_cnn"}}, [CURVES["baseline"]],
                params=PARAMS[:4])  # fmt: skip
    doc = compare_runs(demo, plan).to_dict()
    assert next_command(doc, store) == "paddle-workbench train /plans/train.yaml"
    good = _run(store, "train_cls_mlp", _config(), [CURVES["baseline"]])
    assert next_command(doc, store) == f"paddle-workbench plan parity {good.name} {plan.name}"


def test_the_plan_screens_pair_skips_a_newer_incomparable_baseline(store: RunStore, tmp_path: Path) -> None:
    plan_file = tmp_path / "plan_cls_dp.yaml"
    plan_file.write_text("train: train.yaml\n")
    good = _run(store, "train_cls_mlp", _config(), [CURVES["baseline"]])
    plan = _run(store, "plan_cls_dp", _config({**DP, "plan_file": str(plan_file.resolve())}), [CURVES["dp"]])
    _run(store, "train_cls_mlp", {**_config(), "model": {"name": "small_cnn"}}, [CURVES["baseline"]],
         params=PARAMS[:4])  # same name, newest, another model  # fmt: skip
    assert latest_pair(store, plan_file) == (good, plan)


def test_the_dashboards_parity_suggestion_pairs_only_comparable_runs(store: RunStore) -> None:
    from workbench.verify.config import VerifyConfig
    from workbench.verify.layers.parallel import parallel, parity_command
    from workbench.verify.model import Context

    plan = _run(store, "plan_cls_dp", _config(DP), [CURVES["seed_43"]], params=PARAMS)
    demo = _run(store, "train_cls_demo", {**_config(), "model": {"name": "small_cnn"}}, [CURVES["baseline"]],
                params=PARAMS[:4])  # fmt: skip
    ctx = Context(store, VerifyConfig(), False, demo, plan)  # the newest single-card run is another model
    assert parity_command(ctx) == "paddle-workbench train /plans/train.yaml"
    good = _run(store, "train_cls_mlp", _config(), [CURVES["baseline"]])
    assert parity_command(ctx) == f"paddle-workbench plan parity {good.name} {plan.name}"

    # A failed comparison on record: the dashboard's command is what it names to do next.
    doc = compare_runs(good, _run(store, "plan_cls_dp", _config(DP, seed=43), [CURVES["seed_43"]])).to_dict()
    doc["next"] = next_command(doc, store)
    (plan / "reports").mkdir()
    (plan / "reports" / "parity-20261201-000000.json").write_text(json.dumps(doc))
    item = next(i for i in parallel(ctx) if i.id == "parallel.parity")
    assert item.status == "fail" and item.command == "paddle-workbench plan run /plans/plan_cls_dp.yaml"
    assert item.evidence.startswith("parity does not hold") and "seeds" in item.evidence
