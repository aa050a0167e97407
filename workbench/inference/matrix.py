"""The workspace's hardware × model × Paddle version matrix: one JSON line per path and comparison.

``<workspace>/matrix.jsonl`` gains a row ``{"hardware", "model", "paddle_version", "path", "status",
"max_diff", "latency_ms", "run_id", "step", "time", "p99_ms", "throughput_rps"}`` for every path of every
comparison (the last two only for ``loadtest`` rows: serving latency and throughput on this hardware); it is
append-only (one ``write`` per row, so concurrent comparisons do not tear lines) and readable as rows,
CSV or JSON for the UI and for other tools.
"""

from __future__ import annotations

import csv
import io
import json
import os
import platform
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from workbench.permissions import open_private, private_dir

MATRIX_FILE = "matrix.jsonl"
COLUMNS = (
    "hardware",
    "model",
    "paddle_version",
    "path",
    "status",
    "max_diff",
    "latency_ms",
    "run_id",
    "step",
    "time",
    "p99_ms",
    "throughput_rps",
)


def matrix_path(workspace: Path) -> Path:
    return Path(workspace) / MATRIX_FILE


def hardware_label(device: str = "cpu", accelerator: str | None = None) -> str:
    """``cpu: <processor> (<n> cores)`` or ``gpu: <device name>`` — what a row was measured on."""
    if device != "cpu":
        return f"{device}: {accelerator or '?'}"
    name = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{device}: {name} ({os.cpu_count() or 1} cores)"


def append_rows(workspace: Path, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Append rows (one line each); return them as written."""
    path = matrix_path(workspace)
    private_dir(path.parent)
    written = []
    with open_private(path, "a") as fh:  # 0600 when new (the matrix names this machine's hardware)
        for row in rows:
            doc = {key: row.get(key) for key in COLUMNS}
            fh.write(json.dumps(doc, ensure_ascii=False, default=str) + "\n")
            written.append(doc)
    return written


def read_rows(workspace: Path) -> list[dict[str, Any]]:
    """Every well-formed row (a torn or foreign line is skipped)."""
    path = matrix_path(workspace)
    rows: list[dict[str, Any]] = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return rows
    for line in text.splitlines():
        try:
            doc = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(doc, dict) and "path" in doc:
            rows.append(doc)
    return rows


def to_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(COLUMNS), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row.get(k) for k in COLUMNS})
    return out.getvalue()


def to_json(rows: Iterable[Mapping[str, Any]]) -> str:
    return json.dumps(
        {"columns": list(COLUMNS), "rows": list(rows)}, indent=2, ensure_ascii=False, default=str
    )
