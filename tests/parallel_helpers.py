"""Shared by the sharding-plan tests: a small training config in tmp and plan files beside it."""

from __future__ import annotations

import textwrap
from pathlib import Path

TRAIN = textwrap.dedent(
    """\
    task: image_classification
    data: {{dir: {data}, format: cls, demo: {{train: 256, val: 64, seed: 0}}}}
    model: {{name: small_cnn_mlp, width: 8, hidden: 64}}
    train: {{steps: {steps}, batch_size: 32, lr: 0.05, optimizer: sgd, seed: 7, device: cpu}}
    eval: {{every: 0, max_samples: 64}}
    checkpoint: {{every: 0, keep: 1}}
    alerts: {{hang_after_s: 2}}
    export: {{enabled: false}}
    """
)


def write_train(folder: Path, steps: int = 8) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "train.yaml"
    path.write_text(TRAIN.format(data=str(folder / "data"), steps=steps))
    return path


def write_plan(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text("train: train.yaml\n" + textwrap.dedent(body))
    return path


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")
