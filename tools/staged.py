"""Run a checker over the package as it installs: ``screens/`` and ``themes/`` inside ``workbench/``.

The repository keeps the UI in top-level folders that install as ``workbench.screens`` and
``workbench.themes`` (``package-dir`` in pyproject.toml). mypy and import-linter read packages from the
file system and do not follow setuptools' editable-install hooks, so they would not see the UI under its
real name. This copies the three folders into a temporary tree laid out like site-packages, runs the
command there, and maps file names in its output back to the repository.

    python tools/staged.py [--root DIR] -- mypy --config-file pyproject.toml
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LAYOUT = {"workbench": "workbench", "screens": "workbench/screens", "themes": "workbench/themes"}
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc")


def stage(root: Path, into: Path) -> None:
    """Copy the repository's package folders into ``into`` in their installed layout."""
    for source, target in LAYOUT.items():
        shutil.copytree(root / source, into / target, ignore=IGNORE, dirs_exist_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="repository to check (default: here)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = [part for part in args.command if part != "--"]
    root = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="wb-staged-") as tmp:
        stage(root, Path(tmp))
        command = [
            str(root / part) if part.endswith(("pyproject.toml", ".ini", ".cfg")) else part
            for part in command
        ]
        env = dict(os.environ, PYTHONPATH=tmp, MYPY_CACHE_DIR=str(root / ".mypy_cache"))
        result = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True)
    output = result.stdout + result.stderr
    for source, target in sorted(LAYOUT.items(), key=lambda item: -len(item[1])):
        if source != target:
            output = output.replace(f"{target}/", f"{source}/")
    sys.stdout.write(output)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
