"""The rules of the environment check, in the order a user reads them: Python, Paddle, smoke tests, GPU,
host. Each module holds the rules of one area; :data:`DEFAULT_RULES` is the list the engine runs.
"""

from __future__ import annotations

from workbench.envcheck.rules import gpu, paddle_install, python_env, smoke, system
from workbench.envcheck.rules.base import Rule, Verdict

DEFAULT_RULES: tuple[Rule, ...] = (
    *python_env.RULES,
    *paddle_install.RULES,
    *smoke.RULES,
    *gpu.RULES,
    *system.RULES,
)

RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in DEFAULT_RULES}

__all__ = ["DEFAULT_RULES", "RULES_BY_ID", "Rule", "Verdict"]
