"""``attach``: the kits' own training logs (fixtures written from each kit's format strings) as linked runs.

Real files, a real follower thread, the real CLI in a subprocess; a test appends to a log while the
run follows it, as the kit would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.attach.follow import LogFollower
from workbench.attach.link import SOURCE_NAME, AttachError, detect_format, link_log, scan
from workbench.attach.parsers import PARSERS
from workbench.runner import attach
from workbench.runs import RunStore

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs"
TEXT_FORMATS = [name for name, parser in PARSERS.items() if parser.records is None]
"""Every registered format read line by line; each has its log, ``<name>_train.log``, in FIXTURES."""
OUTCOMES = {
    "paddleocr": ("finished", 16),
    "paddleclas": ("finished", 20),
    "paddledetection": ("failed", 61),
    "paddlex": ("finished", 8),
}
"""What the shipped fixtures end with, read by hand from the files."""


def _wait(predicate, timeout: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_silent_modules_are_none_and_every_text_format_has_its_fixture() -> None:
    assert PARSERS.silent_modules() == []
    assert [fmt for fmt in TEXT_FORMATS if not (FIXTURES / f"{fmt}_train.log").is_file()] == []


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_each_kit_log_is_recognised_and_read(fmt: str, tmp_path: Path) -> None:
    path = FIXTURES / f"{fmt}_train.log"
    assert detect_format(path) == fmt
    run_dir = link_log(RunStore(tmp_path / "ws"), path)
    report = scan(run_dir)
    assert report.format == fmt and report.last_step and report.last_step > 0
    if fmt in OUTCOMES:
        assert (report.status, report.last_step) == OUTCOMES[fmt]
    assert {"loss", "lr", "step_ms"} <= set(report.metrics)
    if fmt != "paddlex":  # PaddleX's own trainer logs no reader time: only the whole step is known
        assert {"data_wait_ms", "compute_ms", "samples_per_s"} <= set(report.metrics)


def test_values_and_the_data_wait_compute_split_follow_the_kits_units() -> None:
    line = (
        "[2024/05/20 10:12:03] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001000, loss: 7.634812, "
        "loss_shrink_maps: 4.806187, avg_reader_cost: 0.46044 s, avg_batch_cost: 1.05413 s, avg_samples: 8.0, "
        "ips: 7.58917 samples/s, eta: 3 days, 7:27:45, max_mem_reserved: 10286 MB, max_mem_allocated: 9656 MB"
    )
    values = PARSERS.get("paddleocr").parse_line(line)
    assert values is not None
    assert values["step"] == 10 and values["loss_shrink_maps"] == pytest.approx(4.806187)
    assert values["data_wait_ms"] == pytest.approx(460.44)
    assert values["compute_ms"] == pytest.approx(1054.13 - 460.44)
    assert values["eta_s"] == 3 * 86400 + 7 * 3600 + 27 * 60 + 45
    assert values["gpu_reserved_mib"] == 10286 and values["samples_per_s"] == pytest.approx(7.58917)
    clas = PARSERS.get("paddleclas").parse_line(
        "[Train][Epoch 2/120][Iter: 0/5005]lr(PiecewiseDecay): 0.10000000, CELoss: 6.91797, loss: 6.91797, "
        "batch_cost: 0.31234s, reader_cost: 0.05012, ips: 819.61 samples/s, max mem: 1.50 GB, eta: 0:01:02"
    )
    assert clas is not None and clas["step"] == 5005 + 1 and clas["lr"] == 0.1
    assert clas["gpu_peak_mib"] == 1.5 * 1024 and clas["data_wait_ms"] == pytest.approx(50.12)
    assert PARSERS.get("paddledetection").parse_line("Epoch: [0] [ 20/782] no numbers here") is None


def test_link_never_copies_and_linking_again_finds_the_same_run(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")
    source = FIXTURES / "paddleocr_train.log"
    run_dir = link_log(store, source)
    assert (run_dir / SOURCE_NAME).is_symlink()
    assert os.path.realpath(run_dir / SOURCE_NAME) == str(source.resolve())
    assert sum(p.stat().st_size for p in run_dir.iterdir() if not p.is_symlink()) < 2000
    assert link_log(store, source) == run_dir
    assert [r.run_id for r in store.list()] == [run_dir.name]


def test_bad_paths_and_formats_are_refused_with_the_choices(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")
    with pytest.raises(AttachError, match="no such file"):
        link_log(store, tmp_path / "missing.log")
    other = tmp_path / "notes.txt"
    other.write_text("just some text\n")
    with pytest.raises(AttachError, match="paddleocr, paddleclas"):
        link_log(store, other)
    with pytest.raises(AttachError, match="unknown log format 'mmdet'"):
        link_log(store, other, "mmdet")


def _grow(path: Path, lines: list[str]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
            fh.flush()


def test_a_growing_log_is_followed_live_and_a_crash_fails_the_run(tmp_path: Path) -> None:
    lines = (FIXTURES / "paddledetection_train.log").read_text().splitlines()
    first_step = next(i for i, line in enumerate(lines) if "Epoch: [0]" in line)
    log = tmp_path / "output" / "train.log"
    log.parent.mkdir()
    _grow(log, lines[: first_step + 1])
    run_dir = link_log(RunStore(tmp_path / "ws"), log)
    job = attach(run_dir)
    try:
        assert job.kind == "linked" and job.status == "running" and job.log_path == log.resolve()
        assert _wait(lambda: job.metrics.last_step.get(0) == 1)
        _grow(log, lines[first_step + 1 : first_step + 3])  # two more iterations, written by "the kit"
        assert _wait(lambda: job.metrics.last_step.get(0) == 41)
        steps, data_wait = job.metrics.series("data_wait_ms").arrays()  # type: ignore[union-attr]
        compute = job.metrics.series("compute_ms").arrays()[1]  # type: ignore[union-attr]
        assert list(steps) == [1, 21, 41] and all(d < c for d, c in zip(data_wait, compute, strict=True))
        assert job.status == "running"
        _grow(log, lines[first_step + 3 :])  # the rest: one more step, then the traceback
        assert job.wait(20)
        assert job.status == "failed"
        failure = job.result
        assert failure is not None and "ResourceExhaustedError" in failure.error  # type: ignore[attr-defined]
        assert "Traceback (most recent call last)" in failure.traceback  # type: ignore[attr-defined]
        assert job.follower.text_lines > 5  # the glog line and the traceback stay log text
    finally:
        job.detach()
    summary = RunStore(tmp_path / "ws").list()[0]
    assert (summary.status, summary.last_step, summary.kind) == ("failed", 61, "linked")


def test_a_partial_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    line = (FIXTURES / "paddleclas_train.log").read_text().splitlines()[7]
    log = tmp_path / "train.log"
    log.write_text(line[:40])
    follower = LogFollower(log, PARSERS.get("paddleclas"))
    assert follower.poll() == [] and follower.last_step is None
    _grow(log, [line[40:]])
    follower.poll()
    assert follower.last_step == 1


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PADDLE_WORKBENCH_WORKSPACE": str(cwd / "ws")}
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_cli_attach_json_and_runs_json_list_the_linked_run(tmp_path: Path) -> None:
    done = _cli("attach", str(FIXTURES / "paddleclas_train.log"), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["format"] == "paddleclas" and doc["status"] == "finished" and doc["last_step"] == 20
    assert "loss" in doc["metrics"] and Path(doc["run_dir"]).is_dir()
    listed = json.loads(_cli("runs", "--json", cwd=tmp_path).stdout)["runs"]
    assert [(r["run_dir"], r["kind"], r["last_step"], r["status"]) for r in listed] == [
        (doc["run_dir"], "linked", 20, "finished")
    ]
    bad = _cli("attach", str(tmp_path / "nope.log"), "--json", cwd=tmp_path)
    assert bad.returncode == 2 and json.loads(bad.stdout)["ok"] is False and "Traceback" not in bad.stderr


def test_cli_attach_on_a_pipe_prints_steps_until_the_crash(tmp_path: Path) -> None:
    done = _cli("attach", str(FIXTURES / "paddledetection_train.log"), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "step 61" in done.stdout and "failed" in done.stdout


def _write_vdl(logdir: Path, steps: range) -> None:
    from visualdl import LogWriter

    with LogWriter(logdir=str(logdir), file_name="vdlrecords.train.log") as writer:
        for step in steps:
            writer.add_scalar(tag="TRAIN/loss", step=step, value=1.0 / (step + 1))
            writer.add_scalar(tag="TRAIN/lr", step=step, value=0.01)
            if step % 5 == 4:
                writer.add_scalar(tag="EVAL/hmean", step=step, value=0.1 * step)


def test_visualdl_records_are_read_through_logreader_and_followed(tmp_path: Path) -> None:
    pytest.importorskip("visualdl")
    logdir = tmp_path / "output" / "vdl"
    _write_vdl(logdir, range(10))
    run_dir = link_log(RunStore(tmp_path / "ws"), logdir)  # the folder: its record file is found
    report = scan(run_dir)
    assert report.format == "visualdl" and report.last_step == 9
    assert set(report.metrics) == {"loss", "lr", "eval/hmean"}
    job = attach(run_dir)
    try:
        assert job.metrics.series("eval/hmean").arrays()[0].tolist() == [4, 9]  # type: ignore[union-attr]
        _write_vdl(logdir, range(10, 15))  # LogWriter appends to the same file, as a resumed kit would
        assert _wait(lambda: job.metrics.last_step.get(0) == 14)
        steps = job.metrics.series("loss").arrays()[0].tolist()  # type: ignore[union-attr]
        assert steps == list(range(15))  # nothing twice
    finally:
        job.detach()


def test_visualdl_records_without_the_extra_say_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "vdlrecords.1700000000.log"
    record.write_bytes(b"\x00\x01")
    monkeypatch.setitem(sys.modules, "visualdl", None)  # the optional package is not installed
    with pytest.raises(AttachError, match=r"paddle-workbench\[visualdl\]"):
        link_log(RunStore(tmp_path / "ws"), record)
