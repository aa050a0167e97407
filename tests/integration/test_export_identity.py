"""Exports keyed by everything that made them, and ``serve`` refusing a stale or drifted one.

One tiny ``task: custom`` run is trained once for the module (2 steps of an 8→16→3 MLP). Its model has
the functional-dropout bug (``F.dropout(x, 0.3)`` in ``forward``: training=True whatever
``model.eval()`` says) and its dataset normalises with module constants ``MEAN``/``STD``. Each test
works on its own copy of the run and of the user's code folder, edits that code as a user would, and
runs the real commands in process (``compare`` and ``serve`` through the CLI; the serve checks refuse
before anything binds a port, so no server starts). Each command is a fresh process for a user, so
the user's module is dropped from ``sys.modules`` before each one.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from tests.train_helpers import train_finished
from workbench.cli.root import build_cli
from workbench.runs import RunStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

MODULE = "export_key_entry"
BUG = "x = F.dropout(x, 0.3)"
FIX = "x = F.dropout(x, 0.3, training=self.training)"

ENTRY = f"""
import numpy as np
import paddle
import paddle.nn.functional as F
from workbench.training import TrainParts

MEAN = 0.5
STD = 0.25


class Points(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.random((n, 8)).astype("float32")
        self.y = rng.integers(0, 3, size=n).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return ((self.x[i] - MEAN) / STD).astype("float32"), self.y[i]


class TinyNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(8, 16)
        self.fc2 = paddle.nn.Linear(16, 3)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        {BUG}
        return self.fc2(x)


def build(cfg):
    model = TinyNet()
    opt = paddle.optimizer.Adam(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Points(32, 0), val_data=Points(8, 1),
                      loss=F.cross_entropy)
"""


class Trained:
    def __init__(self, root: Path, store: RunStore, run_dir: Path, code: Path) -> None:
        self.root = root
        self.store = store
        self.run_dir = run_dir
        self.code = code


class Copy:
    """A test's own run folder and user code folder (the run's config points at this code)."""

    def __init__(self, trained: Trained, tmp_path: Path) -> None:
        self.store = trained.store
        self.code = shutil.copytree(trained.code, tmp_path / "code")
        self.run = shutil.copytree(trained.run_dir, tmp_path / "run")
        doc = yaml.safe_load((self.run / "run.yaml").read_text(encoding="utf-8"))
        doc["environment"]["config_file"] = str(self.code / "tiny.yaml")
        (self.run / "run.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")

    def edit(self, old: str, new: str) -> None:
        path = self.code / f"{MODULE}.py"
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")

    def cli(self, *args: str) -> Result:
        sys.modules.pop(MODULE, None)  # each command is a fresh process for a user
        return CliRunner().invoke(build_cli(), ["--workspace", str(self.store.workspace), *args])

    def serve(self, *args: str) -> Result:
        """``serve`` on a port that is taken: the command ends at the latest when it binds, so nothing is
        ever served, whatever it decides before."""
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            return self.cli("serve", str(self.run), "--port", str(sock.getsockname()[1]), *args)

    def compare(self) -> dict[str, Any]:
        res = self.cli("compare", str(self.run), "--no-onnx", "--repeats", "1", "--json")
        assert res.exit_code in (0, 1), res.output
        doc: dict[str, Any] = json.loads(res.stdout)
        return doc


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Trained]:
    root = tmp_path_factory.mktemp("export_identity")
    code = root / "code"
    code.mkdir()
    (code / f"{MODULE}.py").write_text(ENTRY, encoding="utf-8")
    (code / "tiny.yaml").write_text(
        f"task: custom\nentry: {MODULE}:build\n"
        "train: {steps: 2, batch_size: 8, lr: 0.01, optimizer: adam, seed: 3}\n"
        "eval: {every: 2}\ncheckpoint: {every: 2, keep: 1}\nexport: {enabled: false}\n",
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root / "home"))
        patch.setenv("GLOG_minloglevel", "2")
        store = RunStore(root / "ws")
        run_dir = train_finished(code / "tiny.yaml", store, [])
        sys.modules.pop(MODULE, None)
        yield Trained(root, store, run_dir, code)


@pytest.fixture(autouse=True)
def _home(trained: Trained, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(trained.root / "home"))
    monkeypatch.setenv("PADDLE_WORKBENCH_LANG", "en")
    monkeypatch.setenv("PADDLE_WORKBENCH_SERVE_TOKEN", "t" * 40)


def _finding(doc: dict[str, Any], finding_id: str) -> dict[str, Any] | None:
    return next((f for f in doc["findings"] if f["id"] == finding_id), None)


def test_functional_dropout_is_explained_by_its_op_and_a_model_fix_gets_a_fresh_export(
    trained: Trained, tmp_path: Path
) -> None:
    run = Copy(trained, tmp_path)
    broken = run.compare()
    assert not broken["ok"] and broken["export"]["reused"] is False
    dropout = _finding(broken, "program_functional_dropout")
    assert dropout is not None and dropout["severity"] == "fail", broken["findings"]
    assert "F.dropout called with training=True" in dropout["summary"]
    assert "no Dropout layer" in dropout["summary"]
    train_mode = _finding(broken, "train_mode")
    assert train_mode is not None and "changes nothing" not in train_mode["summary"]
    divergence = _finding(broken, "first_divergence")
    assert divergence is not None and "training=self.training" in divergence["fix"]
    assert "control flow" not in divergence["fix"]

    run.edit(BUG, FIX)
    fixed = run.compare()
    assert fixed["export"]["reused"] is False and fixed["export"]["changed"] == ["model_code"]
    assert any("reused: no (model code changed)" in note for note in fixed["notes"]), fixed["notes"]
    assert fixed["ok"], [f["summary"] for f in fixed["findings"] if f["severity"] == "fail"]
    assert _finding(fixed, "preprocess_same") is not None  # a model fix is not a preprocessing change
    again = run.compare()
    assert again["export"]["reused"] is True and again["export"]["key"] == fixed["export"]["key"]


def test_serve_refuses_a_stale_export_unless_drift_is_allowed(trained: Trained, tmp_path: Path) -> None:
    run = Copy(trained, tmp_path)
    run.compare()  # the export of the broken model
    run.edit(BUG, FIX)
    res = run.serve()
    assert res.exit_code == 2, res.output
    assert "stale or drifted" in res.output and "model code changed" in res.output
    assert f"{MODULE}.py" in res.output and f"paddle-workbench compare {run.run}" in res.output
    assert "--allow-drift" in res.output and "Traceback" not in res.output
    # Allowed: said at start (this start then stops at the busy port).
    res = run.serve("--allow-drift")
    assert res.exit_code == 2 and "cannot listen" in res.output
    assert "serving a stale or drifted export because of --allow-drift" in res.output
    assert "model code changed" in res.output


def test_custom_preprocessing_drift_is_found_by_compare_and_refused_by_serve(
    trained: Trained, tmp_path: Path
) -> None:
    run = Copy(trained, tmp_path)
    run.edit("MEAN = 0.5", "MEAN = 0.45")  # the user's normalisation, changed after training
    res = run.serve()
    assert res.exit_code == 2 and "no export to serve" in res.output  # nothing exported yet
    drifted = run.compare()
    finding = _finding(drifted, "preprocess_drift")
    assert finding is not None and finding["severity"] == "fail" and not drifted["ok"]
    assert _finding(drifted, "preprocess_same") is None
    assert any(f"{MODULE}:MEAN" in line for line in finding["evidence"]), finding["evidence"]
    res = run.serve()
    assert res.exit_code == 2, res.output
    assert "differs from the one the run trained with" in res.output and f"{MODULE}:MEAN" in res.output
    assert "restore the preprocessing" in res.output
