"""Nothing the workbench writes replaces a user's file: an output path that exists is refused, exit 2,
with a message that names it — before the command does its work, and the file is left as it was."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest


def wb(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en")
    return subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["compare", "some-run", "--matrix-out"], "--matrix-out"),
        (["compare", "some-run", "--json", "--matrix-out"], "--matrix-out"),
        (["verify", "--junit"], "--junit"),
        (["verify", "--json", "--junit"], "--junit"),
    ],
    ids=["compare", "compare-json", "verify", "verify-json"],
)
def test_an_existing_output_file_is_refused_and_kept(tmp_path: Path, args: list[str], option: str) -> None:
    """Before: ``compare --matrix-out`` and ``verify --junit`` replaced the file with ``write_text``."""
    mine = tmp_path / "mine.csv"
    mine.write_text("the user's own data\n")
    result = wb(tmp_path, *args, str(mine))
    assert result.returncode == 2, result.stdout + result.stderr
    said = " ".join((result.stdout + result.stderr).split())
    assert f"{option} {mine}" in said and "already exists" in said
    assert "Traceback" not in result.stderr
    assert mine.read_text() == "the user's own data\n"


def test_a_symlink_named_as_output_is_refused_too(tmp_path: Path) -> None:
    """A link (even a dangling one) is not followed to create or replace what it points at."""
    target = tmp_path / "elsewhere.xml"
    link = tmp_path / "report.xml"
    link.symlink_to(target)
    result = wb(tmp_path, "verify", "--junit", str(link))
    assert result.returncode == 2
    assert not target.exists()


@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="the plan check builds the model")
def test_plan_export_into_a_folder_with_an_earlier_export_keeps_the_users_files(tmp_path: Path) -> None:
    """Before: ``plan export --output DIR`` replaced ``launch.sh`` (and the rest) in DIR with no word."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "launch.sh").write_text("# my edited launch script\n")
    sample = Path(__file__).resolve().parents[2] / "sample_configs" / "plan_cls_dp.yaml"
    # The plan check builds the model on demo data: a small set in tmp, never beside the sample configs.
    data = ["-o", f"data.dir={tmp_path / 'data'}", "-o", "data.demo={train: 32, val: 8, seed: 0}"]
    result = wb(tmp_path, "plan", "export", str(sample), "--output", str(out), *data)
    assert result.returncode == 2, result.stdout + result.stderr
    said = " ".join((result.stdout + result.stderr).split())
    assert str(out) in said and "launch.sh already there" in said
    assert (out / "launch.sh").read_text() == "# my edited launch script\n"
    assert sorted(p.name for p in out.iterdir()) == ["launch.sh"]  # nothing half-written beside it
