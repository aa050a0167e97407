"""Foreign exports without Paddle: finding the export at a PATH, the input, the program's train-mode mark."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from workbench.inference.foreign import (
    KIND_FOLDER,
    KIND_JIT,
    ForeignOptions,
    build_input,
    detect_export_train_mode,
    find_export,
    program_inputs,
)
from workbench.inference.source import CompareInputError


def _program(shape: list[int], dtype: str = "float32") -> str:
    """A PIR program with one ``data`` op, as paddle.jit.save writes it (trimmed)."""
    data = {
        "#": "1.data",
        "A": [
            {"AT": {"#": "0.a_str", "D": "x"}, "N": "name"},
            {"AT": {"#": "1.a_intarray", "D": shape}, "N": "shape"},
            {"AT": {"#": "1.a_dtype", "D": dtype}, "N": "dtype"},
        ],
    }
    return json.dumps(
        {"base_code": {"magic": "pir"}, "program": {"regions": [{"blocks": [{"ops": [data]}]}]}}
    )


def _export(folder: Path, stem: str, *, legacy: bool = False, shape: list[int] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / (stem + (".pdmodel" if legacy else ".json"))
    program.write_text("proto" if legacy else _program(shape or [-1, 3, 32, 32]), encoding="utf-8")
    (folder / (stem + ".pdiparams")).write_bytes(b"\0")
    return folder / stem


def test_an_export_is_found_from_its_prefix_its_files_or_its_folder(tmp_path: Path) -> None:
    prefix = _export(tmp_path / "mine", "resnet.v2")
    for ref in (
        prefix,
        tmp_path / "mine",
        prefix.with_name("resnet.v2.json"),
        prefix.with_name("resnet.v2.pdiparams"),
    ):
        found = find_export(str(ref))
        assert found is not None and found.prefix == prefix and found.kind == KIND_JIT, ref
    kit = _export(tmp_path / "PP-OCRv5_rec", "inference", legacy=True)
    (kit.parent / "inference.yml").write_text(
        "Global:\n  model_name: PP-OCRv5_mobile_rec\n", encoding="utf-8"
    )
    found = find_export(str(kit.parent))
    assert found is not None and found.kind == KIND_FOLDER and found.model_file.suffix == ".pdmodel"
    assert found.model_name == "PP-OCRv5_mobile_rec" and found.label == "PP-OCRv5_mobile_rec"
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "model.json").write_text(_program([1]), encoding="utf-8")
    assert find_export(str(tmp_path / "half")) is None  # no .pdiparams beside it
    _export(tmp_path / "two", "a")
    _export(tmp_path / "two", "b")
    with pytest.raises(CompareInputError) as raised:
        find_export(str(tmp_path / "two"))
    assert "several exports" in raised.value.messages[0]


def test_the_input_comes_from_the_program_a_shape_or_a_file_and_every_problem_is_said(tmp_path: Path) -> None:
    export = find_export(str(_export(tmp_path / "e", "model", shape=[-1, 3, 32, 32])))
    assert export is not None
    specs = program_inputs(export.model_file)
    assert specs is not None and specs[0].name == "x" and specs[0].shape == [-1, 3, 32, 32]
    name, batch, origin = build_input(export, specs, ForeignOptions())
    assert name == "x" and batch.shape == (1, 3, 32, 32) and batch.dtype == np.float32
    assert origin["source"] == "random" and origin["free_axes"] == [0]
    again = build_input(export, specs, ForeignOptions())[1]
    assert np.array_equal(batch, again)  # seeded
    assert build_input(export, specs, ForeignOptions(shapes=["x=4,3,32,32"]))[1].shape == (4, 3, 32, 32)

    with pytest.raises(CompareInputError) as raised:
        build_input(export, specs, ForeignOptions(shapes=["y=2,3,32,32", "x=2,3,0", "2,3,16,32"]))
    text = "\n".join(raised.value.messages)
    assert "--shape x=2,3,0" in text and "no input 'y'" in text and "axis 2 is 16" in text

    np.savez(tmp_path / "wrong.npz", x=np.zeros((2, 3, 32, 32), dtype=np.float64))
    with pytest.raises(CompareInputError) as raised:
        build_input(export, specs, ForeignOptions(inputs=tmp_path / "wrong.npz"))
    assert "float64" in raised.value.messages[0] and "astype('float32')" in raised.value.messages[0]
    np.savez(tmp_path / "two.npz", a=np.zeros((1, 3, 32, 32), np.float32), b=np.zeros(1, np.float32))
    with pytest.raises(CompareInputError) as raised:
        build_input(export, specs, ForeignOptions(inputs=tmp_path / "two.npz"))
    assert "none named 'x'" in raised.value.messages[0]
    np.savez(tmp_path / "good.npz", anything=np.ones((2, 3, 32, 32), np.float32))
    name, batch, origin = build_input(export, specs, ForeignOptions(inputs=tmp_path / "good.npz"))
    assert batch.shape == (2, 3, 32, 32) and origin == {
        "source": "file",
        "file": str(tmp_path / "good.npz"),
        "key": "anything",
    }

    legacy = find_export(str(_export(tmp_path / "old", "inference", legacy=True)))
    assert legacy is not None and program_inputs(legacy.model_file) is None
    with pytest.raises(CompareInputError) as raised:
        build_input(legacy, None, ForeignOptions())
    assert "--shape" in raised.value.messages[0]
    assert build_input(legacy, None, ForeignOptions(shapes=["1,3,8,8"]))[1].shape == (1, 3, 8, 8)


def test_batch_norm_layers_in_training_form_are_the_train_mode_mark() -> None:
    ops = {
        "ops": [{"name": "batch_norm_", "count": 3}, {"name": "dropout", "count": 1}],
        "train_form": [
            {"op": "batch_norm_", "kind": "batch_norm_train", "where": "/ConvNormActivation/BatchNorm2D/"},
            {"op": "batch_norm_", "kind": "batch_norm_train", "where": "/Block/"},  # F.batch_norm in forward
            {"op": "uniform", "kind": "random", "where": "/"},
        ],
    }
    finding, rest = detect_export_train_mode(ops)
    assert finding is not None and finding.id == "export_train_mode" and finding.severity == "fail"
    assert "1 of 3" in finding.summary and "/ConvNormActivation/BatchNorm2D/" in finding.summary
    assert [e["where"] for e in rest] == ["/Block/", "/"]
    assert detect_export_train_mode({"train_form": rest})[0] is None
