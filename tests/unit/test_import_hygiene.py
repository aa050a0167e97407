"""The engine never imports Textual, and never imports Paddle at module level
(docs/architecture.md, "Layers")."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import workbench

ENGINE_MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(workbench.__path__, "workbench.")
    if not name.startswith(("workbench.screens", "workbench.themes")) and name != "workbench.__main__"
)


def test_engine_modules_are_discovered() -> None:
    for required in ("workbench.config", "workbench.events", "workbench.runner", "workbench.runs"):
        assert required in ENGINE_MODULES


@pytest.mark.parametrize("module", ["workbench", *ENGINE_MODULES])
def test_engine_module_loads_neither_textual_nor_paddle(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in ('textual', 'paddle') if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} imported {result.stdout.strip()}"


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
