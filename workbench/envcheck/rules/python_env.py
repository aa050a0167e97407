"""Rules about the interpreter: which Python runs the workbench, and whether it is the one with Paddle.

"Wrong venv" is the most common first-day failure: Paddle is installed in a virtual environment the shell
has not activated, or the ``paddle-workbench`` found on ``PATH`` belongs to another environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from workbench.envcheck.facts import Facts
from workbench.envcheck.rules import register_area
from workbench.envcheck.rules._base import Rule, Verdict, kv, lines, yes_no
from workbench.envcheck.wheels import parse_version
from workbench.i18n import t

# Python versions with published Paddle 3.3 wheels.
SUPPORTED_PYTHON = ((3, 9), (3, 13))


def _env_kind(py: Mapping[str, Any]) -> str:
    if py.get("venv_active"):
        return t("envcheck.python.kind.venv", prefix=py.get("prefix"))
    if py.get("is_conda"):
        return t("envcheck.python.kind.conda", env=py.get("conda_env") or py.get("prefix"))
    return t("envcheck.python.kind.system")


def check_python(facts: Facts) -> Verdict:
    py: dict[str, Any] = dict(facts.data("interpreter"))
    version = str(py.get("version", "?"))
    parsed = parse_version(version) or (0, 0)
    details = lines(
        kv("envcheck.label.executable", py.get("executable")),
        kv("envcheck.label.prefix", py.get("prefix")),
        kv("envcheck.label.base_prefix", py.get("base_prefix")),
        kv("envcheck.label.pythonpath", py.get("pythonpath")),
        kv("envcheck.label.workbench", py.get("workbench_origin")),
    )
    summary = t("envcheck.python.ok", version=version, executable=py.get("executable"), kind=_env_kind(py))
    low, high = SUPPORTED_PYTHON
    if not low <= tuple(parsed[:2]) <= high:
        return Verdict(
            "warn",
            t("envcheck.python.unsupported", version=version, low="3.9", high="3.13"),
            details,
            t("envcheck.fix.python_version"),
        )
    return Verdict("pass", summary, details)


def _same_env(a: str, b: str) -> bool:
    # Compare paths without resolving symlinks: every venv's python links to the same base binary.
    return os.path.normpath(os.path.abspath(a)) == os.path.normpath(os.path.abspath(b))


def check_venv(facts: Facts) -> Verdict:
    py: dict[str, Any] = dict(facts.data("interpreter"))
    prefix = str(py.get("prefix", ""))
    executable = str(py.get("executable", ""))
    venvs: list[dict[str, Any]] = list(py.get("nearby_venvs") or [])
    details = lines(
        kv("envcheck.label.executable", executable),
        kv("envcheck.label.virtual_env", py.get("virtual_env")),
        kv("envcheck.label.conda_prefix", py.get("conda_prefix")),
        kv("envcheck.label.workbench_script", py.get("workbench_script")),
        kv("envcheck.label.paddle_origin", py.get("paddle_origin")),
        *[t("envcheck.venv.nearby", path=v.get("path"), paddle=yes_no(v.get("has_paddle"))) for v in venvs],
    )
    if py.get("paddle_origin") is None:
        for venv in venvs:
            if venv.get("has_paddle") and not venv.get("is_current"):
                path = venv.get("path")
                return Verdict(
                    "fail",
                    t("envcheck.venv.paddle_elsewhere", venv=path, executable=executable),
                    details,
                    t("envcheck.fix.activate", venv=path),
                )
    virtual_env = py.get("virtual_env")
    if isinstance(virtual_env, str) and virtual_env and not _same_env(virtual_env, prefix):
        return Verdict(
            "warn",
            t("envcheck.venv.mismatch", venv=virtual_env, executable=executable),
            details,
            t("envcheck.fix.install_workbench_in", python=os.path.join(virtual_env, "bin", "python")),
        )
    script_python = py.get("workbench_script_python")
    if isinstance(script_python, str) and script_python and executable:
        script_env = os.path.dirname(os.path.dirname(script_python))
        if not _same_env(script_env, prefix):
            return Verdict(
                "warn",
                t("envcheck.venv.script_elsewhere", script=py.get("workbench_script"), python=script_python),
                details,
                t("envcheck.fix.use_module", executable=executable, bin=os.path.join(prefix, "bin")),
            )
    return Verdict("pass", t("envcheck.venv.ok", kind=_env_kind(py)), details)


AREA_RULES: tuple[Rule, ...] = (
    Rule("python", ("interpreter",), check_python),
    Rule("python.venv", ("interpreter",), check_venv),
)
register_area(AREA_RULES, order=10, module=__name__)
