"""The default evaluation reports only metrics that apply to the model: a tiny real language model
(``[B, T, V]`` logits, integer next-token targets) gets ``eval/loss`` and no ``eval/accuracy`` — not a
0.0 that reads like a model that never predicts anything right."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.train_helpers import event_rows, train_job
from workbench.runs import RunStore

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

TINY_LM = """
import numpy as np
import paddle
from workbench.training import TrainParts

VOCAB = 11


class Tokens(paddle.io.Dataset):
    def __init__(self, n, seed):
        seq = np.random.default_rng(seed).integers(0, VOCAB, size=(n, 7)).astype("int64")
        self.x, self.y = seq[:, :-1], seq[:, 1:]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class TinyLM(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = paddle.nn.Embedding(VOCAB, 8)
        self.head = paddle.nn.Linear(8, VOCAB)

    def forward(self, tokens):
        return self.head(self.embed(tokens))  # [B, T, V] next-token logits


def next_token_loss(logits, targets):
    return paddle.nn.functional.cross_entropy(logits.reshape([-1, VOCAB]), targets.reshape([-1]))


def build(cfg):
    model = TinyLM()
    opt = paddle.optimizer.Adam(cfg.train.lr, parameters=model.parameters())
    return TrainParts(model=model, optimizer=opt, train_data=Tokens(32, 0), val_data=Tokens(8, 1),
                      loss=next_token_loss)
"""


def test_a_language_model_gets_eval_loss_and_no_accuracy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "tiny_lm.py").write_text(TINY_LM)
    config = tmp_path / "lm.yaml"
    config.write_text(
        "task: custom\nentry: tiny_lm:build\ntrain: {steps: 4, batch_size: 8}\neval: {every: 2}\n"
        "checkpoint: {every: 0}\nexport: {enabled: false}\n"
    )
    job = train_job(config, RunStore(tmp_path / "ws"))
    assert job.status == "finished", job.result
    evaluated = [
        row for row in event_rows(job.run_dir) if row["type"] == "metrics" and "eval/loss" in row["values"]
    ]
    assert [row["step"] for row in evaluated] == [2, 4]
    logged = {name for row in event_rows(job.run_dir) if row["type"] == "metrics" for name in row["values"]}
    assert "eval/accuracy" not in logged
    assert "eval/accuracy" not in job.result.summary["final_metrics"]  # type: ignore[union-attr]
