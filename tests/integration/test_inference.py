"""Train/inference parity end to end: real tiny runs, real exports, every path, the CLI.

One classification, one text-recognition and one ``task: custom`` MobileNetV3-Small run are trained
once for the module (a few steps each) and shared by the tests; each test compares them through the
same engine the CLI and the TUI use. Runs and ``HOME`` live in tmp.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.train_helpers import SAMPLE_CONFIGS, train_finished
from workbench.cli.root import build_cli
from workbench.datasets import generate_cls_demo, generate_rec_demo
from workbench.inference import CompareOptions, run_comparison
from workbench.inference.matrix import read_rows, to_csv, to_json
from workbench.inference.paths import PATHS, ComparePath
from workbench.runs import RunStore
from workbench.training.checkpoints import CheckpointStore, verify_checkpoint

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

HAS_ONNX = (
    importlib.util.find_spec("paddle2onnx") is not None
    and importlib.util.find_spec("onnxruntime") is not None
)
FAST = CompareOptions(repeats=2, warmup=1)

MNV3_ENTRY = """
import numpy as np
import paddle
from workbench.training import TrainParts


class Random(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, 3, 32, 32)).astype("float32")
        self.y = rng.integers(0, 4, size=n).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build(cfg):
    # A model the workbench did not write; no download (pretrained=False), a small input.
    model = paddle.vision.models.mobilenet_v3_small(pretrained=False, num_classes=4, scale=0.5)
    opt = paddle.optimizer.Adam(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Random(32, 0), val_data=Random(8, 1),
                      loss=paddle.nn.functional.cross_entropy)
