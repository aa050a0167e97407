"""The layer boundary is enforced at lint time: import-linter contracts in pyproject.toml (``make lint``).

A deliberately introduced engine→UI import, in a temporary copy of the repository, breaks ``lint-imports``;
the real tree keeps every contract; and the engine contract names every top-level engine module, so a new
module cannot slip past it.
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


def test_the_engine_contract_names_every_engine_module() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = config["tool"]["importlinter"]["contracts"][0]
    engine = {
        f"workbench.{path.stem}"
        for path in (ROOT / "workbench").iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists()) and not path.name.startswith("__")
    }
    missing = sorted(engine - set(contract["source_modules"]))
    assert not missing, (
        f"add {missing} to the first [[tool.importlinter.contracts]] source_modules in pyproject.toml"
    )
    assert set(contract["source_modules"]) <= engine
