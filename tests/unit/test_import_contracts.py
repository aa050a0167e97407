"""The layer boundary is enforced at lint time: import-linter contracts in pyproject.toml (``make lint``).

A deliberately introduced engine→UI import, in a temporary copy of the repository, breaks ``lint-imports``;
the real tree keeps every contract; and the contracts name the engine's modules and the modes folder by
pattern, so a new engine module or a new mode is checked as it lands, with no edit to pyproject.toml.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "staged.py"),
            "--root",
            str(root),
            "--",
            LINT_IMPORTS,
            "pyproject.toml",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    for folder in ("workbench", "screens", "themes"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def test_the_repository_keeps_every_contract() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout
    assert "0 broken" in result.stdout


def test_an_engine_to_ui_import_breaks_lint(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    events = copy / "workbench" / "events.py"
    events.write_text(
        events.read_text(encoding="utf-8") + "\nfrom workbench.screens import formatting  # noqa\n"
    )
    result = _lint(copy)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and "workbench.events -> workbench.screens.formatting" in result.stdout


def test_a_screen_importing_another_screen_breaks_lint(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    runs = copy / "screens" / "runs.py"
    runs.write_text(runs.read_text(encoding="utf-8") + "\nfrom workbench.screens import monitor  # noqa\n")
    result = _lint(copy)
    assert result.returncode != 0 and "BROKEN" in result.stdout


ALPHA_MODE = '''"""A mode written as one file: its registration and its screen."""

from workbench.screens.base import WorkbenchScreen
from workbench.screens.modes import MODES, ModeSpec


class AlphaScreen(WorkbenchScreen):
    pass


MODES.register("alpha", ModeSpec(factory=f"{__name__}:AlphaScreen", title="mode.alpha", help="mode.alpha.what"))
'''

BETA_MODE = '''"""Another one-file mode, reaching into the first one's screen."""

from workbench.screens.modes import MODES, ModeSpec
from workbench.screens.modes.alpha import AlphaScreen


class BetaScreen(AlphaScreen):
    pass


MODES.register("beta", ModeSpec(factory=f"{__name__}:BetaScreen", title="mode.beta", help="mode.beta.what"))
'''


def test_new_mode_files_are_under_the_contracts_without_an_edit(tmp_path: Path) -> None:
    """The contracts name the modes folder by pattern: modes dropped there are checked as they land."""
    copy = _copy(tmp_path)
    (copy / "screens" / "modes" / "alpha.py").write_text(ALPHA_MODE, encoding="utf-8")
    (copy / "screens" / "modes" / "beta.py").write_text(BETA_MODE, encoding="utf-8")
    result = _lint(copy)
    assert result.returncode != 0 and "BROKEN" in result.stdout
    assert "workbench.screens.modes.beta -> workbench.screens.modes.alpha" in result.stdout


def _independence() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "independence"]
    modules: list[str] = contract["modules"]
    return modules


def test_every_mode_screen_is_under_the_independence_contract() -> None:
    """Each mode's screen lives in the modes folder (covered by the pattern) or is named in the contract."""
    from workbench.screens.modes import MODES

    modules = _independence()
    assert "workbench.screens.modes.*" in modules
    for name, spec in MODES.items():
        screen_module = spec.factory.partition(":")[0]
        assert screen_module.startswith("workbench.screens.modes.") or screen_module in modules, name


def test_a_new_engine_module_is_under_the_engine_contract_without_an_edit(tmp_path: Path) -> None:
    """The engine contract names its modules by pattern: a module added to the engine is checked as it lands."""
    copy = _copy(tmp_path)
    (copy / "workbench" / "brand_new.py").write_text("import textual  # noqa: F401\n", encoding="utf-8")
    result = _lint(copy)
    assert result.returncode != 0
    assert "workbench.brand_new is not allowed to import textual" in result.stdout