"""


class Runs:
    def __init__(self, root: Path, store: RunStore) -> None:
        self.root = root
        self.store = store
        self.cls: Path = Path()
        self.rec: Path = Path()
        self.custom: Path = Path()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """Three tiny trained runs in one workspace (HOME in tmp while Paddle imports and exports)."""
    root = tmp_path_factory.mktemp("inference")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root / "home"))
        patch.setenv("GLOG_minloglevel", "2")
        generate_cls_demo(root / "data" / "cls", n_train=64, n_val=16, seed=1)
        generate_rec_demo(root / "data" / "rec", n_train=48, n_val=8, seed=1)
        store = RunStore(root / "ws")
        out = Runs(root, store)
        common = ["train.batch_size=8", "eval.every=3", "checkpoint.every=3", "checkpoint.keep=3"]
        out.cls = train_finished(
            SAMPLE_CONFIGS / "train_cls_demo.yaml",
            store,
            ["train.steps=6", "train.warmup_steps=0", f"data.dir={root / 'data' / 'cls'}", *common],
        )
        out.rec = train_finished(
            SAMPLE_CONFIGS / "train_rec_demo.yaml",
            store,
            ["train.steps=3", f"data.dir={root / 'data' / 'rec'}", *common],
        )
        (root / "custom").mkdir()
        (root / "custom" / "mnv3_entry.py").write_text(MNV3_ENTRY)
        (root / "custom" / "mnv3.yaml").write_text(
            "task: custom\nentry: mnv3_entry:build\n"
            "train: {steps: 2, batch_size: 8, lr: 0.001, optimizer: adam, seed: 3}\n"
            "eval: {every: 2}\ncheckpoint: {every: 2, keep: 1}\nexport: {enabled: false}\n"
        )
        out.custom = train_finished(root / "custom" / "mnv3.yaml", store, [])
        yield out


@pytest.fixture(autouse=True)
def _home(runs: Runs, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(runs.root / "home"))


def _path(result: Any, name: str) -> dict[str, Any]:
    return next(p for p in result.paths if p["name"] == name)


def _finding(result: Any, finding_id: str) -> Any:
    return next((f for f in result.findings if f.id == finding_id), None)


def test_classification_paths_agree_and_train_mode_is_shown(runs: Runs) -> None:
    result = run_comparison(str(runs.cls), runs.store, FAST)
    assert _path(result, "jit_load")["max_abs_diff"] == 0.0
    for name in ("predictor_ir_off", "predictor_ir_on", "predictor_memory_optim"):
        assert _path(result, name)["max_abs_diff"] < 1e-5, name
    if HAS_ONNX:
        assert _path(result, "onnxruntime")["max_abs_diff"] < 1e-5
    for path in result.paths:
        if not path["deliberate"] and path["status"] != "skipped":
            assert path["top1_agreement"] == 1.0 and path["within_tolerance"], path["name"]
            assert path["latency"]["batch_1"]["median"] > 0 and path["latency"]["batch_8"]["p90"] > 0
    assert not result.failed
    # The demo CNN has neither dropout nor BatchNorm: the finding says so instead of inventing a cause.
    train = _finding(result, "train_mode")
    assert train.severity == "info" and "no dropout or BatchNorm" in train.summary
    assert "eval()" in " ".join(result.notes)
    # The export: eval mode recorded, manifest verifies, preprocessing identity next to it.
    export_dir = Path(result.export["dir"])
    assert verify_checkpoint(export_dir) == []
    manifest = json.loads((export_dir / "manifest.json").read_text())
    assert manifest["eval_mode"] is True and manifest["input_spec"][0]["shape"] == [None, 3, 32, 32]
    identity = json.loads((export_dir / "preprocess.json").read_text())
    assert identity["name"] == "workbench.datasets.readers.load_rgb"
    assert _finding(result, "preprocess_same") is not None
    # Operator inventory: every op of the program, none missing a CPU kernel.
    ops = {op["name"]: op["count"] for op in result.ops["ops"]}
    assert ops["conv2d"] == 2 and "matmul" in ops and not result.ops["missing_kernels"]
    # The matrix gained one CPU row per path.
    rows = [r for r in read_rows(runs.store.workspace) if r["run_id"] == runs.cls.name]
    assert {r["path"] for r in rows} == {p["name"] for p in result.paths if p["status"] != "skipped"}
    assert all(r["hardware"].startswith("cpu") for r in rows)
    gpu = _path(result, "predictor_gpu")  # this machine has no CUDA device: listed, skipped, said why
    assert gpu["status"] == "skipped" and "no CUDA device" in gpu["error"]
    assert to_csv(rows).splitlines()[0].startswith("hardware,model,paddle_version,path,status")
    assert json.loads(to_json(rows))["rows"]


def test_recognition_decoded_strings_agree_and_batchnorm_is_named(runs: Runs) -> None:
    result = run_comparison(str(runs.rec), runs.store, FAST)
    reference = result.reference["decoded"]
    assert len(reference) == 8
    for path in result.paths:
        if path["deliberate"] or path["status"] == "skipped":
            continue
        assert path["within_tolerance"], path
        assert path["decoded"] == reference and path["string_agreement"] == 1.0, path["name"]
    train = _path(result, "dygraph_train")
    assert train["deliberate"] and train["max_abs_diff"] > 1e-3
    finding = _finding(result, "train_mode")
    assert finding.severity == "warn" and "BatchNorm2D" in finding.summary and "bn1" in finding.summary
    moved = _finding(result, "bn_stats_moved")
    assert moved is not None and any("bn1._mean" in e for e in moved.evidence)
    assert not result.failed  # the deliberate train-mode path never fails the check


def test_custom_mobilenet_v3_compares_end_to_end(runs: Runs) -> None:
    result = run_comparison(str(runs.custom), runs.store, FAST)
    assert not result.failed, [f.summary for f in result.findings if f.severity == "fail"]
    assert _path(result, "jit_load")["max_abs_diff"] == 0.0
    assert _path(result, "predictor_ir_on")["max_abs_diff"] < 1e-5
    summary = _finding(result, "train_mode").summary
    assert "BatchNorm2D" in summary and "Dropout" in summary
    assert _path(result, "dygraph_train")["max_abs_diff"] > 1e-2


def _derived_checkpoint(run_dir: Path, step: int, edit: Any, meta_edit: Any = None) -> None:
    """A new checkpoint ``step`` made from the run's final one (step 6), with its weights or meta edited."""
    import paddle

    store = CheckpointStore(run_dir / "checkpoints", keep=None)
    source = next(c for c in store.committed() if c.step == 6)
    state = edit(paddle.load(str(source.file("model.pdparams"))))
    writers = {
        "model.pdparams": lambda p: paddle.save(state, str(p)),
        "optimizer.pdopt": lambda p: shutil.copyfile(source.file("optimizer.pdopt"), p),
        "state.pkl": lambda p: shutil.copyfile(source.file("state.pkl"), p),
    }
    meta = {k: v for k, v in source.manifest.items() if k not in ("files", "step", "created", "format")}
    store.save(step, writers, meta_edit(meta) if meta_edit else meta)


