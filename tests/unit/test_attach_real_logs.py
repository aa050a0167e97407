"""``attach`` on logs PaddleOCR itself wrote (tests/fixtures/kit_logs/real/README.md names their sources).

PaddleOCR prints ``best metric, …`` after every evaluation and once more when training is over: a
followed log must stay running through every evaluation, reach the log's real last step, chart the
evaluations as ``eval/*`` metrics, and be finished only by the line that ends training.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from click.testing import CliRunner

from workbench.attach.follow import LogFollower
from workbench.attach.link import link_log, scan
from workbench.attach.parsers import PARSERS
from workbench.cli.root import build_cli
from workbench.runner import attach
from workbench.runs import RunStore
from workbench.screens.widgets.chart_grid import group_metrics

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs" / "real"
EVERY_200 = REAL / "paddleocr_rec_eval_every_200.log"
LAST_EPOCH = REAL / "paddleocr_rec_last_epoch_tail.log"
FINISHED = REAL / "paddleocr_det_end_of_training.log"
LONG_AGO = 3 * 3600.0
"""How old a log's last write is made: its writer is long gone (the follower's stale limit is 600 s)."""


def _wait(predicate, timeout: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _append(path: Path, lines: list[str]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.writelines(line + "\n" for line in lines)


def _cli_attach(workspace: Path, log: Path) -> dict[str, object]:
    result = CliRunner().invoke(build_cli(), ["--workspace", str(workspace), "attach", str(log), "--json"])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.output)
    return doc


def _steps(job_or_follower: object, name: str) -> list[int]:
    series = job_or_follower.metrics.series(name)  # type: ignore[attr-defined]
    return [] if series is None else [int(s) for s in series.arrays()[0]]


def test_a_real_log_is_followed_through_its_evaluations_to_its_last_step(tmp_path: Path) -> None:
    lines = EVERY_200.read_text(encoding="utf-8").splitlines()
    first_best = next(i for i, line in enumerate(lines) if "best metric, " in line)
    log = tmp_path / "output" / "train.log"
    log.parent.mkdir()
    _append(log, lines[: first_best + 1])  # the kit has just printed its first evaluation (step 200)
    workspace = tmp_path / "ws"
    job = attach(link_log(RunStore(workspace), log))
    try:
        assert _wait(lambda: _steps(job, "eval/acc") == [200])
        assert job.status == "running" and not job.done  # an evaluation is not the end of training
        assert job.total_steps == 5 * 1086  # epoch_num and "train dataloader has 1086 iters" in the head
        _append(log, lines[first_best + 1 :])  # the kit goes on: 43 more iterations, two evaluations
        assert _wait(lambda: job.metrics.last_step.get(0) == 630)
        assert job.status == "running" and not job.done
        assert _steps(job, "eval/acc") == [200, 400, 600]
        acc = job.metrics.series("eval/acc").arrays()[1].tolist()  # type: ignore[union-attr]
        assert acc == [0.29159999941680004, 0.400999999198, 0.5101999989796]
        assert _steps(job, "eval/norm_edit_dis") == [200, 400, 600]
        assert len(_steps(job, "loss")) == 63  # every iteration line, steps 10..630
    finally:
        job.detach()
    # The writer is gone (the file stopped growing long ago): the CLI says interrupted, never finished.
    old = time.time() - LONG_AGO
    os.utime(log, (old, old))
    doc = _cli_attach(workspace, log)
    assert (doc["status"], doc["last_step"]) == ("interrupted", 630)
    assert {"eval/acc", "eval/norm_edit_dis", "eval/fps"} <= set(doc["metrics"])  # type: ignore[arg-type]
    charts = {group.key for group in group_metrics(doc["metrics"])}  # type: ignore[arg-type]
    assert {"eval/acc", "eval/norm_edit_dis"} <= charts  # the monitor draws each evaluation metric


def test_evaluations_inside_the_last_epoch_do_not_end_the_run(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    shutil.copyfile(LAST_EPOCH, log)
    old = time.time() - LONG_AGO
    os.utime(log, (old, old))
    report = scan(link_log(RunStore(tmp_path / "ws"), log))
    assert (report.status, report.last_step) == ("interrupted", 5040)  # the file's last line
    follower = LogFollower(log, PARSERS.get("paddleocr"))
    follower.poll()
    assert follower.epoch == follower.epochs == 5 and not follower.finished
    assert _steps(follower, "eval/acc") == [4600, 4800, 5000]


def test_the_line_that_ends_training_finishes_the_run(tmp_path: Path) -> None:
    doc = _cli_attach(tmp_path / "ws", FINISHED)
    assert (doc["status"], doc["last_step"]) == ("finished", 100000)
    assert {"eval/hmean", "eval/precision", "eval/recall"} <= set(doc["metrics"])  # type: ignore[arg-type]
    lines = FINISHED.read_text(encoding="utf-8").splitlines()
    evaluation_best = next(i for i, line in enumerate(lines) if "best metric, " in line)
    cut = tmp_path / "cut.log"
    _append(cut, lines[: evaluation_best + 1])  # up to the evaluation at the last step: not yet over
    follower = LogFollower(cut, PARSERS.get("paddleocr"))
    follower.poll()
    assert follower.last_step == 100000 and not follower.finished
    assert _steps(follower, "eval/hmean") == [100000]
    _append(cut, lines[evaluation_best + 1 :])  # exports, saves, then the unpaired "best metric"
    follower.poll()
    assert follower.finished


def test_the_2021_format_is_read_and_its_ending_found(tmp_path: Path) -> None:
    report = scan(link_log(RunStore(tmp_path / "ws"), REAL / "paddleocr_2021_rec_end.log"))
    assert (report.format, report.status, report.last_step) == ("paddleocr", "finished", 1999)
    assert {"loss", "acc", "norm_edit_dis", "data_wait_ms", "step_ms"} <= set(report.metrics)
    assert "samples" not in report.metrics  # a count of samples, not a metric


def test_the_run_size_is_read_from_the_head_when_only_the_tail_is_scanned() -> None:
    head = EVERY_200.read_text(encoding="utf-8").splitlines()[:130]
    follower = LogFollower(EVERY_200, PARSERS.get("paddleocr"))
    follower.learn_facts(head)
    assert (follower.epochs, follower.iters, follower.total_steps) == (5, 1086, 5430)


def test_paddlex_evaluations_become_eval_metrics(tmp_path: Path) -> None:
    report = scan(link_log(RunStore(tmp_path / "ws"), REAL.parent / "paddlex_train.log"))
    assert {"eval/acc1", "eval/acc5"} <= set(report.metrics)
