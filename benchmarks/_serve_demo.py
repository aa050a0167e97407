"""A tiny exported demo classifier for the serving benchmarks (trained in a temporary workspace).

``demo_export(root)`` generates the demo digits, trains ``train_cls_demo.yaml`` for a few steps with
its export on, and returns ``(workspace, run_dir)``. HOME should point into ``root`` while it runs
(``jit.save`` writes under ``~/.cache``).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def demo_export(root: Path, steps: int = 6) -> tuple[Path, Path]:
    from workbench.datasets import generate_cls_demo
    from workbench.runs import RunStore
    from workbench.training import prepare_training, start_training

    data = root / "data" / "cls"
    generate_cls_demo(data, n_train=64, n_val=32, seed=1)
    store = RunStore(root / "ws")
    overrides = [
        f"train.steps={steps}", "train.warmup_steps=0", f"data.dir={data}", "train.batch_size=8",
        "eval.every=3", "checkpoint.every=3", "export.enabled=true",
    ]  # fmt: skip
    plan = prepare_training(
        REPO / "sample_configs" / "train_cls_demo.yaml", overrides, store=store, environ={}
    )
    job = start_training(plan, store)
    if not job.wait(300) or job.status != "finished":
        raise SystemExit(f"demo training did not finish: {job.status}")
    return store.workspace, job.run_dir
