"""A finished run written with the run store itself: fixed id, times and environment (deterministic
pictures), realistic content (the config and ``environment`` block a real CPU run records)."""

from __future__ import annotations

import math
from pathlib import Path

from workbench.events import AlertRaised, CheckpointSaved, RunFinished, RunStarted
from workbench.runs import RunStore

RUN_ID = "20261130-221405-tiny_cls-0a1b"
STARTED = 1764540845.0  # 2025-11-30 22:14:05 UTC
COMMIT = "3f9c2d1e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d"

CONFIG = {
    "task": "image_classification",
    "name": "tiny_cls",
    "entry": None,
    "data": {"dir": "../demo_data/cls", "format": "cls", "demo": True},
    "model": {"name": "small_cnn", "num_classes": None, "width": 16, "hidden": 64},
    "train": {
        "steps": 60, "batch_size": 8, "lr": 0.05, "optimizer": "momentum", "seed": 42, "device": "auto",
        "lr_schedule": "cosine", "warmup_steps": 0, "weight_decay": 0.0, "grad_clip": None,
    },
    "eval": {"every": 20, "max_samples": None, "batch_size": 256},
    "checkpoint": {"every": 20, "keep": 3},
    "alerts": {"nonfinite": "warn", "nonfinite_patience": 1, "hang_after_s": 60.0},
    "export": {"enabled": False},
    "metrics": {"grad_norm": True, "memory": True},
    "options": {},
    "debug": None,
}  # fmt: skip

ENVIRONMENT = {
    "workbench": "0.1.0",
    "python": "3.11.7",
    "platform": "Linux x86_64",
    "numpy": "2.3.5",
    "paddle": {
        "version": "3.3.1",
        "commit": "7688495538f4d6c1893f084dd238a402e8f68ab6",
        "cuda": "False",
        "cudnn": "False",
        "compiled_with_cuda": False,
    },
    "device": "cpu",
    "seeds": {"paddle": 42, "numpy": 42, "random": 42},
    "threads": {"OMP_NUM_THREADS": "1", "cpu_count": 2},
    "config_file": "/home/ada/proj/configs/tiny_cls.yaml",
    "overrides": ["train.steps=60"],
    "data_dir": "/home/ada/proj/demo_data/cls",
    "dataset": {
        "sha256": "eccb46241faa34c524b76ce766ebf4d15e3d5a8b141d0d63d1a5b0f842ea2996",
        "files": 84,
        "lists": 4,
        "bytes": 201334,
        "samples": {"train": 64, "val": 16},
    },
    "code": {"commit": COMMIT, "branch": "main", "dirty": True, "changed": 2, "root": "/home/ada/proj"},
}


def write_stored_run(workspace: Path) -> Path:
    """A 60-step finished run with eval every 20 steps, one alert and checkpoints; returns its folder."""
    handle = RunStore(workspace).create("tiny_cls", CONFIG, fingerprint=ENVIRONMENT, run_id=RUN_ID)
    handle.emit(RunStarted(run_id=RUN_ID, name="tiny_cls", kind="in_process", time=STARTED))
    for step in range(1, 61):
        when = STARTED + step * 1.5
        loss = 2.3 * math.exp(-step / 25) + 0.1
        values = {"loss": loss, "lr": 0.05 * (1 + math.cos(math.pi * step / 60)) / 2, "samples_per_s": 410.0}
        handle.writer.sample(0, step, values, when)
        if step % 20 == 0:
            accuracy = {20: 0.4375, 40: 0.6875, 60: 0.625}[step]
            handle.writer.sample(0, step, {"eval/loss": loss + 0.2, "eval/accuracy": accuracy}, when)
            handle.emit(CheckpointSaved(step=step, path=f"checkpoints/step-{step}", time=when))
        if step == 33:
            message = "loss is nan at step 33 (update skipped)"
            handle.emit(AlertRaised(kind="nonfinite", message=message, step=33, time=when))
    finished = RunFinished(step=60, summary={"loss": loss}, time=STARTED + 95.0)
    handle.writer.close(last=finished)
    handle.update_state(finished)
    handle.close()
    return handle.run_dir
