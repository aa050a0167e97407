"""The monitor's engine parts: progress bar, ETA on an active clock, and a growing log read in steps."""

from __future__ import annotations

from pathlib import Path

from workbench.logtail import LogTail
from workbench.progress import EtaClock, format_eta, progress_bar


def test_progress_and_eta_formatting() -> None:
    assert progress_bar(50, 100, cells=10) == "█████░░░░░"
    assert progress_bar(500, 100, cells=4) == "████"
    assert progress_bar(5, 0, cells=3) == "░░░"
    assert format_eta(59) == "0:59" and format_eta(3725) == "1:02:05" and format_eta(-3) == "0:00"


def test_eta_excludes_paused_time() -> None:
    clock = EtaClock()
    for second in range(11):  # 1 step per second
        clock.observe(float(second), second, paused=False)
    before = clock.remaining_s(10, 100)
    assert before is not None and abs(before - 90) < 1e-6
    for second in range(11, 200):  # paused for ~3 minutes
        clock.observe(float(second), 10, paused=True)
    assert clock.remaining_s(10, 100) == before  # stands still while paused
    clock.observe(200.0, 10, paused=False)
    clock.observe(201.0, 11, paused=False)
    after = clock.remaining_s(11, 100)
    assert after is not None and abs(after - 89) < 1e-6  # same speed: no jump after resume


def test_eta_needs_two_steps_and_forgets_on_clear() -> None:
    clock = EtaClock()
    clock.observe(0.0, 1, paused=False)
    assert clock.remaining_s(1, 10) is None
    clock.observe(1.0, 2, paused=False)
    assert clock.remaining_s(2, 10) == 8.0
    clock.clear()
    assert clock.remaining_s(2, 10) is None


def test_log_tail_returns_whole_lines_and_keeps_a_split_character(tmp_path: Path) -> None:
    log = tmp_path / "logs.txt"
    text = "第一行 ok\n第二行 done\n".encode()
    split = text.index("第二".encode()) + 1  # in the middle of a 3-byte character
    log.write_bytes(text[:split])
    tail = LogTail(log)
    assert tail.read() == "第一行 ok\n"
    assert tail.read() == ""  # nothing new
    with open(log, "ab") as fh:
        fh.write(text[split:])
    assert tail.read() == "第二行 done\n"


def test_log_tail_of_a_missing_file_is_empty_until_it_appears(tmp_path: Path) -> None:
    log = tmp_path / "logs.txt"
    tail = LogTail(log)
    assert tail.read() == ""
    log.write_text("started\n", encoding="utf-8")
    assert tail.read() == "started\n"


def test_log_tail_skips_ahead_to_the_newest_output_past_its_limit(tmp_path: Path) -> None:
    log = tmp_path / "logs.txt"
    log.write_text("old partial line without end", encoding="utf-8")
    tail = LogTail(log, limit=32)
    assert tail.read() == ""  # no whole line yet
    with open(log, "a", encoding="utf-8") as fh:
        fh.write("".join(f"line {i}\n" for i in range(100)))
    got = tail.read()
    assert got.endswith("line 99\n") and "old partial" not in got
    assert len(got.encode()) <= 32


def test_estimate_text_is_the_one_text_of_cli_and_editor() -> None:
    from workbench.parallel.estimate import Estimate, estimate_text

    est = Estimate(
        ranks=2, param_bytes=1024, grad_bytes=1024, optimizer_bytes=2048, activation_bytes=0,
        comm_bytes=3 * 1024**2, comm_count=4, baseline_bytes=8192,
    )  # fmt: skip
    memory, comm = estimate_text(est).split("\n")
    assert "1.0 KiB" in memory and "4.0 KiB" in memory and "8.0 KiB" in memory
    assert "3.0 MiB" in comm and "4" in comm
