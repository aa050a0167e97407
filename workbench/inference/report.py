"""Write a comparison into the run's ``reports/compare-step<N>-<time>.{json,md}``.

Latency is reported as the median and interquartile range of the timed calls per path and batch size,
with how many calls were timed; :func:`latency_comparison` orders the paths only where those ranges do
not overlap and says so in words where they do (``latency_comparison`` in the JSON document).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.inference.engine import CompareResult
from workbench.inference.metrics import latency_order
from workbench.runs import atomic_write_text, make_private_dir, tighten


def _num(value: object, fmt: str = ".3g") -> str:
    return format(value, fmt) if isinstance(value, int | float) else "-"


def latency_comparison(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Per batch size (``batch_1``, ``batch_N``): the paths by median latency, which of them overlap
    (interquartile ranges that meet: no order claimed between them) and a note in words."""
    entries: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    reference = doc.get("reference") or {}
    timed = [
        (str(reference.get("name", "dygraph_eval")), reference),
        *((str(p["name"]), p) for p in doc["paths"]),
    ]
    for name, part in timed:
        for key, stats in (part.get("latency") or {}).items():
            entries.setdefault(key, []).append((name, stats))
    out: dict[str, Any] = {}
    for key, rows in entries.items():
        verdict = latency_order(rows)
        size = key.removeprefix("batch_")
        order = " < ".join(" ≈ ".join(group) for group in verdict["groups"])
        notice = "inference.latency.overlap" if verdict["overlapping"] else "inference.latency.ranked"
        verdict["note"] = t(notice, batch=size, order=order)
        out[key] = verdict
    return out


def to_markdown(result: CompareResult) -> str:
    """The comparison as a Markdown document (tables of paths, findings and operators)."""
    doc = result.to_dict()
    title = (
        t("inference.foreign.report.title", export=result.foreign["prefix"])
        if result.foreign is not None
        else t("inference.report.title", run=result.run_dir.name, step=result.checkpoint["step"])
    )
    lines = [
        f"# {title}",
        "",
        *[f"- {note}" for note in result.notes],
        f"- {t('inference.report.batch', size=doc['batch']['size'], shape=str(doc['batch']['shape']))}",
        "",
        "| path | status | max abs | max rel | cosine | top-1 | median ms | IQR ms | p90 ms | calls "
        "| load s | RSS MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    key = f"batch_{doc['batch']['size']}"
    for path in result.paths:
        latency = (path.get("latency") or {}).get(key, {})
        lines.append(
            f"| {path['name']} | {path['status']} | {_num(path['max_abs_diff'])} | {_num(path['max_rel_diff'])} "
            f"| {_num(path['cosine'], '.6f')} | {_num(path['top1_agreement'], '.0%')} "
            f"| {_num(latency.get('median'), '.3f')} | {_num(latency.get('iqr'), '.3f')} "
            f"| {_num(latency.get('p90'), '.3f')} | {_num(latency.get('samples'), 'd')} "
            f"| {_num(path.get('load_s'), '.3f')} | {_num(path.get('rss_delta_mib'), '.1f')} |"
        )
    lines += ["", f"## {t('inference.report.latency')}", ""]
    lines += [f"- {verdict['note']}" for verdict in latency_comparison(doc).values()]
    lines += ["", f"## {t('inference.report.findings')}", ""]
    for finding in result.findings:
        lines.append(f"- **{finding.id}** ({finding.severity}): {finding.summary}")
        if finding.fix:
            lines.append(f"  - {t('inference.report.fix')}: {finding.fix}")
        for item in finding.evidence[:20]:
            lines.append(f"  - `{item}`")
    ops = result.ops.get("ops") or []
    lines += ["", f"## {t('inference.report.ops')}", "", "| op | count |", "|---|---|"]
    lines += [f"| {op['name']} | {op['count']} |" for op in ops]
    return "\n".join(lines) + "\n"


def write_report(result: CompareResult) -> tuple[Path, Path]:
    folder = make_private_dir(result.run_dir / "reports")
    what = "export" if result.foreign is not None else f"step{result.checkpoint['step']}"
    stem = f"compare-{what}-{time.strftime('%Y%m%d-%H%M%S')}"
    json_path, md_path = folder / f"{stem}.json", folder / f"{stem}.md"
    doc = result.to_dict()
    doc["latency_comparison"] = latency_comparison(doc)
    atomic_write_text(json_path, json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n")
    atomic_write_text(md_path, to_markdown(result))
    tighten(result.run_dir)  # the export Paddle just wrote under the umask: owner-only, like the run
    return json_path, md_path
