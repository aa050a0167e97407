"""The engine never imports Textual, and never imports Paddle at module level
(docs/architecture.md, "Layers").

One child interpreter checks every engine module: for each module it forks, the fork imports that one
module and reports which of ``textual`` and ``paddle`` are then in ``sys.modules``, and exits. A dirty
import therefore never reaches the next module's check. After a clean report the parent imports the
module itself, so later forks start with it (and everything it pulled in, all clean) already loaded and
pay only for what is new. The result is the same as a fresh interpreter per module, at the cost of one.
"""

from __future__ import annotations

import json
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TypedDict

import pytest

import workbench

ROOT = Path(__file__).resolve().parents[2]

ENGINE_MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(workbench.__path__, "workbench.")
    if not name.startswith(("workbench.screens", "workbench.themes")) and name != "workbench.__main__"
)

# Runs as ``python -c CHILD OUT MODULE...`` with the checked tree's root as the working directory (so
# ``workbench`` is imported from there); writes ``{module: {"loaded": [...], "error": str | None}}``.
CHILD = r"""
import importlib, json, os, signal, sys, traceback

WATCH = ("textual", "paddle")
out, modules = sys.argv[1], sys.argv[2:]

def loaded():
    return sorted(name for name in WATCH if name in sys.modules)

results = {}
broken = "the checker itself had " + ",".join(loaded()) + " loaded at start" if loaded() else None
for module in modules:
    if broken:
        results[module] = {"loaded": [], "error": broken}
        continue
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(60)  # a fork that hangs dies and is reported, it does not stall the rest
        try:
            importlib.import_module(module)
            report = {"loaded": loaded(), "error": None}
        except BaseException:
            report = {"loaded": loaded(), "error": traceback.format_exc()}
        with os.fdopen(write, "w") as pipe:
            pipe.write(json.dumps(report))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    report = json.loads(data) if data else {"loaded": [], "error": f"the check died (wait status {status})"}
    if not report["loaded"] and report["error"] is None:
        importlib.import_module(module)
        if loaded():
            broken = f"importing {module} in the checker loaded " + ",".join(loaded())
            report["error"] = broken
    results[module] = report
with open(out, "w") as file:
    json.dump(results, file)
"""


class Report(TypedDict):
    loaded: list[str]
    error: str | None


def check_imports(root: Path, modules: list[str], out: Path) -> dict[str, Report]:
    """Import each of ``modules`` from the tree at ``root``, each starting clean; one report a module."""
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(out), *modules],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    reports: dict[str, Report] = json.loads(out.read_text(encoding="utf-8"))
    return reports


def problem(module: str, report: Report) -> str | None:
    """What is wrong with ``module``'s import, or None when it loaded neither Textual nor Paddle."""
    if report["error"] is not None:
        return f"{module} failed to import:\n{report['error']}"
    if report["loaded"]:
        return f"{module} imported {','.join(report['loaded'])}"
    return None


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    out = tmp_path_factory.mktemp("hygiene") / "reports.json"
    return check_imports(ROOT, ["workbench", *ENGINE_MODULES], out)


def test_engine_modules_are_discovered() -> None:
    for required in ("workbench.config", "workbench.events", "workbench.runner", "workbench.runs"):
        assert required in ENGINE_MODULES


@pytest.mark.parametrize("module", ["workbench", *ENGINE_MODULES])
def test_engine_module_loads_neither_textual_nor_paddle(module: str, reports: dict[str, Report]) -> None:
    assert problem(module, reports[module]) is None, problem(module, reports[module])


def test_a_planted_module_level_import_is_caught_and_does_not_leak(tmp_path: Path) -> None:
    """In a copy of the engine, ``events`` imports Textual and ``gitversion`` Paddle at module level:
    both are reported, so is a module that imports ``events``, and a module checked after them that
    imports neither stays clean (no check sees what an earlier one loaded)."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "workbench", copy / "workbench", ignore=shutil.ignore_patterns("__pycache__"))
    for name, planted in (("events", "textual"), ("gitversion", "paddle")):
        path = copy / "workbench" / f"{name}.py"
        path.write_text(path.read_text(encoding="utf-8") + f"\nimport {planted}  # noqa\n", encoding="utf-8")
    modules = ["workbench.events", "workbench.gitversion", "workbench.i18n", "workbench.runs"]
    reports = check_imports(copy, modules, tmp_path / "reports.json")
    assert reports["workbench.events"] == {"loaded": ["textual"], "error": None}
    assert reports["workbench.gitversion"]["loaded"] == ["paddle"]
    assert "textual" in reports["workbench.runs"]["loaded"]
    assert problem("workbench.runs", reports["workbench.runs"]) is not None
    assert reports["workbench.i18n"] == {"loaded": [], "error": None}


def test_cli_help_imports_neither_textual_paddle_numpy_nor_pydantic() -> None:
    """``paddle-workbench --help`` stays fast: it lists the commands without building them."""
    code = (
        "import sys\nfrom workbench.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('textual', 'paddle', 'numpy', 'pydantic', 'yaml')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Commands:" in result.stdout
    assert result.stderr.strip() == ""


def test_the_tuis_start_builds_one_command_and_imports_no_other_engine() -> None:
    """Start-up pays for the TUI only: no other command is built, and numpy, the plan, inference,
    serving and verify engines wait until a screen asks for them (docs/architecture.md, "Budgets")."""
    code = (
        "import sys, click\n"
        "from workbench.cli.root import build_cli\n"
        "root = build_cli()\n"
        "ctx = click.Context(root)\n"
        "root.get_command(ctx, 'tui')\n"
        "import workbench.screens.app\n"
        "print(sorted(root.commands))\n"
        "heavy = ('numpy', 'paddle', 'workbench.parallel', 'workbench.inference', 'workbench.serve',"
        " 'workbench.verify', 'workbench.envcheck.engine', 'workbench.metric_store')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    built, imported = result.stdout.splitlines()
    assert built == "['tui']"
    assert imported == ""
