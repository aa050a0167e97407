"""The rules of the environment check: one module per area in this folder, each registering its rules.

A rule (:class:`Rule`) is a pure function from the probes' facts to a verdict, under a stable id.
Every module here adds its rules to :data:`RULES` when imported, and the engine runs what is
registered — so a new check is one new file plus its catalog strings
(``envcheck.title.<id>`` and the verdict texts) and a test::

    # workbench/envcheck/rules/my_area.py
    from workbench.envcheck.rules import RULES, Rule, Verdict

    def check_thing(facts): ...                      # -> Verdict("pass" | "warn" | "fail" | "skip", ...)

    RULES.register("my_area.thing", Rule("my_area.thing", ("environment",), check_thing), order=60)

``order`` keeps the order a user reads the report in, whatever the file names: Python (10), Paddle
(20), smoke tests (30), GPU (40), host (50); rules of one area follow each other in the order the area
lists them (:func:`register_area`). Shared helpers live in ``_base.py`` (not scanned).
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.envcheck.rules._base import Rule, Verdict
from workbench.registry import Registry

RULES: Registry[Rule] = Registry("rule", __name__)
"""Every environment rule, by id, in the order the report lists them."""


def register_area(rules: Sequence[Rule], *, order: float, module: str) -> None:
    """Register an area's rules one after another from ``order`` (``order``, ``order + 0.01``, …)."""
    for index, rule in enumerate(rules):
        RULES.register(rule.id, rule, order=order + index / 100, module=module)


def default_rules() -> tuple[Rule, ...]:
    """The rules ``check`` runs: every registered one, in report order (read at call time)."""
    return tuple(RULES.values())


__all__ = ["RULES", "Rule", "Verdict", "default_rules", "register_area"]
