"""What a comparison starts from: a run folder, one of its verified checkpoints, and the model rebuilt.

``CONFIG_OR_RUN`` is a run id, id prefix, run folder or ``latest``, or a training config file (then the
newest run of that config's name that has a checkpoint). The model is rebuilt exactly as the training
loop builds it — same task builder, inside ``paddle.utils.unique_name.guard()`` — and the
checkpoint's weights are loaded by name with every mismatch recorded (a parameter in the checkpoint but
not in the model, the reverse, or a different shape: the cases Paddle reports only as a "Skip loading
for …" warning). Only the matching weights are handed to ``set_state_dict``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from pydantic import ValidationError

from workbench.config.problems import problem_text
from workbench.config.training import TrainingConfig
from workbench.i18n import t
from workbench.runs import RunStore, read_run_config
from workbench.training.checkpoints import CheckpointInfo, CheckpointStore, read_manifest, verify_checkpoint
from workbench.training.parts import TrainParts


class CompareInputError(Exception):
    """Bad input for a comparison: each message says what is wrong and how to fix it (exit code 2)."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass
class RunSource:
    """A run folder with its resolved config and where its data and config file live."""

    run_dir: Path
    cfg: TrainingConfig
    data_dir: Path | None
    config_dir: Path

    @property
    def run_id(self) -> str:
        return self.run_dir.name


@dataclass
class LoadReport:
    """How the checkpoint's weights matched the model's parameters, by name."""

    loaded: list[str] = field(default_factory=list)
    missing_in_checkpoint: list[str] = field(default_factory=list)
    unexpected_in_checkpoint: list[str] = field(default_factory=list)
    shape_mismatch: list[tuple[str, list[int], list[int]]] = field(default_factory=list)
    """``(name, shape in checkpoint, shape in model)``."""

    @property
    def clean(self) -> bool:
        return not (self.missing_in_checkpoint or self.unexpected_in_checkpoint or self.shape_mismatch)


