"""Dataset: the baseline's dataset passes the linter and is the data the baseline trained on.

The data folder and format come from the baseline's ``run.yaml``; the linter decodes every image, so
only ``verify`` (``deep``) runs it. The dashboard takes the newest verdict on that folder: a stored
``dataset check`` (the CLI's or ``k`` in the TUI, :mod:`workbench.verify.evidence`) or the last
``verify`` report. The fingerprint recorded at training time must still match the folder (``verify``
checks it): a relabelled or replaced file is named as drift.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.runs import read_run_doc
from workbench.verify.layers import LAYERS
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _newest_verdict(ctx: Context, data_dir: str, command: str) -> Item:
    """The stored ``dataset check`` of ``data_dir`` or the last ``verify`` verdict, whichever is newer."""
    from workbench.verify.evidence import newest_dataset_report

    reused = ctx.reuse("dataset.lint", "dataset", command)
    checked = newest_dataset_report(ctx.workspace, data_dir)
    if checked is None or (reused.when is not None and reused.when >= float(checked["time"])):
        return reused
    if checked.get("ok"):
        evidence = t("verify.evidence.lint_ok", path=data_dir, warnings=checked.get("warnings", 0))
    else:
        first = "; ".join(str(p) for p in checked.get("first") or [])
        evidence = t("verify.evidence.lint_failed", count=checked.get("errors", 0), first=first)
    status = PASS if checked.get("ok") else FAIL
    return Item("dataset.lint", "dataset", status, evidence, command, float(checked["time"]), data_dir)


def dataset(ctx: Context) -> list[Item]:
    if ctx.baseline is None:
        command = "paddle-workbench dataset check DIR --format auto"
        return [Item("dataset.lint", "dataset", NOT_RUN, t("verify.evidence.no_baseline"), command)]
    doc = read_run_doc(ctx.baseline)
    env = _mapping(doc.get("environment"))
    data = _mapping(_mapping(doc.get("config")).get("data"))
    fmt = str(data.get("format") or "auto")
    data_dir = env.get("data_dir")
    command = f"paddle-workbench dataset check {data_dir or 'DIR'} --format {fmt}"
    if not isinstance(data_dir, str):
        return [Item("dataset.lint", "dataset", NOT_RUN, t("verify.evidence.no_data_dir"), command)]
    if not ctx.deep:
        return [_newest_verdict(ctx, data_dir, command)]
    from workbench.datasets.fingerprint import dataset_fingerprint
    from workbench.datasets.lint import FORMATS, lint_dataset

    root = Path(data_dir)
    if not root.is_dir():
        return [
            Item("dataset.lint", "dataset", FAIL, t("verify.evidence.data_missing", path=data_dir), command)
        ]
    report = lint_dataset(root, fmt if fmt in FORMATS else "auto")
    problems = [f"{p.file}:{p.line}: {p.code}" for p in report.errors[:3]]
    recorded = _mapping(env.get("dataset"))
    drift = bool(recorded.get("sha256")) and dataset_fingerprint(root)["sha256"] != recorded.get("sha256")
    if report.errors:
        evidence = t("verify.evidence.lint_failed", count=len(report.errors), first="; ".join(problems))
    elif drift:
        evidence = t("verify.evidence.data_drift", path=data_dir, run=ctx.baseline.name)
    else:
        evidence = t("verify.evidence.lint_ok", path=data_dir, warnings=len(report.warnings))
    status = FAIL if report.errors or drift else PASS
    return [Item("dataset.lint", "dataset", status, evidence, command, None, data_dir)]


LAYERS.register("dataset", dataset, order=60)
