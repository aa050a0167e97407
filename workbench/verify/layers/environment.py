"""Environment: the last stored ``paddle-workbench check`` passed, and its tensor op gave the right result."""

from __future__ import annotations

from workbench.i18n import t
from workbench.verify.engine import newest_report, read_json, reports_dir
from workbench.verify.layers import LAYERS
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item

COMMAND = "paddle-workbench check"


def environment(ctx: Context) -> list[Item]:
    path = newest_report(reports_dir(ctx.workspace), "check-*.json")
    doc = read_json(path) if path is not None else None
    if path is None or doc is None:
        note = t("verify.evidence.no_check")
        return [
            Item("env.check", "environment", NOT_RUN, note, COMMAND),
            Item("env.tensor_op", "environment", NOT_RUN, note, COMMAND),
        ]
    checks = [c for c in doc.get("checks", []) if isinstance(c, dict)]
    when = doc.get("started") if isinstance(doc.get("started"), int | float) else None
    failed = [str(c.get("id")) for c in checks if c.get("status") == "fail"]
    env = Item(
        "env.check",
        "environment",
        FAIL if failed else PASS,
        t("verify.evidence.check_failed", ids=", ".join(failed), path=str(path))
        if failed
        else t("verify.evidence.check_ok", count=len(checks), path=str(path)),
        COMMAND,
        when=when,
        source=str(path),
    )
    tensor = next((c for c in checks if c.get("id") == "tensor_op"), None)
    if tensor is None or tensor.get("status") == "skip":
        op = Item("env.tensor_op", "environment", NOT_RUN, t("verify.evidence.no_tensor_op"), COMMAND)
    else:
        status = PASS if tensor.get("status") == "pass" else FAIL
        op = Item(
            "env.tensor_op", "environment", status, str(tensor.get("summary", "")), COMMAND, when, str(path)
        )
    return [env, op]


LAYERS.register("environment", environment, order=10)
