"""Rules over the smoke tests: the stages of ``paddle.utils.run_check()`` and the tutorial's tensor op.

Each stage ran in its own child, so a stage that hangs or crashes is reported on its own line while
the others still say what works. When ``import paddle`` itself fails, the stages are ``skip`` (one
root cause, reported once by ``paddle.import``), not three more failures.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from workbench.envcheck.facts import Facts
from workbench.envcheck.rules import register_area
from workbench.envcheck.rules._base import Rule, Verdict
from workbench.envcheck.rules.paddle_install import reinstall_command
from workbench.i18n import t


def _stage_fix(error: str, facts: Facts) -> str:
    if re.search(r"cuda|cudnn|cublas|gpu", error, re.IGNORECASE):
        return t("envcheck.fix.stage_gpu")
    if re.search(r"nccl|gloo|spawn", error, re.IGNORECASE):
        return t("envcheck.fix.stage_parallel")
    return t("envcheck.fix.stage", command=reinstall_command(facts))


def _import_failed(facts: Facts, stage: Mapping[str, Any]) -> bool:
    paddle = facts.get("paddle")
    paddle_broken = paddle is not None and paddle.ok and not paddle.data.get("import_ok")
    return bool(stage.get("import_failed")) or paddle_broken


def _stage_rule(probe: str, stage_key: str) -> Callable[[Facts], Verdict]:
    def check(facts: Facts) -> Verdict:
        data = facts.data(probe)
        stage = t(f"envcheck.stage.{stage_key}")
        if _import_failed(facts, data):
            return Verdict("skip", t("envcheck.stage.skipped_import", stage=stage))
        if data.get("skipped"):
            reason = t(
                f"envcheck.stage.reason.{data.get('reason', 'one_device')}", count=data.get("device_count")
            )
            return Verdict("skip", t("envcheck.stage.skipped", stage=stage, reason=reason))
        if data.get("ok"):
            count = data.get("device_count") or 1
            return Verdict(
                "pass",
                t(
                    "envcheck.stage.ok",
                    stage=stage,
                    device=data.get("device"),
                    count=count,
                    seconds=data.get("seconds"),
                ),
            )
        error = str(data.get("error") or "?")
        return Verdict(
            "fail",
            t("envcheck.stage.failed", stage=stage, error=error),
            str(data.get("traceback") or ""),
            _stage_fix(error, facts),
        )

    check.__name__ = f"check_{stage_key}"
    return check


def check_tensor_op(facts: Facts) -> Verdict:
    data = facts.data("tensor_op")
    if _import_failed(facts, data):
        return Verdict("skip", t("envcheck.tensor_op.skipped"))
    if data.get("ok"):
        return Verdict("pass", t("envcheck.tensor_op.ok", result=data.get("result"), place=data.get("place")))
    if "result" in data:
        return Verdict(
            "fail",
            t("envcheck.tensor_op.wrong", result=data.get("result")),
            "",
            t("envcheck.fix.reinstall", command=reinstall_command(facts)),
        )
    error = str(data.get("error") or "?")
    return Verdict(
        "fail",
        t("envcheck.tensor_op.failed", error=error),
        str(data.get("traceback") or ""),
        _stage_fix(error, facts),
    )


AREA_RULES: tuple[Rule, ...] = (
    Rule("tensor_op", ("tensor_op", "paddle"), check_tensor_op, "envcheck.fix.paddle_probe_failed"),
    Rule("run_check.static", ("run_check.static", "paddle"), _stage_rule("run_check.static", "static"), "envcheck.fix.paddle_probe_failed"),
    Rule("run_check.dygraph", ("run_check.dygraph", "paddle"), _stage_rule("run_check.dygraph", "dygraph"), "envcheck.fix.paddle_probe_failed"),
    Rule("run_check.parallel", ("run_check.parallel", "paddle"), _stage_rule("run_check.parallel", "parallel"), "envcheck.fix.stage_parallel"),
)  # fmt: skip
register_area(AREA_RULES, order=30, module=__name__)
