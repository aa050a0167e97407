"""The evidence a check leaves in the workspace, the same whichever door ran it (CLI or TUI).

The path dashboard marks its steps from files, never from which screen was used: ``paddle-workbench
check`` and the checks of the TUI's Environment mode both store ``reports/check-<time>.json``
(:func:`store_check_report`); ``paddle-workbench dataset check`` and ``k`` in the runs list both store
``reports/dataset-<time>.json`` (:func:`store_dataset_report`), which the dataset step reads for the
baseline's data folder (:func:`newest_dataset_report`). Every file is written atomically, owner-only;
a workspace that cannot be written costs the dashboard its mark, never the check its result.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

from workbench.runs import atomic_write_text, make_private_dir

DATASET_GLOB = "dataset-*.json"
FIRST = 3
"""Problems a stored dataset report names (the rest are counted)."""


def _stamp(when: float) -> str:
    """A sortable name part; milliseconds keep two checks in one second apart."""
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(when)) + f"-{int(when * 1000) % 1000:03d}"


def _store(workspace: Path, name: str, doc: dict[str, Any]) -> Path | None:
    with contextlib.suppress(OSError):
        folder = make_private_dir(Path(workspace) / "reports")
        path = folder / name
        atomic_write_text(path, json.dumps(doc, indent=2, default=str, ensure_ascii=False) + "\n")
        return path
    return None


def store_check_report(doc: dict[str, Any], workspace: Path) -> Path | None:
    """Keep an environment check's result (``CheckReport.to_dict()``) as ``reports/check-<time>.json``."""
    return _store(workspace, f"check-{_stamp(time.time())}.json", doc)


def dataset_summary(report: Any) -> dict[str, Any]:
    """What the dashboard needs of a linter report: where, which format, the verdict, the first problems."""
    return {
        "root": str(Path(report.root).resolve()),
        "format": str(report.format),
        "ok": bool(report.ok) and not bool(report.refused),
        "refused": bool(report.refused),
        "errors": int(report.error_count),
        "warnings": int(report.warning_count),
        "first": [f"{p.file}:{p.line}: {p.code}" for p in list(report.errors)[:FIRST]],
        "time": time.time(),
    }


def store_dataset_report(report: Any, workspace: Path) -> Path | None:
    """Keep a dataset check's verdict (:func:`dataset_summary`) as ``reports/dataset-<time>.json``."""
    doc = dataset_summary(report)
    return _store(workspace, f"dataset-{_stamp(float(doc['time']))}.json", doc)


def newest_dataset_report(workspace: Path, data_dir: str) -> dict[str, Any] | None:
    """The newest stored dataset check of ``data_dir`` (resolved), or ``None``."""
    from workbench.verify.engine import read_json, reports_dir

    want = str(Path(data_dir).resolve())
    try:
        paths = sorted(reports_dir(Path(workspace)).glob(DATASET_GLOB), key=lambda p: p.name, reverse=True)
    except OSError:
        return None
    for path in paths:
        doc = read_json(path)
        if doc is not None and doc.get("root") == want and isinstance(doc.get("time"), int | float):
            doc["path"] = str(path)
            return doc
    return None


def run_dataset(run_dir: Path) -> tuple[str | None, str]:
    """``(data folder, format)`` a run trained on, as ``run.yaml`` records them (the dataset step's and
    ``k``'s subject: both lint the same folder in the same format)."""
    from workbench.datasets.lint import FORMATS
    from workbench.runs import read_run_doc

    doc = read_run_doc(run_dir)
    env = doc.get("environment") if isinstance(doc.get("environment"), dict) else {}
    config = doc.get("config") if isinstance(doc.get("config"), dict) else {}
    data = config.get("data") if isinstance(config, dict) and isinstance(config.get("data"), dict) else {}
    data_dir = env.get("data_dir") if isinstance(env, dict) else None
    fmt = str(data.get("format") or "auto") if isinstance(data, dict) else "auto"
    return (data_dir if isinstance(data_dir, str) else None), (fmt if fmt in FORMATS else "auto")
