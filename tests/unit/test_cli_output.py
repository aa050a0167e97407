"""The command line's output edges: a reader that goes away, usage errors under ``--json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli.output import ClosedPipeGuard


def test_a_closed_pipe_silences_the_stream_instead_of_raising() -> None:
    read_fd, write_fd = os.pipe()
    stream = open(write_fd, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    guard = ClosedPipeGuard(stream)
    guard.write("first line\n")
    guard.flush()
    assert os.read(read_fd, 100) == b"first line\n"
    os.close(read_fd)  # the reader goes away (`| head` exited)
    guard.write("x" * 100_000)
    guard.flush()  # no BrokenPipeError
    assert guard.reader_gone and not guard.isatty()
    guard.write("more\n")  # silently dropped
    os.write(write_fd, b"a C-level write\n")  # the fd points at /dev/null now: no EPIPE either
    stream.close()


def test_divert_and_retarget_send_text_elsewhere(tmp_path: Path) -> None:
    first = open(tmp_path / "first.txt", "w", encoding="utf-8")  # noqa: SIM115
    second = open(tmp_path / "second.txt", "w", encoding="utf-8")  # noqa: SIM115
    guard = ClosedPipeGuard(first)
    with guard.retarget(second):
        guard.write("to the terminal\n")
    guard.write("back\n")
    kept: list[str] = []
    guard.divert(kept.append)
    guard.write("to the run log\n")
    guard.flush()
    first.close()
    second.close()
    assert (tmp_path / "second.txt").read_text() == "to the terminal\n"
    assert (tmp_path / "first.txt").read_text() == "back\n"
    assert kept == ["to the run log\n"]


def test_other_write_errors_still_raise(tmp_path: Path) -> None:
    stream = open(tmp_path / "f.txt", "w", encoding="utf-8")  # noqa: SIM115
    stream.close()
    guard = ClosedPipeGuard(stream)
    with pytest.raises(ValueError):
        guard.write("closed file: a bug, not a reader that left\n")


@pytest.mark.parametrize(
    "args",
    [["--workspace", "{file}", "runs", "--json"], ["runs", "--json", "--workspace", "{file}"]],
    ids=["global-option", "after-the-command"],
)
def test_usage_errors_under_json_are_a_json_document(tmp_path: Path, args: list[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    env = dict(os.environ, PADDLE_WORKBENCH_LANG="en")
    result = subprocess.run(
        [sys.executable, "-m", "workbench", *(a.format(file=afile) for a in args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    document = json.loads(result.stdout)  # one JSON document, not click's usage text
    assert document["ok"] is False and document["status"] == "invalid"
    assert document["errors"][0]["message"] and "Usage:" not in result.stdout
    assert "Traceback" not in result.stderr and "error:" in result.stderr
