"""A finished run with something to troubleshoot: its config (seed, lr, batch) points at a broken dataset
(a label outside ``label.txt``, a tab-separated line, images that do not exist), it logged a few steps
with slow data loading, and a compare report found a warning. The troubleshooting flows' tests and the
wizard screen's walk the same run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.runner.in_process import start_in_process
from workbench.runs import RunStore

STEPS = 3


def write_troubled_run(root: Path) -> Path:
    """Write the dataset under ``root/data`` and the run into the workspace ``root/ws``; return the run folder."""
    data = root / "data"
    (data / "images").mkdir(parents=True)
    (data / "label.txt").write_text("0 cat\n1 dog\n", encoding="utf-8")
    (data / "train.txt").write_text("images/a.png 0\nimages/b.png\t7\n", encoding="utf-8")
    (data / "val.txt").write_text("images/a.png 1\n", encoding="utf-8")
    store = RunStore(root / "ws")
    config = {
        "task": "image_classification",
        "data": {"dir": str(data), "format": "cls"},
        "train": {"seed": 7, "lr": 2.0, "batch_size": 8, "optimizer": "momentum"},
    }

    def job(ctx: Any) -> None:
        for step in range(1, STEPS + 1):
            ctx.log(step, loss=1.0 / step, data_wait_ms=30.0, compute_ms=40.0)

    start_in_process(store, "troubled", job, config=config).wait(60)
    run = store.resolve("latest")
    assert run is not None
    (run / "reports").mkdir()
    (run / "reports" / f"compare-step{STEPS}-20260101-000000.json").write_text(
        json.dumps(
            {"ok": False, "findings": [{"id": "train_mode", "severity": "warn", "summary": "dropout on"}]}
        ),
        encoding="utf-8",
    )
    return run
