"""Resuming never changes a run's learning-rate schedule silently (raising ``train.steps`` on resume).

The runs here are real run folders with real, verified checkpoints; no Paddle is needed, because the
decision is made before Paddle is imported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.config.loader import load_model
from workbench.config.training import TrainingConfig
from workbench.events import RunCancelled
from workbench.runs import RunStore
from workbench.training.checkpoints import CheckpointStore
from workbench.training.plan import PrepareError, prepare_training

CONFIG = """\
task: image_classification
data: {{dir: data, format: cls, demo: {{train: 8, val: 4}}}}
train: {{steps: 40, batch_size: 4, lr: 0.05, lr_schedule: {schedule}, warmup_steps: 2}}
export: {{enabled: false}}
"""


def _interrupted_run(tmp_path: Path, schedule: str, at_step: int) -> tuple[Path, RunStore]:
    """A config and a run of it that stopped with a verified checkpoint at ``at_step``."""
    config = tmp_path / "sched.yaml"
    config.write_text(CONFIG.format(schedule=schedule))
    cfg = load_model(config, TrainingConfig)
    store = RunStore(tmp_path / "ws")
    handle = store.create("sched", cfg.model_dump(mode="json"))
    CheckpointStore(handle.run_dir / "checkpoints").save(
        at_step, {"state.pkl": lambda path: path.write_bytes(b"state")}, {"loss": 0.5}
    )
    handle.emit(RunCancelled(step=at_step))
    handle.close()
    return config, store


def test_raising_train_steps_of_a_cosine_run_is_refused_with_the_reason(tmp_path: Path) -> None:
    config, store = _interrupted_run(tmp_path, "cosine", at_step=20)
    with pytest.raises(PrepareError) as caught:
        prepare_training(config, ["train.steps=60"], resume="latest", store=store, environ={})
    [message] = caught.value.messages
    assert "train.steps is 60" in message and "trained with 40" in message
    assert "cosine" in message and "from step 21" in message and "-o train.steps=40" in message
    # Unchanged, it resumes (and the demo data is only generated now, after the decision).
    plan = prepare_training(config, resume="latest", store=store, environ={})
    assert plan.resume is not None and plan.resume.step == 20


def test_a_complete_cosine_run_says_its_schedule_ended_instead_of_suggesting_more_steps(
    tmp_path: Path,
) -> None:
    config, store = _interrupted_run(tmp_path, "cosine", at_step=40)
    [run_dir] = store.run_dirs()
    (run_dir / "state.json").write_text('{"status": "finished", "name": "sched"}')
    with pytest.raises(PrepareError, match="schedule has ended"):
        prepare_training(config, resume="latest", store=store, environ={})


def test_a_constant_schedule_may_run_longer(tmp_path: Path) -> None:
    config, store = _interrupted_run(tmp_path, "constant", at_step=20)
    plan = prepare_training(config, ["train.steps=60"], resume="latest", store=store, environ={})
    assert plan.resume is not None and plan.resume.step == 20 and plan.cfg.train.steps == 60
    assert not [n for n in plan.notices if "train.steps" in n]  # nothing about the schedule changes


def test_a_custom_entry_gets_a_warning_because_its_schedule_is_its_own(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text("def build(cfg):\n    return None\n")
    config = tmp_path / "custom.yaml"
    config.write_text("task: custom\nentry: mine:build\ntrain: {steps: 40}\n")
    cfg = load_model(config, TrainingConfig)
    store = RunStore(tmp_path / "ws")
    handle = store.create("custom", cfg.model_dump(mode="json"))
    CheckpointStore(handle.run_dir / "checkpoints").save(20, {"state.pkl": lambda p: p.write_bytes(b"s")})
    handle.close()
    plan = prepare_training(config, ["train.steps=60"], resume="latest", store=store, environ={})
    assert any("changed from 40 to 60" in n and "from step 21" in n for n in plan.notices), plan.notices


def test_latest_is_the_newest_run_even_within_one_second(tmp_path: Path) -> None:
    """Run ids carry a second-resolution stamp and a random suffix: the suffix must not decide."""
    import time

    store = RunStore(tmp_path / "ws")
    store.create("twice", run_id="20261130-120000-twice-ffff").close()
    time.sleep(0.05)  # a distinct file time for the second run.yaml
    store.create("twice", run_id="20261130-120000-twice-0000").close()
    assert [d.name for d in store.run_dirs()] == ["20261130-120000-twice-0000", "20261130-120000-twice-ffff"]
    assert store.candidates("latest")[0].name == "20261130-120000-twice-0000"
