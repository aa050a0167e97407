"""Inference: the newest ``paddle-workbench compare`` report of the baseline is within tolerance."""

from __future__ import annotations

from workbench.i18n import t
from workbench.verify.engine import newest_report, read_json
from workbench.verify.layers import LAYERS
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item


def compare_command(ctx: Context) -> str:
    return f"paddle-workbench compare {ctx.baseline.name if ctx.baseline is not None else 'RUN'}"


def inference(ctx: Context) -> list[Item]:
    command = compare_command(ctx)
    path = newest_report(ctx.baseline / "reports", "compare-*.json") if ctx.baseline is not None else None
    doc = read_json(path) if path is not None else None
    if path is None or doc is None:
        return [Item("inference.compare", "inference", NOT_RUN, t("verify.evidence.no_compare"), command)]
    limit = ctx.config.tolerances.inference_abs
    paths = [p for p in doc.get("paths", []) if isinstance(p, dict) and not p.get("deliberate")]
    diffs = [p["max_abs_diff"] for p in paths if isinstance(p.get("max_abs_diff"), int | float)]
    worst = max(diffs, default=None)
    over = limit is not None and worst is not None and worst > limit
    ok = bool(doc.get("ok")) and not over
    evidence = t(
        "verify.evidence.compare",
        paths=len(paths),
        diff="-" if worst is None else f"{worst:.3g}",
        tol="-" if limit is None else f"{limit:g}",
        path=str(path),
    )
    status = PASS if ok else FAIL
    return [
        Item("inference.compare", "inference", status, evidence, command, path.stat().st_mtime, str(path))
    ]


LAYERS.register("inference", inference, order=40)
