"""``compare PATH`` on exports the workbench did not make: real ``paddle.jit.save`` outputs, the CLI.

One module fixture builds every export once, in tmp: a ``paddle.vision`` MobileNetV3-Small (random
weights, no download) saved by hand without ``model.eval()`` and again after it, the same model laid
out as a PaddleX/PaddleOCR inference-model folder, and a ChannelShuffle net (paddle2onnx has no
converter for it). The ONNX conversion of MobileNetV3 takes half a minute on 2 cores, so those tests
run ``--no-onnx``; the ChannelShuffle one needs the conversion to fail, which is quick.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner, Result

from tests.train_helpers import train_finished
from workbench.cli.root import build_cli
from workbench.runs import RunStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

HAS_ONNX = (
    importlib.util.find_spec("paddle2onnx") is not None
    and importlib.util.find_spec("onnxruntime") is not None
)
FAST = ["--repeat", "2"]

SMALL_ENTRY = """
import numpy as np
import paddle
from workbench.training import TrainParts


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.fc = paddle.nn.Linear(4 * 8 * 8, 3)

    def forward(self, x):
        return self.fc(paddle.flatten(self.bn(self.conv(x)), 1))


class Random(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, 3, 8, 8)).astype("float32")
        self.y = rng.integers(0, 3, size=n).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build(cfg):
    model = Net()
    opt = paddle.optimizer.SGD(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Random(16, 0), val_data=Random(8, 1),
                      loss=paddle.nn.functional.cross_entropy)
