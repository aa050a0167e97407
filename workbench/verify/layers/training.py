"""Training: a baseline exists — pinned, or chosen by the rule in :mod:`workbench.baseline`."""

from __future__ import annotations

from workbench.baseline import is_pinned
from workbench.i18n import t
from workbench.runs import summarize
from workbench.verify.layers import LAYERS
from workbench.verify.model import NOT_RUN, PASS, Context, Item

COMMAND = "paddle-workbench train sample_configs/train_cls_demo.yaml"


def training(ctx: Context) -> list[Item]:
    if ctx.baseline is None:
        return [Item("training.baseline", "training", NOT_RUN, t("verify.evidence.no_baseline"), COMMAND)]
    summary = summarize(ctx.baseline)
    evidence = t("verify.evidence.baseline", run=ctx.baseline.name, step=str(summary.last_step))
    if is_pinned(ctx.store, ctx.baseline):
        evidence += " " + t("baseline.pinned_note")
    return [
        Item("training.baseline", "training", PASS, evidence, COMMAND, summary.started, str(ctx.baseline))
    ]


LAYERS.register("training", training, order=20)
