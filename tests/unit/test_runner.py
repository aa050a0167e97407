"""The runner: in-process and launched jobs give the same event stream; failures are events."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workbench.events import AlertRaised, RunCancelled, RunFailed, RunFinished
from workbench.runner import JobContext, attach, start_in_process, start_launched
from workbench.runs import RunStore


def _events(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]


def test_in_process_job_streams_metrics_and_finishes(store: RunStore) -> None:
    def job(ctx: JobContext) -> dict[str, float]:
        for step in range(1, 11):
            ctx.log(step, loss=1.0 / step)
        print("hello from the job")
        return {"final": 0.1}

    handle = start_in_process(store, "ok", job, config={"a": 1})
    assert handle.wait(30)
    assert isinstance(handle.result, RunFinished) and handle.result.summary == {"final": 0.1}
    assert [e.TYPE for e in handle.events()] == ["run_started", "run_finished"]
    rows = _events(handle.run_dir)
    assert [r["step"] for r in rows if r["type"] == "metrics"] == list(range(1, 11))
    assert "hello from the job" in (handle.run_dir / "logs.txt").read_text()
    assert store.list()[0].status == "finished"


def test_a_raising_job_is_a_failed_run_with_every_event_kept(store: RunStore) -> None:
    def job(ctx: JobContext) -> None:
        for step in range(1, 8):
            ctx.log(step, loss=float(step))
        ctx.emit(AlertRaised(kind="test", message="before the crash", step=7))
        raise ValueError("boom at step 7")

    handle = start_in_process(store, "bad", job)
    assert handle.wait(30)
    result = handle.result
    assert isinstance(result, RunFailed)
    assert result.error == "ValueError: boom at step 7"
    assert "Traceback" in result.traceback and "boom at step 7" in result.traceback
    rows = _events(handle.run_dir)
    assert [r["step"] for r in rows if r["type"] == "metrics"] == list(range(1, 8))
    assert [r["type"] for r in rows if r["type"] != "metrics"] == [
        "run_started",
        "alert_raised",
        "run_failed",
    ]
    assert store.list()[0].status == "failed"
    assert "boom at step 7" in (handle.run_dir / "logs.txt").read_text()


def test_cancel_stops_after_the_current_step(store: RunStore) -> None:
    def job(ctx: JobContext) -> None:
        step = 0
        while True:
            step += 1
            ctx.check_cancelled()
            ctx.log(step, loss=1.0)
            time.sleep(0.01)

    handle = start_in_process(store, "endless", job)
    time.sleep(0.2)
    handle.cancel()
    assert handle.wait(10)
    assert isinstance(handle.result, RunCancelled)
    assert store.list()[0].status == "cancelled"


def test_async_iteration_yields_the_same_events(store: RunStore) -> None:
    handle = start_in_process(store, "async", lambda ctx: ctx.log(1, loss=1.0))

    async def collect() -> list[str]:
        return [event.TYPE async for event in handle.aevents()]

    assert asyncio.run(collect()) == ["run_started", "run_finished"]


CHILD = textwrap.dedent(
    """
    import os, sys, time
    from workbench.runner.child import run_as_child
    from workbench.events import AlertRaised

    def main(ctx):
        mode = sys.argv[1]
        for step in range(1, 6):
            ctx.log(step, loss=1.0 / step)
        ctx.emit(AlertRaised(kind="note", message="rank alert", step=5, rank=ctx.rank))
        print("child stdout line", flush=True)
        if mode == "raise":
            raise RuntimeError("child exploded")
        if mode == "segv":
            ctx._writer.flush()
            import ctypes
            ctypes.string_at(0)
        if mode == "hang":
            ctx._writer.flush()
            time.sleep(600)
        return {"done": True}

    sys.exit(run_as_child(main))
    """
)


@pytest.mark.parametrize(
    ("mode", "status", "error_part"),
    [
        ("ok", "run_finished", ""),
        ("raise", "run_failed", "RuntimeError: child exploded"),
        ("segv", "run_failed", "SIGSEGV"),
        ("hang", "run_failed", "timed out after 3 s"),
    ],
)
def test_launched_job_reports_every_outcome(
    store: RunStore, tmp_path: Path, subprocess_env: dict[str, str], mode: str, status: str, error_part: str
) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    job = start_launched(
        store, f"child-{mode}", [sys.executable, str(script), mode], env=subprocess_env, timeout_s=3
    )
    assert job.wait(60)
    result = job.result
    assert result is not None and status == result.TYPE
    if error_part:
        assert isinstance(result, RunFailed) and error_part in result.error
    # The child's metrics and its lifecycle events reached the parent's stream.
    assert job.metrics.last_step == {0: 5}
    assert any(isinstance(e, AlertRaised) and e.message == "rank alert" for e in job.lifecycle)
    assert "child stdout line" in (job.run_dir / "logs.txt").read_text()
    assert (job.run_dir / "ranks" / "0" / "events.jsonl").exists()
    assert store.list()[0].status == {"run_finished": "finished", "run_failed": "failed"}[status]


def test_attach_follows_a_run_written_by_another_process(store: RunStore, tmp_path: Path) -> None:
    writer = tmp_path / "writer.py"
    writer.write_text(
        textwrap.dedent(
            f"""
            import time
            from workbench.runs import RunStore
            from workbench.runner import start_in_process

            def job(ctx):
                for step in range(1, 21):
                    ctx.log(step, loss=1.0 / step)
                    time.sleep(0.05)

            handle = start_in_process(RunStore({str(store.workspace)!r}), "external", job)
            print(handle.run_dir, flush=True)
            handle.wait(60)
            """
        )
    )
    import subprocess

    proc = subprocess.Popen([sys.executable, str(writer)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    run_dir = Path(proc.stdout.readline().strip())
    attached = attach(run_dir)
    assert attached.wait(30)
    proc.wait(30)
    assert isinstance(attached.result, RunFinished)
    assert attached.metrics.last_step == {0: 20}


def test_a_run_folder_that_cannot_be_written_still_ends_the_job(
    store: RunStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workbench.runs import RunHandle

    real = RunHandle.update_state

    def full_disk(self: RunHandle, event: object) -> None:
        if isinstance(event, RunFinished):
            raise OSError(28, "No space left on device")
        real(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(RunHandle, "update_state", full_disk)
    job = start_in_process(store, "disk-full", lambda ctx: ctx.log(1, loss=1.0))
    assert job.wait(10), "the job must end even when its folder cannot be written"
    assert isinstance(job.result, RunFailed) and "No space left" in job.result.error


def test_a_program_that_cannot_start_is_a_failed_run_not_a_phantom(store: RunStore) -> None:
    with pytest.raises(FileNotFoundError):
        start_launched(store, "missing", ["/nonexistent/program"])
    [run] = store.list()
    assert run.status == "failed"
