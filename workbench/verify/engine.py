"""``collect``: the release checklist over one workspace — the one function ``verify`` and the dashboard use.

It finds the runs once (the baseline as :mod:`workbench.baseline` chooses it — pinned, or the newest
finished single-card training run of the model —, the newest finished launched run with a
``parallel.json`` the parallel run), asks every layer in :data:`LAYERS` for its
items, and returns them with the verdict. ``deep=False`` (the home screen) never imports Paddle and
never probes the machine: the slow items repeat the last stored ``verify`` report.

``verify`` stores each result as ``<workspace>/reports/verify-<time>.json`` (0600, folder 0700).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.runs import RunStore, atomic_write_text, make_private_dir, read_run_doc
from workbench.verify.config import VerifyConfig
from workbench.verify.layers import LAYERS
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item

REPORT_GLOB = "verify-*.json"


@dataclass
class VerifyResult:
    items: list[Item]
    strict: bool = False
    workspace: Path = field(default_factory=Path)
    baseline: Path | None = None
    parallel: Path | None = None
    time: float = field(default_factory=time.time)

    def counts(self) -> dict[str, int]:
        counts = {PASS: 0, FAIL: 0, NOT_RUN: 0}
        for item in self.items:
            counts[item.status] = counts.get(item.status, 0) + 1
        return counts

    @property
    def ok(self) -> bool:
        """No item failed (and, when ``strict``, none is without evidence)."""
        bad = (FAIL, NOT_RUN) if self.strict else (FAIL,)
        return all(item.status not in bad for item in self.items)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "strict": self.strict,
            "counts": self.counts(),
            "workspace": str(self.workspace),
            "baseline": str(self.baseline) if self.baseline else None,
            "parallel": str(self.parallel) if self.parallel else None,
            "time": self.time,
            "items": [item.to_dict() for item in self.items],
        }


def find_runs(store: RunStore) -> tuple[Path | None, Path | None]:
    """``(baseline, parallel)``: the newest finished parallel run, and the baseline
    (:func:`workbench.baseline.choose_baseline`) of its model — of the workspace when there is no
    parallel run or no baseline of that model (the parity layer then says what differs)."""
    from workbench.baseline import choose_baseline, model_sha

    parallel = None
    for run in store.list():
        if run.status == "finished" and not run.damaged and (run.run_dir / "parallel.json").is_file():
            parallel = run.run_dir
            break
    sha = model_sha(parallel) if parallel is not None else None
    baseline = choose_baseline(store, sha).run_dir if sha is not None else None
    if baseline is None:
        baseline = choose_baseline(store).run_dir
    return baseline, parallel


def reports_dir(workspace: Path) -> Path:
    return Path(workspace) / "reports"


def newest_report(folder: Path, pattern: str) -> Path | None:
    """The newest report matching ``pattern`` in ``folder`` (names carry a sortable time stamp)."""
    try:
        found = sorted(folder.glob(pattern), key=lambda p: (p.stat().st_mtime, p.name))
    except OSError:
        return None
    return found[-1] if found else None


def read_json(path: Path) -> dict[str, Any] | None:
    """A JSON object from ``path`` (``None`` when it is missing, unreadable or not an object)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _previous(workspace: Path) -> tuple[dict[str, dict[str, Any]], float | None]:
    path = newest_report(reports_dir(workspace), REPORT_GLOB)
    doc = read_json(path) if path is not None else None
    if doc is None:
        return {}, None
    items = {str(i.get("id")): i for i in doc.get("items", []) if isinstance(i, dict)}
    when = doc.get("time")
    return items, float(when) if isinstance(when, int | float) else None


def collect(
    workspace: str | Path | None = None, config: VerifyConfig | None = None, *, deep: bool = True
) -> VerifyResult:
    """Every checklist item for ``workspace`` (see the module docstring)."""
    store = RunStore(workspace)
    cfg = config or VerifyConfig()
    baseline, parallel = find_runs(store)
    if cfg.baseline:
        baseline = store.resolve(cfg.baseline)
    previous, previous_when = ({}, None) if deep else _previous(store.workspace)
    ctx = Context(store, cfg, deep, baseline, parallel, previous, previous_when)
    items: list[Item] = []
    for layer in LAYERS.values():
        items.extend(layer(ctx))
    return VerifyResult(items, cfg.strict, store.workspace, baseline, parallel)


def write_report(result: VerifyResult) -> Path:
    """Store the result as ``<workspace>/reports/verify-<time>.json`` (owner-only)."""
    folder = make_private_dir(reports_dir(result.workspace))
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(result.time))
    path = folder / f"verify-{stamp}.json"
    atomic_write_text(path, json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return path


def last_verify(workspace: str | Path | None = None) -> dict[str, Any] | None:
    """The newest stored ``verify`` report (the dashboard's last step), or ``None``."""
    store = RunStore(workspace)
    path = newest_report(reports_dir(store.workspace), REPORT_GLOB)
    doc = read_json(path) if path is not None else None
    if doc is not None:
        doc["path"] = str(path)
    return doc


def run_label(run_dir: Path | None) -> str:
    """A run's id for messages (its folder name)."""
    return run_dir.name if run_dir is not None else ""


def run_config(run_dir: Path) -> dict[str, Any]:
    doc = read_run_doc(run_dir)
    config = doc.get("config")
    return config if isinstance(config, dict) else {}