def test_renamed_missing_and_reshaped_parameters_are_not_loaded_by_name(runs: Runs, tmp_path: Path) -> None:
    import paddle

    run = shutil.copytree(runs.cls, tmp_path / "run")

    def edit(state: dict[str, Any]) -> dict[str, Any]:
        state["fc.renamed_weight"] = state.pop("fc.weight")
        del state["conv1.bias"]
        state["conv2.bias"] = paddle.zeros([5])
        return state

    _derived_checkpoint(run, 900, edit)
    result = run_comparison(
        str(run), runs.store, CompareOptions(checkpoint=900, repeats=1, warmup=0, onnx=False)
    )
    finding = _finding(result, "weights_not_loaded")
    assert finding is not None and finding.severity == "fail" and result.failed
    evidence = "\n".join(finding.evidence)
    assert "missing in checkpoint: fc.weight" in evidence
    assert "missing in checkpoint: conv1.bias" in evidence
    assert "not in the model: fc.renamed_weight" in evidence
    assert "shape differs: conv2.bias checkpoint [5] vs model [32]" in evidence


def test_preprocessing_drift_between_training_and_export_is_a_failure(runs: Runs, tmp_path: Path) -> None:
    run = shutil.copytree(runs.cls, tmp_path / "run")

    def meta_edit(meta: dict[str, Any]) -> dict[str, Any]:
        meta["preprocess"] = {**meta["preprocess"], "config_hash": "0" * 16, "config": {"mean": 0.45}}
        return meta

    _derived_checkpoint(run, 901, lambda s: s, meta_edit)
    result = run_comparison(
        str(run), runs.store, CompareOptions(checkpoint=901, repeats=1, warmup=0, onnx=False)
    )
    finding = _finding(result, "preprocess_drift")
    assert finding is not None and "config_hash" in finding.summary and result.failed


def _cli(runs: Runs, *args: str) -> Any:
    return CliRunner().invoke(build_cli(), ["--workspace", str(runs.store.workspace), "compare", *args])


def test_bad_input_is_a_message_with_the_fix_and_exit_2(runs: Runs) -> None:
    # No such run.
    res = _cli(runs, "nope")
    assert res.exit_code == 2 and "paddle-workbench runs" in res.output and "Traceback" not in res.output
    # A run without checkpoints.
    empty = runs.store.create("empty", config={"task": "image_classification"})
    empty.close()
    res = _cli(runs, empty.run_dir.name)
    assert res.exit_code == 2 and "no checkpoint" in res.output and "checkpoint.every" in res.output
    # A step that does not exist.
    res = _cli(runs, str(runs.cls), "--checkpoint", "12345")
    assert res.exit_code == 2 and "available steps" in res.output
    # A missing optional extra, asked for.
    PATHS.register(
        "needs_extra",
        ComparePath(
            order=99,
            label_key="inference.path.onnxruntime",
            open=lambda ctx: None,  # type: ignore[arg-type,return-value]
            extra="onnx",
            modules=("no_such_module_for_tests",),
        ),
        module="tests",
    )
    try:
        res = _cli(runs, str(runs.cls), "--path", "needs_extra", "--json")
    finally:
        PATHS.unregister("needs_extra")
    assert res.exit_code == 2 and "pip install 'paddle-workbench[onnx]'" in res.output


