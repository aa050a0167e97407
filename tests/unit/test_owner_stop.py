"""When a job's owner is gone, every rank's supervisor asks for one stop step (runner.supervise)."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.runner.supervise import StopRequest, stop_every_rank, write_stop_step


def _progress(run_dir: Path, rank: int, step: int) -> None:
    folder = run_dir / "ranks" / str(rank)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "progress").write_text(f"{step:>10} forward   \n", encoding="utf-8")


def test_the_ranks_stop_two_steps_past_the_furthest_rank(tmp_path: Path) -> None:
    _progress(tmp_path, 0, 12)
    _progress(tmp_path, 1, 13)
    assert stop_every_rank(tmp_path) == 15
    assert StopRequest(tmp_path).step() == 15
    assert sorted(p.name for p in (tmp_path / "ranks").iterdir()) == ["0", "1", "stop"]  # no temp file left


def test_the_first_supervisor_s_step_stands_for_every_rank(tmp_path: Path) -> None:
    _progress(tmp_path, 0, 12)
    assert stop_every_rank(tmp_path) == 14
    _progress(tmp_path, 1, 20)  # the second supervisor looks later: its own step would differ
    assert stop_every_rank(tmp_path) == 14
    assert json.loads((tmp_path / "ranks" / "stop").read_text())["step"] == 14


def test_a_stop_the_owner_asked_for_before_it_died_stands(tmp_path: Path) -> None:
    _progress(tmp_path, 0, 30)
    write_stop_step(tmp_path, 33)
    assert stop_every_rank(tmp_path) == 33


def test_a_run_folder_that_cannot_be_written_is_reported(tmp_path: Path) -> None:
    assert stop_every_rank(tmp_path / "gone") is None
