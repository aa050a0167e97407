"""What a rule is: a pure function from :class:`Facts` to one :class:`Verdict`, with a stable id.

Rules never run anything; they read facts. The engine calls :meth:`Rule.check`, which turns the verdict
into a :class:`Finding`, answers for the rule when its main probe timed out or crashed (``fail``) or
never started before the check's time budget ran out (``skip``) — so every rule need not repeat that —
and turns a bug in a rule into a ``fail`` finding instead of a crash.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from workbench.envcheck.facts import Facts, Finding, Status
from workbench.envcheck.isolate import format_seconds
from workbench.envcheck.wheels import DEFAULT_PADDLE_VERSION, GPU_DIST, parse_version
from workbench.i18n import t


@dataclass(frozen=True)
class Verdict:
    """A rule's conclusion before it is labelled with the rule's id and evidence."""

    status: Status
    summary: str
    details: str = ""
    fix: str = ""


@dataclass(frozen=True)
class Rule:
    """A check: ``needs[0]`` is its main probe; every probe in ``needs`` must have reported first.

    ``failure_fix_key`` names the catalog entry shown as the fix when the main probe itself failed or
    timed out (for instance "the driver does not respond" for a hung ``nvidia-smi``).
    """

    id: str
    needs: tuple[str, ...]
    evaluate: Callable[[Facts], Verdict]
    failure_fix_key: str = "envcheck.fix.probe_failed"

    @property
    def title(self) -> str:
        return rule_title(self.id)

    def check(self, facts: Facts) -> Finding:
        """Evaluate against ``facts``; never raises."""
        main = facts.get(self.needs[0]) if self.needs else None
        if main is not None and main.not_run:
            budget = main.timeout_s or 0.0
            return self._finding(
                Verdict(
                    "skip",
                    t("envcheck.probe_not_run", probe=main.name, seconds=format_seconds(budget)),
                    details=main.error or "",
                    fix=t("envcheck.fix.not_run", seconds=format_seconds(max(2 * budget, 60.0))),
                )
            )
        if main is not None and main.timed_out:
            seconds = format_seconds(main.timeout_s or 0.0)
            return self._finding(
                Verdict(
                    "fail",
                    t("envcheck.probe_timed_out", probe=main.name, seconds=seconds),
                    details=main.error or "",
                    fix=t(self.failure_fix_key, probe=main.name),
                )
            )
        if main is not None and main.error is not None:
            first, _, rest = main.error.partition("\n")
            return self._finding(
                Verdict(
                    "fail",
                    t("envcheck.probe_failed", probe=main.name, error=first),
                    details=rest,
                    fix=t(self.failure_fix_key, probe=main.name),
                )
            )
        try:
            verdict = self.evaluate(facts)
        except Exception as exc:  # a bug in a rule must not take the workbench down
            return self._finding(
                Verdict(
                    "fail",
                    t("envcheck.rule_crashed", rule=self.id, error=f"{type(exc).__name__}: {exc}"),
                    details=traceback.format_exc(limit=4),
                    fix=t("envcheck.fix.rule_crashed"),
                )
            )
        return self._finding(verdict)

    def _finding(self, verdict: Verdict) -> Finding:
        return Finding(self.id, verdict.status, verdict.summary, verdict.details, verdict.fix, self.needs)


# --------------------------------------------------------------------------- helpers shared by rules


def rule_title(rule_id: str) -> str:
    """The translated title of a rule; its id when the catalog has none (rules added by tests)."""
    key = f"envcheck.title.{rule_id}"
    title = t(key)
    return rule_id if title == key else title


def lines(*items: str | None) -> str:
    """Join the non-empty items one per line (details texts are built this way)."""
    return "\n".join(item for item in items if item)


def kv(label_key: str, value: Any) -> str:
    """``"Label: value"`` with a translated label; ``—`` for missing values."""
    shown = t("common.none") if value is None or value == "" else value
    return f"{t(label_key)}: {shown}"


def yes_no(value: object) -> str:
    return t("envcheck.yes") if value else t("envcheck.no")


def gib(n_bytes: float | None) -> str:
    return "?" if n_bytes is None else f"{n_bytes / 2**30:.1f} GiB"


def installed_version(facts: Facts) -> str:
    """The Paddle version to name in a fix: the imported one, the installed one, else the default."""
    imported = facts.value("paddle", "version")
    if parse_version(imported):
        return str(imported)
    for dist in facts.value("interpreter", "paddle_distributions", []):
        if parse_version(dist.get("version")):
            return str(dist["version"])
    static = facts.value("interpreter", "paddle_static_version", {})
    if parse_version(static.get("full_version")):
        return str(static["full_version"])
    return DEFAULT_PADDLE_VERSION


def build_kind(facts: Facts) -> tuple[str | None, tuple[int, ...] | None]:
    """``("cuda", (12, 6))``, ``("rocm", None)``, ``("xpu", None)``, ``("cpu", None)`` or ``(None, None)``.

    From the imported Paddle when it imports, else from ``paddle/version/__init__.py`` read as text,
    else from the installed distribution's name (``paddlepaddle-gpu`` is a CUDA build).
    """
    paddle: Mapping[str, Any] = facts.data("paddle")
    if paddle.get("import_ok"):
        compiled = paddle.get("compiled_with") or {}
        if compiled.get("rocm"):
            return "rocm", parse_version(paddle.get("hip"))
        if compiled.get("cuda"):
            return "cuda", parse_version(paddle.get("cuda"))
        if compiled.get("xpu"):
            return "xpu", None
        if compiled.get("cuda") is False:
            return "cpu", None
    static = facts.value("interpreter", "paddle_static_version", {})
    if static:
        cuda = parse_version(static.get("cuda_version"))
        if cuda:
            return "cuda", cuda
        if parse_version(static.get("hip_version")):
            return "rocm", parse_version(static.get("hip_version"))
        if parse_version(static.get("xpu_xre_version")):
            return "xpu", None
        return "cpu", None
    names = {d.get("name") for d in facts.value("interpreter", "paddle_distributions", [])}
    if GPU_DIST in names:
        return "cuda", None
    if names:
        return "cpu", None
    return None, None


def driver_gpus(facts: Facts) -> list[Mapping[str, Any]]:
    return list(facts.value("driver", "gpus", []))


def driver_cuda(facts: Facts) -> tuple[int, ...] | None:
    return parse_version(facts.value("driver", "cuda_driver_version"))
