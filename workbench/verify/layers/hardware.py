"""Hardware: the compatibility matrix (``<workspace>/matrix.jsonl``) has a passing row per target device."""

from __future__ import annotations

from workbench.i18n import t
from workbench.inference.matrix import matrix_path, read_rows
from workbench.verify.layers import LAYERS
from workbench.verify.layers.inference import compare_command
from workbench.verify.model import FAIL, NOT_RUN, PASS, Context, Item


def _matches(target: str, hardware: object) -> bool:
    return isinstance(hardware, str) and hardware.lower().startswith(target.lower())


def hardware(ctx: Context) -> list[Item]:
    rows = read_rows(ctx.workspace)
    source = str(matrix_path(ctx.workspace))
    items = []
    for target in ctx.config.targets:
        command = compare_command(ctx) + ("" if target.startswith("cpu") else f"  # on a {target} machine")
        mine = [r for r in rows if _matches(target, r.get("hardware"))]
        if not mine:
            evidence = t("verify.evidence.no_matrix_row", target=target, path=source)
            items.append(Item(f"hardware.{target}", "hardware", NOT_RUN, evidence, command))
            continue
        passing = [r for r in mine if r.get("status") == "ok"]
        newest = max(mine, key=lambda r: r["time"] if isinstance(r.get("time"), int | float) else 0)
        evidence = t(
            "verify.evidence.matrix",
            target=target,
            ok=len(passing),
            rows=len(mine),
            hardware=str(newest.get("hardware")),
            paddle=str(newest.get("paddle_version")),
        )
        status = PASS if passing else FAIL
        when = newest.get("time") if isinstance(newest.get("time"), int | float) else None
        items.append(Item(f"hardware.{target}", "hardware", status, evidence, command, when, source))
    return items


LAYERS.register("hardware", hardware, order=50)
