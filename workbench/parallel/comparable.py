"""Are two runs comparable at all? The model's fingerprint, the data and the config apart from the plan.

A loss comparison means something only between runs of the same model on the same data with the same
training recipe; a parallel plan may change how the work is split, and — as things a parity check judges,
not reasons to refuse — the global batch, the learning rate and the seed. Everything else must match:

* **model**: the fingerprint every training run writes to ``<run>/model.json`` when its model is built
  (before a plan shards it): each parameter's structured name, global shape and dtype, and their sha256.
  A run without one (older runs, scripts of the user's own) is compared by its ``task`` and ``model``
  config instead, and the report says so.
* **data and preprocessing**: the task and its free options (a custom task's preprocessing settings),
  the data format, the demo-data spec, the data folder (resolved) and, when both runs recorded it, the
  dataset's fingerprint (:mod:`workbench.datasets.fingerprint`).
* **recipe**: optimizer, schedule, warm-up, weight decay, gradient clipping — and the step count when the
  schedule depends on it.

:func:`differences` lists what differs (empty: comparable); it reads ``run.yaml`` and ``model.json``
only, so the path dashboard can call it for every pair it considers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.runs import read_run_doc
from workbench.training.model_fingerprint import read_model_fingerprint

SHOWN = 3
"""Parameters named per kind of model difference (the rest are counted)."""

RECIPE_KEYS = ("optimizer", "lr_schedule", "warmup_steps", "weight_decay", "grad_clip")
"""``train`` keys two comparable runs share; ``batch_size``, ``lr`` and ``seed`` are judged by parity's
checks, ``device`` and ``steps`` (with a constant schedule) may differ."""


@dataclass(frozen=True)
class Difference:
    """One thing that makes two runs incomparable: ``what`` (model / data / recipe), the key, both sides
    (``b`` empty: ``a`` lists what only one side has)."""

    what: str
    key: str
    a: str
    b: str

    def to_dict(self) -> dict[str, str]:
        return {"what": self.what, "key": self.key, "a": self.a, "b": self.b}

    def text(self) -> str:
        return f"{self.key}: {self.a}" if not self.b else f"{self.key}: {self.a} ≠ {self.b}"


def _section(config: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = config.get(name)
    return dict(value) if isinstance(value, Mapping) else {}


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Mapping | list):
        return json.dumps(value, sort_keys=True, default=str)
    return str(value)


def _model_rows(a: dict[str, Any], b: dict[str, Any], name_a: str, name_b: str) -> list[Difference]:
    rows_a = {str(r[0]): r for r in a["params"] if isinstance(r, list) and len(r) == 3}
    rows_b = {str(r[0]): r for r in b["params"] if isinstance(r, list) and len(r) == 3}
    found: list[Difference] = []
    for rows, other, run in ((rows_a, rows_b, name_a), (rows_b, rows_a, name_b)):
        names = [n for n in rows if n not in other]
        if names:
            listed = ", ".join(names[:SHOWN]) + (f" (+{len(names) - SHOWN})" if len(names) > SHOWN else "")
            found.append(Difference("model", t("parallel.parity.only_in", run=run), listed, ""))
    shared = [n for n in rows_a if n in rows_b]
    for index, label in ((1, "shape"), (2, "dtype")):
        changed = [n for n in shared if rows_a[n][index] != rows_b[n][index]]
        for name in changed[:SHOWN]:
            found.append(
                Difference(
                    "model", f"{name} ({label})", _show(rows_a[name][index]), _show(rows_b[name][index])
                )
            )
    if not found and a["sha256"] != b["sha256"]:  # same rows in another order: another model structure
        found.append(Difference("model", "model.params (order)", a["sha256"][:12], b["sha256"][:12]))
    return found


def _data_dir(doc: Mapping[str, Any]) -> str | None:
    """The resolved data folder: a single-card run records it; a plan run records its training config."""
    env = doc.get("environment")
    if isinstance(env, Mapping) and isinstance(env.get("data_dir"), str):
        return str(env["data_dir"])
    config = doc.get("config")
    config = config if isinstance(config, Mapping) else {}
    data, parallel = _section(config, "data"), _section(config, "parallel")
    train_file, folder = parallel.get("train_file"), data.get("dir")
    if isinstance(train_file, str) and isinstance(folder, str):
        return str((Path(train_file).parent / folder).resolve())
    return None


def _dataset_sha(doc: Mapping[str, Any]) -> str | None:
    env = doc.get("environment")
    dataset = env.get("dataset") if isinstance(env, Mapping) else None
    sha = dataset.get("sha256") if isinstance(dataset, Mapping) else None
    return sha if isinstance(sha, str) else None


def _config_differences(
    doc_a: Mapping[str, Any], doc_b: Mapping[str, Any], *, models: bool
) -> list[Difference]:
    cfg_a, cfg_b = _section(doc_a, "config"), _section(doc_b, "config")
    found: list[Difference] = []

    def same(what: str, key: str, a: Any, b: Any) -> None:
        if a != b:
            found.append(Difference(what, key, _show(a), _show(b)))

    same("model", "task", cfg_a.get("task"), cfg_b.get("task"))
    same("model", "entry", cfg_a.get("entry"), cfg_b.get("entry"))
    if models:
        model_a, model_b = _section(cfg_a, "model"), _section(cfg_b, "model")
        for key in sorted(set(model_a) | set(model_b)):
            same("model", f"model.{key}", model_a.get(key), model_b.get(key))
    same("data", "options", cfg_a.get("options") or {}, cfg_b.get("options") or {})
    data_a, data_b = _section(cfg_a, "data"), _section(cfg_b, "data")
    for key in ("format", "demo"):
        same("data", f"data.{key}", data_a.get(key), data_b.get(key))
    dir_a, dir_b = _data_dir(doc_a), _data_dir(doc_b)
    if dir_a is not None and dir_b is not None:
        same("data", "data.dir", dir_a, dir_b)
    else:  # a side that did not record where its folder resolved: the folders as written
        same("data", "data.dir", data_a.get("dir"), data_b.get("dir"))
    sha_a, sha_b = _dataset_sha(doc_a), _dataset_sha(doc_b)
    if sha_a is not None and sha_b is not None:
        same("data", "dataset.sha256", sha_a[:12], sha_b[:12])
    train_a, train_b = _section(cfg_a, "train"), _section(cfg_b, "train")
    for key in RECIPE_KEYS:
        same("recipe", f"train.{key}", train_a.get(key), train_b.get(key))
    schedules = {train_a.get("lr_schedule"), train_b.get("lr_schedule")} - {None, "constant"}
    if schedules:
        same("recipe", "train.steps", train_a.get("steps"), train_b.get("steps"))
    return found


@dataclass
class Comparability:
    """What :func:`differences` found: ``by_fingerprint`` is false when a side has no ``model.json``."""

    differences: list[Difference]
    by_fingerprint: bool

    @property
    def ok(self) -> bool:
        return not self.differences

    def to_dict(self) -> dict[str, Any]:
        return {
            "comparable": self.ok,
            "model_by_fingerprint": self.by_fingerprint,
            "differences": [d.to_dict() for d in self.differences],
        }


def differences(run_a: Path, run_b: Path) -> Comparability:
    """Whether ``run_a`` and ``run_b`` are comparable (see the module docstring), and what differs."""
    fp_a, fp_b = read_model_fingerprint(run_a), read_model_fingerprint(run_b)
    by_fingerprint = fp_a is not None and fp_b is not None
    found: list[Difference] = []
    if fp_a is not None and fp_b is not None:
        found.extend(_model_rows(fp_a, fp_b, run_a.name, run_b.name))
    # The model's config is named too when the fingerprints differ (or one is missing): it says why.
    models = not by_fingerprint or bool(found)
    found.extend(_config_differences(read_run_doc(run_a), read_run_doc(run_b), models=models))
    return Comparability(found, by_fingerprint)
