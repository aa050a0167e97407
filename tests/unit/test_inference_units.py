"""Pieces of the parity engine that need no Paddle: metrics, matrix, op inventory, findings, registry."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from workbench.config.training import TrainingConfig
from workbench.inference.findings import detect_first_divergence, detect_input_spec, detect_preprocess
from workbench.inference.matrix import COLUMNS, append_rows, read_rows, to_csv, to_json
from workbench.inference.metrics import diff_stats, string_agreement, top1_agreement
from workbench.inference.ops import program_ops
from workbench.inference.paths import PATHS, ordered_paths
from workbench.inference.preprocess import identity_differences, preprocess_identity


def test_every_path_module_registers_and_the_order_is_the_guides() -> None:
    assert PATHS.silent_modules() == []
    assert [name for name, _ in ordered_paths()] == [
        "dygraph_train",
        "jit_load",
        "predictor_ir_off",
        "predictor_ir_on",
        "predictor_memory_optim",
        "predictor_gpu",
        "onnxruntime",
    ]
    assert [name for name, path in ordered_paths() if path.deliberate] == ["dygraph_train"]


def test_diff_stats_cosine_and_agreement() -> None:
    ref = np.array([[1.0, 2.0, 3.0], [3.0, 1.0, 0.0]], dtype=np.float32)
    same = diff_stats(ref, ref)
    assert same == {"max_abs_diff": 0.0, "max_rel_diff": 0.0, "cosine": 1.0}
    off = ref.copy()
    off[0, 0] += 0.5
    stats = diff_stats(off, ref)
    assert stats["max_abs_diff"] == 0.5 and 0.49 < stats["max_rel_diff"] < 0.51 and stats["cosine"] < 1.0
    swapped = ref[:, ::-1].copy()
    assert top1_agreement(swapped, ref) == 0.0 and top1_agreement(ref, ref) == 1.0
    assert diff_stats(ref[:1], ref)["max_abs_diff"] == float("inf")  # shapes differ


def test_decoded_strings_are_compared_with_the_ctc_greedy_decoder() -> None:
    charset = ["a", "b", "c"]
    # [B=2, T=4, classes=4]: class 0 is the blank, class k is charset[k-1].
    ids_ref = np.array([[1, 1, 0, 2], [3, 0, 3, 0]])
    ids_out = np.array([[1, 0, 1, 2], [3, 0, 3, 0]])
    ref, out = np.eye(4)[ids_ref], np.eye(4)[ids_out]
    agreement, decoded = string_agreement(out, ref, charset)
    assert decoded == ["aab", "cc"] and agreement == 0.5  # the reference decodes to ["ab", "cc"]


def test_matrix_rows_append_and_export(tmp_path: Path) -> None:
    rows = [{"hardware": "cpu: x", "model": "m", "paddle_version": "3.3.1", "path": "jit_load", "status": "ok",
             "max_diff": 0.0, "latency_ms": 1.5, "run_id": "r", "step": 3, "time": 1.0}]  # fmt: skip
    append_rows(tmp_path, rows)
    append_rows(tmp_path, [{**rows[0], "path": "predictor_ir_on"}])
    (tmp_path / "matrix.jsonl").open("a").write("{torn\n")
    read = read_rows(tmp_path)
    assert [r["path"] for r in read] == ["jit_load", "predictor_ir_on"]
    csv_text = to_csv(read)
    assert csv_text.splitlines()[0] == ",".join(COLUMNS) and len(csv_text.splitlines()) == 3
    assert json.loads(to_json(read))["columns"] == list(COLUMNS)


def test_program_ops_counts_pir_json_including_nested_regions(tmp_path: Path) -> None:
    program = {
        "base_code": {"magic": "pir"},
        "program": {"regions": [{"blocks": [{"ops": [
            {"#": "p"}, {"#": "1.data"}, {"#": "1.conv2d"}, {"#": "1.conv2d"}, {"#": "0.combine"},
            {"#": "1.if", "regions": [{"blocks": [{"ops": [{"#": "1.relu"}]}]}]},
        ]}]}]},
    }  # fmt: skip
    path = tmp_path / "model.json"
    path.write_text(json.dumps(program))
    assert program_ops(path) == {"data": 1, "conv2d": 2, "builtin.combine": 1, "if": 1, "relu": 1}


def test_preprocess_identity_and_drift() -> None:
    cls = TrainingConfig.model_validate(
        {"task": "image_classification", "data": {"dir": "d", "format": "cls"}}
    )
    rec = TrainingConfig.model_validate({"task": "text_recognition", "data": {"dir": "d", "format": "rec"}})
    a, b = preprocess_identity(cls), preprocess_identity(rec)
    assert a["name"].endswith("load_rgb") and b["name"].endswith("load_grey")
    assert a == preprocess_identity(cls) and identity_differences(a, a) == []
    assert set(identity_differences(a, b)) == {"name", "config_hash", "code_hash"}
    assert detect_preprocess(a, a).id == "preprocess_same"
    drift = detect_preprocess({**a, "config_hash": "x"}, a)
    assert drift.id == "preprocess_drift" and drift.severity == "fail"
    assert detect_preprocess(None, a).id == "preprocess_unrecorded"


def test_input_spec_mismatch_names_dtype_and_axis() -> None:
    spec = [{"name": "x", "shape": [None, 3, 32, 32], "dtype": "float32"}]
    assert detect_input_spec(spec, np.zeros((2, 3, 32, 32), np.float32)) is None
    finding = detect_input_spec(spec, np.zeros((2, 3, 64, 32), np.float64))
    assert finding is not None and finding.id == "input_spec_mismatch"
    assert any("float64" in e for e in finding.evidence) and any("axis 2" in e for e in finding.evidence)


def test_first_divergence_names_the_switch() -> None:
    paths = [
        {"name": "dygraph_train", "deliberate": True, "status": "exceeds", "max_abs_diff": 2.0},
        {"name": "jit_load", "deliberate": False, "status": "ok", "max_abs_diff": 0.0},
        {"name": "predictor_ir_on", "deliberate": False, "status": "exceeds", "max_abs_diff": 0.1},
    ]
    finding = detect_first_divergence(paths)
    assert finding is not None and "predictor_ir_on" in finding.summary and "delete_pass" in finding.fix
    assert detect_first_divergence(paths[:2]) is None


def test_compare_without_an_importable_paddle_is_bad_input_with_the_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both compares (a run, a foreign export) import Paddle through one helper: a failed import is a
    located input problem naming the error, never a traceback."""
    from workbench.inference.engine import CompareInputError, paddle_on_cpu
    from workbench.training import runtime

    def broken() -> object:
        raise ImportError("libcudart.so.12: cannot open shared object file")

    monkeypatch.setattr(runtime, "import_paddle", broken)
    with pytest.raises(CompareInputError) as caught, paddle_on_cpu():
        pass
    assert any("libcudart.so.12" in message for message in caught.value.messages), caught.value.messages
