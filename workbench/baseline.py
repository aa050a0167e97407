"""Which run is the baseline: chosen by a rule or pinned by the user, never the newest run of any kind.

The baseline of a model is its newest finished single-card training run with the same model fingerprint
(``<run>/model.json``, :mod:`workbench.training.model_fingerprint`), unless the user pinned another
(``paddle-workbench runs pin RUN``, ``b`` in the TUI's runs list). Only runs the training loop wrote —
they carry ``model.json`` — are chosen implicitly: the numpy demo (``task: demo``), an attached kit log
(kind ``linked``), a ``track`` script (its environment names the ``script``) and a parallel plan run
(``parallel.json``) are passed over, each with the reason; the user may still pin any finished run.

Pins live in ``<workspace>/baseline.json`` (written atomically, owner-only, like every workspace file):
one pin per model fingerprint (``model: null`` for a run without one), the newest pin first. This module
reads run folders only (``run.yaml``, ``state.json``, ``model.json``): the dashboard calls it on every
refresh.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.runs import RunStore, RunSummary, atomic_write_text, make_private_dir, read_run_doc
from workbench.training.model_fingerprint import read_model_fingerprint

PIN_FILE = "baseline.json"
MAX_PIN_FILE_BYTES = 1024 * 1024

ATTACHED, DEMO, TRACKED, PARALLEL, NO_MODEL, UNFINISHED, DAMAGED = (
    "attached",
    "demo",
    "tracked",
    "parallel",
    "no_model",
    "unfinished",
    "damaged",
)
"""Why a run is not an implicit baseline (``baseline.skip.<reason>`` in the catalog)."""


@dataclass(frozen=True)
class Pin:
    """A run the user chose as the baseline of its model (``model`` is ``None`` without ``model.json``)."""

    run: str
    model: str | None
    time: float

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "model": self.model, "time": self.time}


@dataclass
class BaselineChoice:
    """The chosen run (``None``: none yet), whether a pin chose it, and newer runs passed over."""

    run_dir: Path | None
    pinned: bool = False
    model: str | None = None
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """``(run id, reason)`` of the finished runs newer than the choice that could not be it."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run_dir.name if self.run_dir is not None else None,
            "run_dir": str(self.run_dir) if self.run_dir is not None else None,
            "pinned": self.pinned,
            "model": self.model,
            "skipped": [{"run": run, "reason": reason} for run, reason in self.skipped],
        }


def model_sha(run_dir: Path) -> str | None:
    """The run's model fingerprint (``model.json``'s sha256), or ``None`` when it wrote none."""
    doc = read_model_fingerprint(run_dir)
    return str(doc["sha256"]) if doc is not None else None


def implicit_refusal(run: RunSummary) -> str | None:
    """Why ``run`` can never be chosen without a pin (``None``: it can, when its model matches)."""
    if run.damaged:
        return DAMAGED
    if run.status != "finished":
        return UNFINISHED
    if run.kind == "linked":
        return ATTACHED
    doc = read_run_doc(run.run_dir)
    config = doc.get("config") if isinstance(doc.get("config"), dict) else {}
    environment = doc.get("environment") if isinstance(doc.get("environment"), dict) else {}
    if isinstance(config, dict) and config.get("task") == "demo":
        return DEMO
    if (run.run_dir / "parallel.json").is_file():
        return PARALLEL
    if isinstance(environment, dict) and "script" in environment:
        return TRACKED
    if model_sha(run.run_dir) is None:
        return NO_MODEL
    return None


def pin_path(workspace: Path) -> Path:
    return Path(workspace) / PIN_FILE


def read_pins(workspace: Path) -> list[Pin]:
    """The pins of ``workspace``, newest first (a missing or unreadable file: none)."""
    path = pin_path(workspace)
    try:
        if not path.is_file() or path.stat().st_size > MAX_PIN_FILE_BYTES:
            return []
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    rows = doc.get("pins") if isinstance(doc, dict) else None
    pins: list[Pin] = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict) or not isinstance(row.get("run"), str):
            continue
        model = row.get("model")
        when = row.get("time")
        pins.append(
            Pin(
                str(row["run"]),
                model if isinstance(model, str) else None,
                float(when) if isinstance(when, int | float) else 0.0,
            )
        )
    return sorted(pins, key=lambda p: p.time, reverse=True)


def _write_pins(workspace: Path, pins: list[Pin]) -> None:
    make_private_dir(Path(workspace))
    doc = {"pins": [p.to_dict() for p in sorted(pins, key=lambda p: p.time, reverse=True)]}
    atomic_write_text(pin_path(workspace), json.dumps(doc, indent=2) + "\n")


def pin(store: RunStore, run_dir: Path) -> Pin:
    """Make ``run_dir`` the baseline of its model (replacing that model's previous pin)."""
    sha = model_sha(run_dir)
    new = Pin(run_dir.name, sha, time.time())
    kept = [p for p in read_pins(store.workspace) if p.model != sha and p.run != run_dir.name]
    _write_pins(store.workspace, [new, *kept])
    return new


def unpin(store: RunStore, run_dir: Path | None = None) -> list[Pin]:
    """Remove the pin of ``run_dir`` (every pin when ``None``); returns the pins removed."""
    pins = read_pins(store.workspace)
    removed = [p for p in pins if run_dir is None or p.run == run_dir.name]
    if removed:
        _write_pins(store.workspace, [p for p in pins if p not in removed])
    return removed


def _pinned_for(store: RunStore, model: str | None) -> Path | None:
    """The pinned run for ``model`` (any model's newest pin when ``None``); a pin of a model-less run
    applies when that model has no pin of its own. Pins whose run is gone are passed over."""
    pins = read_pins(store.workspace)
    if model is not None:
        pins = [p for p in pins if p.model == model] or [p for p in pins if p.model is None]
    for found in pins:
        run_dir = store.runs_dir / found.run
        if (run_dir / "run.yaml").is_file():
            return run_dir
    return None


def choose_baseline(store: RunStore, model: str | None = None) -> BaselineChoice:
    """The baseline for ``model`` (a fingerprint sha256; ``None``: the workspace's, any model).

    A pin wins; otherwise the newest finished single-card training run (of ``model`` when given).
    """
    pinned = _pinned_for(store, model)
    if pinned is not None:
        return BaselineChoice(pinned, True, model_sha(pinned))
    skipped: list[tuple[str, str]] = []
    for run in store.list():
        reason = implicit_refusal(run)
        if reason == UNFINISHED:
            continue
        if reason is not None:
            skipped.append((run.run_id, reason))
            continue
        sha = model_sha(run.run_dir)
        if model is not None and sha != model:
            continue
        return BaselineChoice(run.run_dir, False, sha, skipped)
    return BaselineChoice(None, False, model, skipped)


def is_pinned(store: RunStore, run_dir: Path) -> bool:
    """Whether ``run_dir`` is pinned as a baseline."""
    return any(p.run == run_dir.name for p in read_pins(store.workspace))
