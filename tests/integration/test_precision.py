"""``compare RUN --precision int8 --precision fp16`` end to end on a real tiny run: the int8 path is
quantized (in a child) from the float32 ONNX conversion, calibrated on the run's validation inputs,
measured beside float32 and judged by its gate; fp16 is named as not offered on a CPU-only machine; the
notes say what this CPU can do before any figure.

One classification demo run (6 steps) and one ``compare --json`` are shared by the module; ``HOME`` and
the workspace live in tmp.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.train_helpers import SAMPLE_CONFIGS, train_finished
from workbench.cli.root import build_cli
from workbench.datasets import generate_cls_demo
from workbench.envcheck.precision import this_cpu
from workbench.inference.matrix import read_rows
from workbench.runs import RunStore
from workbench.training.checkpoints import verify_checkpoint

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        any(
            importlib.util.find_spec(m) is None for m in ("paddle", "paddle2onnx", "onnxruntime", "ml_dtypes")
        ),
        reason="needs Paddle and the onnx extra (paddle2onnx, onnxruntime, ml_dtypes)",
    ),
]


class Compared:
    def __init__(self, store: RunStore, run: Path, exit_code: int, doc: dict[str, Any], output: str) -> None:
        self.store, self.run, self.exit_code, self.doc, self.output = store, run, exit_code, doc, output

    def path(self, name: str) -> dict[str, Any]:
        return next(p for p in self.doc["paths"] if p["name"] == name)

    def finding(self, finding_id: str) -> dict[str, Any]:
        return next(f for f in self.doc["findings"] if f["id"] == finding_id)


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Compared]:
    root = tmp_path_factory.mktemp("precision")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root / "home"))
        patch.setenv("GLOG_minloglevel", "2")
        patch.setenv("PADDLE_WORKBENCH_LANG", "en")
        generate_cls_demo(root / "data", n_train=32, n_val=40, seed=1)
        store = RunStore(root / "ws")
        run = train_finished(
            SAMPLE_CONFIGS / "train_cls_demo.yaml",
            store,
            ["train.steps=6", "train.warmup_steps=0", "train.batch_size=8", f"data.dir={root / 'data'}",
             "eval.every=6", "checkpoint.every=6"],
        )  # fmt: skip
        result = CliRunner().invoke(
            build_cli(),
            ["--workspace", str(store.workspace), "compare", str(run), "--repeat", "3", "--json",
             "--precision", "int8", "--precision", "fp16"],
        )  # fmt: skip
        # --json: the document on stdout, the human text (notes, table, findings) on stderr.
        assert result.stdout.strip(), result.stderr[-3000:]
        yield Compared(store, run, result.exit_code, json.loads(result.stdout), result.stderr)


def test_int8_is_measured_beside_float32_and_judged_by_its_gate(compared: Compared) -> None:
    fp32 = compared.path("onnxruntime")
    int8 = compared.path("onnxruntime_int8")
    assert fp32["status"] == "ok", fp32
    assert int8["status"] in ("ok", "exceeds"), int8.get("error")
    assert int8["precision"] == "int8" and int8["tolerance"] is None
    # Calibrated on the run's validation inputs: a few dozen (32 of the 40), not the 8 of the batch.
    assert int8["calibration_samples"] == 32
    # Reported as latency ratio against float32 ONNX Runtime, max abs diff and top-1 agreement.
    for key in ("batch_1", "batch_8"):
        ratio = int8["latency_ratio"][key]
        assert ratio["baseline"] == "onnxruntime" and ratio["ratio"] > 0
        stats = int8["latency"][key]
        assert stats["samples"] == 3 and stats["iqr"] >= 0
    assert int8["max_abs_diff"] > 0  # int8 is not float32
    assert 0.0 <= int8["top1_agreement"] <= 1.0
    gate = int8["gate"]
    assert gate["measure"] == "top1_agreement" and gate["threshold"] == 0.99
    assert gate["passed"] == (int8["top1_agreement"] >= 0.99)
    assert (int8["status"] == "ok") == gate["passed"]
    finding = compared.finding("precision_int8")
    assert finding["severity"] == ("info" if gate["passed"] else "fail")
    assert "onnxruntime_int8" in finding["summary"] and "top-1 agreement" in finding["summary"]
    # The gate decides the exit code, not the float32 tolerance.
    assert compared.exit_code == (0 if gate["passed"] else 1), compared.output[-2000:]
    # The pitfall detectors never blame the export for int8's (designed) difference.
    assert not any(f["id"] == "first_divergence" for f in compared.doc["findings"])


def test_hardware_is_said_before_the_figures(compared: Compared) -> None:
    cpu = this_cpu()
    notes = " ".join(compared.doc["notes"])
    if cpu.int8:
        assert "int8 dot-product instructions" in notes and cpu.int8_via in notes
    else:
        assert "no int8 speed-up is expected" in notes
    assert "no CUDA GPU here" in notes  # this machine: no GPU
    assert compared.path("onnxruntime_int8")["hardware"]["cpu"]["int8"] == cpu.int8
    # The human output (before the JSON) names the hardware before the table.
    text = compared.output
    assert text.index("bfloat16 on this CPU") < text.index("dygraph_eval")  # the table's first row


def test_fp16_is_not_offered_without_a_gpu(compared: Compared) -> None:
    fp16 = compared.path("predictor_gpu_fp16")
    assert fp16["status"] == "skipped" and "no CUDA GPU here" in fp16["error"]
    assert compared.finding("precision_fp16")["severity"] == "info"


def test_int8_leaves_its_model_and_a_matrix_row_and_the_export_still_verifies(compared: Compared) -> None:
    export_dir = Path(compared.doc["export"]["dir"])
    int8_model = export_dir / "model.int8.onnx"
    assert int8_model.is_file() and int8_model.stat().st_mode & 0o077 == 0
    assert not list(export_dir.glob(".calibration.*")) and not list(export_dir.glob(".quantize.*"))
    assert verify_checkpoint(export_dir) == []
    rows = [r for r in read_rows(compared.store.workspace) if r["path"] == "onnxruntime_int8"]
    assert len(rows) == 1 and rows[0]["hardware"].startswith("cpu")


def test_int8_without_onnx_is_bad_input_before_any_slow_work(compared: Compared) -> None:
    res = CliRunner().invoke(
        build_cli(),
        ["--workspace", str(compared.store.workspace), "compare", str(compared.run), "--precision", "int8",
         "--no-onnx", "--json"],
    )  # fmt: skip
    assert res.exit_code == 2 and "drop --no-onnx" in res.stderr and "Traceback" not in res.output
    assert json.loads(res.stdout)["errors"] == [
        "--precision int8 runs ONNX Runtime on the ONNX conversion — drop --no-onnx"
    ]