def _run_doc(run_dir: Path) -> dict[str, Any]:
    try:
        doc = yaml.safe_load((run_dir / "run.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _has_checkpoint(run_dir: Path) -> bool:
    return bool(CheckpointStore(run_dir / "checkpoints", keep=None).committed())


def resolve_run(ref: str, store: RunStore) -> Path:
    """The run folder ``ref`` names (a config file means its newest run with a checkpoint)."""
    path = Path(ref)
    if path.is_file() and path.suffix in (".yaml", ".yml"):
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise CompareInputError([t("inference.input.bad_config", path=ref, error=str(exc))]) from None
        name = (raw.get("name") if isinstance(raw, dict) else None) or path.stem
        for candidate in store.run_dirs():
            if _run_doc(candidate).get("name") == name and _has_checkpoint(candidate):
                return candidate
        raise CompareInputError([t("inference.input.no_run_for_config", path=ref, name=name)])
    run_dir: Path | None = store.resolve(ref)
    if run_dir is None:  # a run name (the config's stem): its newest run with a checkpoint
        run_dir = next(
            (d for d in store.run_dirs() if _run_doc(d).get("name") == ref and _has_checkpoint(d)), None
        )
    if run_dir is None:
        raise CompareInputError([t("inference.input.unknown_run", ref=ref, workspace=str(store.workspace))])
    return run_dir


def load_source(run_dir: Path) -> RunSource:
    """The run's resolved config, data folder and config folder from its ``run.yaml``."""
    config = read_run_config(run_dir)
    parallel = config.get("parallel")
    if isinstance(parallel, dict):  # a plan run: its single-card checkpoint comes from `plan merge`
        config = {k: v for k, v in config.items() if k != "parallel"}
    try:
        cfg = TrainingConfig.model_validate(config)
    except ValidationError as exc:  # each problem in the user's language, with the key it is about
        errors = [
            f"{'.'.join(str(part) for part in err['loc']) or '-'}: {problem_text(err)}"
            for err in exc.errors(include_url=False)
        ]
        raise CompareInputError(
            [t("inference.input.bad_run_config", run=str(run_dir), error=error) for error in errors]
        ) from None
    env = _run_doc(run_dir).get("environment") or {}
    extra = env.get("extra", env) if isinstance(env, dict) else {}
    data_dir = extra.get("data_dir") if isinstance(extra, dict) else None
    config_file = extra.get("config_file") if isinstance(extra, dict) else None
    if isinstance(parallel, dict) and not config_file and parallel.get("train_file"):
        config_file = str(parallel["train_file"])
        resolved = cfg.data_dir(config_file)
        data_dir = str(resolved) if resolved is not None else None
    if cfg.task != "custom" and (not data_dir or not Path(data_dir).is_dir()):
        raise CompareInputError([t("inference.input.no_data", run=str(run_dir), path=str(data_dir))])
    config_dir = Path(config_file).parent if config_file else run_dir
    return RunSource(run_dir, cfg, Path(data_dir) if data_dir else None, config_dir)


def pick_checkpoint(run_dir: Path, step: int | None) -> CheckpointInfo:
    """Checkpoint ``step`` (verified), or the newest one that verifies."""
    store = CheckpointStore(run_dir / "checkpoints", keep=None)
    committed = store.committed()
    if not committed and (run_dir / "dist_checkpoints").is_dir():  # a plan run not merged yet
        raise CompareInputError([t("parallel.merge.needed", run=str(run_dir), ref=run_dir.name)])
    if not committed:
        raise CompareInputError([t("inference.input.no_checkpoints", run=str(run_dir))])
    if step is None:
        info = store.latest_valid()
        if info is None:
            problems = [p for probs in store.invalid().values() for p in probs]
            raise CompareInputError([t("inference.input.no_valid_checkpoint", run=str(run_dir)), *problems])
        return info
    chosen = [c for c in committed if c.step == step]
    if not chosen:
        steps = ", ".join(str(c.step) for c in committed)
        raise CompareInputError([t("inference.input.no_such_step", step=step, steps=steps)])
    problems = verify_checkpoint(chosen[0].path)
    if problems:
        raise CompareInputError(
            [t("inference.input.corrupt_checkpoint", path=str(chosen[0].path)), *problems]
        )
    return CheckpointInfo(chosen[0].path, step, read_manifest(chosen[0].path))


def build_model(source: RunSource, paddle: Any) -> TrainParts:
    """The task's parts, built as the training loop builds them (same builder, fresh parameter names).

    No seed is set: the seeds are process-wide, and in the TUI a training run may be drawing from them
    on another thread. Every weight that matters comes from the checkpoint.
    """
    from workbench.training.tasks import build_parts

    with paddle.utils.unique_name.guard():
        parts = build_parts(source.cfg, data_dir=source.data_dir, config_dir=source.config_dir, paddle=paddle)
    parts.check()
    return parts


def load_weights(model: Any, checkpoint: CheckpointInfo, paddle: Any) -> LoadReport:
    """Load the checkpoint's model file by name; mismatches are reported, never silently skipped."""
    from workbench.training.loop import MODEL_FILE

    path = checkpoint.file(MODEL_FILE)
    try:
        state = paddle.load(str(path))
    except Exception as exc:  # noqa: BLE001 - a truncated or foreign file: bad input with the reason
        raise CompareInputError(
            [t("inference.input.unreadable_weights", path=str(path), error=f"{type(exc).__name__}: {exc}")]
        ) from None
    if not isinstance(state, dict):
        raise CompareInputError(
            [t("inference.input.unreadable_weights", path=str(path), error=type(state).__name__)]
        )
    report = LoadReport()
    own = model.state_dict()
    usable: dict[str, Any] = {}
    for name, param in own.items():
        if name not in state:
            report.missing_in_checkpoint.append(name)
            continue
        saved_shape = [int(d) for d in np.shape(state[name])]
        model_shape = [int(d) for d in param.shape]
        if saved_shape != model_shape:
            report.shape_mismatch.append((name, saved_shape, model_shape))
            continue
        usable[name] = state[name]
        report.loaded.append(name)
    for name in report.missing_in_checkpoint + [n for n, _, _ in report.shape_mismatch]:
        usable[name] = own[name]  # keep the model's own value, without Paddle's "Skip loading" warning
    report.unexpected_in_checkpoint = [name for name in state if name not in own]
    model.set_state_dict(usable)
    return report


def input_batch(parts: TrainParts, size: int) -> np.ndarray[Any, Any]:
    """The first ``size`` validation inputs (training data when there is none), already preprocessed."""
    data = parts.val_data if parts.val_data is not None else parts.train_data
    if hasattr(data, "__len__") and hasattr(data, "__getitem__"):
        n = min(size, len(data))
        items = [data[i] for i in range(n)]
        first = [item[0] if isinstance(item, tuple | list) else item for item in items]
        return np.stack([_to_numpy(x) for x in first])
    batch = next(iter(data))
    first = batch[0] if isinstance(batch, tuple | list) else batch
    return _to_numpy(first)[:size]


def _to_numpy(value: Any) -> np.ndarray[Any, Any]:
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


def charset_of(parts: TrainParts) -> list[str] | None:
    """The recognition dictionary (CTC class k is ``charset[k - 1]``), when the data has one."""
    data = parts.val_data if parts.val_data is not None else parts.train_data
    charset = getattr(data, "charset", None)
    return list(charset) if charset is not None else None


def dumps(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False, default=str)