"""


@dataclass
class Exports:
    root: Path
    workspace: Path
    train_mode: Path
    eval_mode: Path
    kit_folder: Path
    shuffle: Path
    inputs: Path
    expected_train: Path
    run: Path
    small_inputs: Path


def _mobilenet(paddle: Any) -> Any:
    paddle.seed(7)
    return paddle.vision.models.mobilenet_v3_small(pretrained=False, num_classes=4, scale=0.5)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exports]:
    root = tmp_path_factory.mktemp("foreign")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root / "home"))  # jit.save writes ~/.cache/paddle/to_static_tmp
        patch.setenv("GLOG_minloglevel", "2")
        from workbench.training.runtime import import_paddle

        paddle = import_paddle()
        spec = [paddle.static.InputSpec([None, 3, 32, 32], "float32", name="x")]
        x = np.random.default_rng(3).standard_normal((2, 3, 32, 32)).astype("float32")
        np.savez(root / "x.npz", x=x)

        model = _mobilenet(paddle)  # a user's hand export, straight after building: train mode
        paddle.jit.save(model, str(root / "train_mode" / "model"), input_spec=spec)
        model.eval()
        paddle.jit.save(model, str(root / "eval_mode" / "model"), input_spec=spec)
        paddle.jit.save(model, str(root / "PP-Demo_infer" / "inference"), input_spec=spec)
        (root / "PP-Demo_infer" / "inference.yml").write_text(
            "Global:\n  model_name: PP-Demo\nPreProcess:\n  transform_ops: []\n", encoding="utf-8"
        )
        model.train()  # what a user records when eval() was forgotten: batch statistics
        with paddle.no_grad():
            np.savez(root / "expected_train.npz", out=model(paddle.to_tensor(x)).numpy())

        class Shuffle(paddle.nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.conv = paddle.nn.Conv2D(3, 8, 3, padding=1)
                self.shuffle = paddle.nn.ChannelShuffle(2)
                self.fc = paddle.nn.Linear(8 * 8 * 8, 4)

            def forward(self, x: Any) -> Any:
                return self.fc(paddle.flatten(self.shuffle(self.conv(x)), 1))

        shuffle = Shuffle()
        shuffle.eval()
        paddle.jit.save(
            shuffle,
            str(root / "shuffle" / "net"),
            input_spec=[paddle.static.InputSpec([None, 3, 8, 8], "float32", name="x")],
        )
        (root / "small").mkdir()
        (root / "small" / "small_entry.py").write_text(SMALL_ENTRY, encoding="utf-8")
        (root / "small" / "small.yaml").write_text(
            "task: custom\nentry: small_entry:build\n"
            "train: {steps: 2, batch_size: 4, lr: 0.01, optimizer: sgd, seed: 3, device: cpu}\n"
            "eval: {every: 2}\ncheckpoint: {every: 2, keep: 1}\nexport: {enabled: true}\n",
            encoding="utf-8",
        )
        run = train_finished(root / "small" / "small.yaml", RunStore(root / "ws"))
        rng = np.random.default_rng(5)
        np.savez(root / "small_x.npz", x=rng.standard_normal((3, 3, 8, 8)).astype("float32"))
        yield Exports(
            root=root,
            workspace=root / "ws",
            train_mode=root / "train_mode",
            eval_mode=root / "eval_mode",
            kit_folder=root / "PP-Demo_infer",
            shuffle=root / "shuffle" / "net",
            inputs=root / "x.npz",
            expected_train=root / "expected_train.npz",
            run=run,
            small_inputs=root / "small_x.npz",
        )


@pytest.fixture(autouse=True)
def _home(exports: Exports, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(exports.root / "home"))
    monkeypatch.setenv("GLOG_minloglevel", "2")


def _compare(exports: Exports, *args: str) -> tuple[Result, dict[str, Any]]:
    result = CliRunner().invoke(
        build_cli(),
        ["--workspace", str(exports.workspace), "compare", *args, "--json"],
        catch_exceptions=False,
    )
    return result, json.loads(result.stdout)


def _findings(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in doc["findings"]}


def test_a_vision_model_exported_without_eval_is_caught_from_its_program(exports: Exports) -> None:
    result, doc = _compare(
        exports, str(exports.train_mode), "--inputs", str(exports.inputs), "--no-onnx", *FAST
    )
    assert result.exit_code == 1, result.output
    found = _findings(doc)["export_train_mode"]
    assert found["severity"] == "fail" and "model.eval()" in found["fix"]
    assert "BatchNorm2D" in found["summary"] and "use_global_stats" in found["summary"]
    # Paddle's runtimes still agree with one another: the program, not the numbers, is the evidence.
    measured = [p for p in doc["paths"] if p["status"] != "skipped"]
    assert {p["name"] for p in measured} >= {"jit_load", "predictor_ir_off", "predictor_ir_on"}
    assert all(p["status"] == "ok" for p in measured), measured
    assert doc["foreign"]["kind"] == "jit_save" and doc["foreign"]["inputs"]["source"] == "file"
    assert doc["batch"]["shape"] == [2, 3, 32, 32]
    assert doc["reference"]["kind"] == "anchor" and doc["reference"]["name"] == "jit_load"
    # the user's folder is left as it was; the work is in the workspace
    assert sorted(p.name for p in exports.train_mode.iterdir()) == ["model.json", "model.pdiparams"]
    assert Path(doc["reports"]["json"]).is_relative_to(exports.workspace / "exports")


def test_the_same_model_exported_after_eval_passes(exports: Exports) -> None:
    result, doc = _compare(
        exports, str(exports.eval_mode / "model"), "--inputs", str(exports.inputs), "--no-onnx", *FAST
    )
    assert result.exit_code == 0, result.output
    assert "export_train_mode" not in _findings(doc)
    assert doc["ok"] is True


def test_expected_outputs_recorded_in_train_mode_are_a_mismatch(exports: Exports) -> None:
    result, doc = _compare(
        exports,
        str(exports.eval_mode / "model.json"),
        "--inputs",
        str(exports.inputs),
        "--reference",
        str(exports.expected_train),
        "--no-onnx",
        *FAST,
    )
    assert result.exit_code == 1, result.output
    mismatch = _findings(doc)["reference_mismatch"]
    assert mismatch["severity"] == "fail" and "expected_train.npz" in mismatch["summary"]
    assert "train mode" in mismatch["fix"]
    assert all(p["status"] == "exceeds" for p in doc["paths"] if p["status"] != "skipped")
    assert doc["reference"]["kind"] == "file"


def test_a_paddlex_style_folder_is_recognised_with_random_inputs(exports: Exports) -> None:
    result, doc = _compare(exports, str(exports.kit_folder), "--no-onnx", *FAST)
    assert result.exit_code == 0, result.output
    assert doc["foreign"]["kind"] == "inference_model" and doc["foreign"]["model_name"] == "PP-Demo"
    assert doc["foreign"]["config_file"].endswith("inference.yml")
    assert doc["foreign"]["inputs"]["source"] == "random" and doc["batch"]["shape"] == [1, 3, 32, 32]
    assert (exports.workspace / "exports").is_dir()
    assert "PP-Demo" in result.output.splitlines()[0] or "inference" in result.output


def test_a_runs_own_export_agrees_with_the_run_rebuilt_as_reference(exports: Exports) -> None:
    export_dir = exports.run / "export"
    args = ["--inputs", str(exports.small_inputs), "--no-onnx", *FAST]
    result, doc = _compare(exports, str(export_dir), "--reference", exports.run.name, *args)
    assert result.exit_code == 0, result.output
    assert doc["reference"]["kind"] == "run" and doc["reference"]["run"] == exports.run.name
    assert doc["reference"]["step"] == 2 and doc["batch"]["shape"] == [3, 3, 8, 8]
    assert all(p["status"] == "ok" for p in doc["paths"] if p["status"] != "skipped"), doc["paths"]
    other = ["--inputs", str(exports.inputs), "--no-onnx", *FAST]
    result, doc = _compare(exports, str(exports.eval_mode), "--reference", exports.run.name, *other)
    assert result.exit_code == 2  # another model's export: the run's model does not take its input
    assert exports.run.name in doc["errors"][0] and "input" in doc["errors"][0]


@pytest.mark.skipif(not HAS_ONNX, reason="the onnx extra is not installed")
def test_channel_shuffle_skips_onnx_by_name_and_compares_the_rest(exports: Exports) -> None:
    result, doc = _compare(exports, str(exports.shuffle), "--shape", "x=2,3,8,8", *FAST)
    paths = {p["name"]: p for p in doc["paths"]}
    onnx = paths["onnxruntime"]
    assert onnx["status"] == "skipped" and "channel_shuffle" in onnx["error"], onnx
    assert all(paths[n]["status"] == "ok" for n in ("jit_load", "predictor_ir_off", "predictor_ir_on"))
    assert "channel_shuffle" in _findings(doc)["onnx_unconvertible"]["evidence"]
    assert result.exit_code == 0, result.output
    assert not (exports.shuffle.parent / "net.onnx").exists()


def test_neither_a_run_nor_an_export_is_exit_2_with_what_was_looked_for(
    exports: Exports, tmp_path: Path
) -> None:
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "model.json").write_text("{}", encoding="utf-8")  # no .pdiparams beside it
    result, doc = _compare(exports, str(tmp_path / "half"))
    assert result.exit_code == 2
    assert "neither a run" in doc["errors"][0] and "P.pdiparams" in doc["errors"][1]
    result, doc = _compare(
        exports, str(exports.eval_mode), "--inputs", str(tmp_path / "nope.npz"), "--shape", "y=1,3,32,0"
    )
    assert result.exit_code == 2
    joined = "\n".join(doc["errors"])
    assert "--shape y=1,3,32,0" in joined and "nope.npz" in joined
    result, doc = _compare(exports, exports.run.name, "--inputs", str(exports.inputs))
    assert result.exit_code == 2 and doc["errors"][0].startswith("--inputs: for an export PATH only")
    result, doc = _compare(exports, str(exports.eval_mode), "--batch-size", "4")
    assert result.exit_code == 2 and doc["errors"][0].startswith("--batch-size: for a run only")
