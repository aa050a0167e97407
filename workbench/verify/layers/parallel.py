"""Parallel: a finished parallel run exists, and its loss tracks the baseline (a ``plan parity`` report).

``plan parity RUN_A RUN_B`` stores ``<RUN_B>/reports/parity-<time>.json`` with ``ok``,
``max_abs_diff``, ``max_rel_diff``, ``first_divergence_step`` and ``checks``; the newest such report in
the workspace is the evidence. ``tolerances.parity_loss_abs`` in ``verify.yaml`` can be stricter than the
tolerance the report was made with.
"""

from __future__ import annotations

from pathlib import Path

from workbench.i18n import t
from workbench.runs import read_run_config
from workbench.verify.engine import newest_report, read_json
from workbench.verify.layers import LAYERS
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item

RUN_COMMAND = "paddle-workbench plan run sample_configs/plan_cls_dp.yaml --nproc 2"


def parity_command(ctx: Context) -> str:
    """The comparison to run: the parallel run against a baseline comparable to it (same model, data
    and recipe — never merely the newest single-card run); without one, training that baseline."""
    from workbench.parallel.comparable import differences
    from workbench.parallel.parity import comparable_baseline

    if ctx.parallel is None:
        a = ctx.baseline.name if ctx.baseline is not None else "RUN_A"
        return f"paddle-workbench plan parity {a} RUN_B"
    baseline = ctx.baseline
    if baseline is None or not differences(baseline, ctx.parallel).ok:
        baseline = comparable_baseline(ctx.store, ctx.parallel)
    if baseline is None:
        section = read_run_config(ctx.parallel).get("parallel")
        train = section.get("train_file") if isinstance(section, dict) else None
        return f"paddle-workbench train {train or 'TRAIN.yaml'}"
    return f"paddle-workbench plan parity {baseline.name} {ctx.parallel.name}"


def newest_parity(ctx: Context) -> Path | None:
    found = [p for d in ctx.store.run_dirs() if (p := newest_report(d / "reports", "parity-*.json"))]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def parallel(ctx: Context) -> list[Item]:
    items = []
    if ctx.parallel is None:
        items.append(Item("parallel.run", "parallel", NOT_RUN, t("verify.evidence.no_parallel"), RUN_COMMAND))
    else:
        when = ctx.parallel.stat().st_mtime
        evidence = t("verify.evidence.parallel", run=ctx.parallel.name)
        items.append(Item("parallel.run", "parallel", PASS, evidence, RUN_COMMAND, when, str(ctx.parallel)))
    command = parity_command(ctx)
    path = newest_parity(ctx)
    doc = read_json(path) if path is not None else None
    if path is None or doc is None:
        items.append(Item("parallel.parity", "parallel", NOT_RUN, t("verify.evidence.no_parity"), command))
        return items
    diff = doc.get("max_abs_diff")
    limit = ctx.config.tolerances.parity_loss_abs
    within = isinstance(diff, int | float) and (limit is None or diff <= limit)
    ok = bool(doc.get("ok")) and within
    evidence = t(
        "verify.evidence.parity",
        diff="-" if diff is None else f"{diff:.3g}",
        tol=f"{limit if limit is not None else doc.get('tolerance', '-')}",
        first=str(doc.get("first_divergence_step")),
        path=str(path),
    )
    verdict = doc.get("verdict_text")
    if limit is None and isinstance(verdict, str) and verdict:  # judged by the float32 noise model
        evidence = f"{verdict} ({path})"
    if not ok and isinstance(doc.get("next"), str) and doc["next"]:
        command = doc["next"]  # what the failed comparison names to do, not the same comparison again
    items.append(
        Item(
            "parallel.parity",
            "parallel",
            PASS if ok else FAIL,
            evidence,
            command,
            path.stat().st_mtime,
            str(path),
        )
    )
    return items


LAYERS.register("parallel", parallel, order=30)