def test_truncated_weights_and_a_changed_export_are_bad_input(runs: Runs, tmp_path: Path) -> None:
    run = tmp_path / "copy"
    shutil.copytree(runs.cls, run)
    store = CheckpointStore(run / "checkpoints", keep=None)
    newest = store.committed()[-1]
    weights = newest.file("model.pdparams")
    weights.write_bytes(weights.read_bytes()[:100])
    res = _cli(runs, str(run), "--checkpoint", str(newest.step))
    assert res.exit_code == 2 and "does not verify" in res.output and "Traceback" not in res.output
    # An export whose manifest no longer verifies (a file changed after export).
    good = [c for c in store.committed() if c.step != newest.step][-1]
    csv_out = tmp_path / "matrix.csv"
    res = _cli(
        runs,
        str(run),
        "--checkpoint",
        str(good.step),
        "--no-onnx",
        "--repeats",
        "1",
        "--matrix-out",
        str(csv_out),
    )
    assert res.exit_code == 0, res.output
    assert csv_out.read_text().startswith("hardware,model,paddle_version,path,status,max_diff,latency_ms")
    params = run / "export" / f"step-{good.step}" / "model.pdiparams"
    params.write_bytes(params.read_bytes()[:-8])
    res = _cli(runs, str(run), "--checkpoint", str(good.step), "--no-onnx")
    assert (
        res.exit_code == 2 and "no longer matches its manifest.json" in res.output and "delete" in res.output
    )


def test_compare_cli_json_in_a_subprocess(runs: Runs) -> None:
    env = dict(os.environ, HOME=str(runs.root / "home"), PADDLE_WORKBENCH_LANG="en", GLOG_minloglevel="2")
    proc = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(runs.store.workspace), "compare",
         str(runs.cls), "--repeat", "5", "--json"],  # fmt: skip
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout)  # stdout is exactly one JSON document (paddle2onnx's prints go to stderr)
    assert {"reference", "paths", "findings"} <= doc.keys()
    for path in doc["paths"]:
        assert {
            "name",
            "max_abs_diff",
            "max_rel_diff",
            "cosine",
            "top1_agreement",
            "latency_ms",
            "within_tolerance",
        } <= path.keys()
    for finding in doc["findings"]:
        assert {"id", "summary", "fix"} <= finding.keys()
    # Latency: median and spread of 5 timed calls per path and batch size; an order only where spreads part.
    timed = [p for p in doc["paths"] if p.get("latency")]
    assert timed and all(
        stats["samples"] == 5 and stats["p25"] <= stats["median"] <= stats["p75"] and stats["iqr"] >= 0
        for path in [doc["reference"], *timed]
        for stats in path["latency"].values()
    )
    comparison = doc["latency_comparison"]["batch_8"]
    assert set(comparison["order"]) == {"dygraph_eval", *(p["name"] for p in timed)}
    assert comparison["ranked"] == (not comparison["overlapping"])
    assert ("no ranking is claimed" in comparison["note"]) == bool(comparison["overlapping"])
    assert comparison["note"] in proc.stdout + Path(doc["reports"]["markdown"]).read_text()
    assert doc["matrix_rows"] and Path(doc["reports"]["markdown"]).is_file()
    assert textwrap.dedent(Path(doc["reports"]["markdown"]).read_text()).startswith("# Inference parity")


async def test_compare_screen_runs_a_real_comparison_on_its_worker(runs: Runs) -> None:
    from textual.widgets import DataTable

    from workbench.screens.app import WorkbenchApp
    from workbench.screens.compare import CompareScreen

    app = WorkbenchApp(runs.store.workspace, preload_paddle=False)
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause(0.1)
        await app.switch_mode("compare")
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        table = screen.query_one("#checkpoints", DataTable)
        for _ in range(100):
            await pilot.pause(0.05)
            if table.row_count:
                break
        keys = [row.value for row in table.rows]
        table.move_cursor(row=next(i for i, key in enumerate(keys) if key and runs.cls.name in key))
        await pilot.press("c")
        for _ in range(1200):  # Paddle is already loaded in this process; the comparison takes seconds
            await pilot.pause(0.05)
            if screen.result is not None:
                break
        assert screen.result is not None and screen.result["ok"]
        assert screen.query_one("#paths", DataTable).row_count == len(screen.result["paths"]) + 1  # reference
