"""One way back from workers (issue 14.3): typed past-tense messages, in order, stale ones dropped,
error titles in words — recorded with ``run_test(message_hook=...)`` on real runs."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from textual import work
from textual.message import Message
from textual.widgets import DataTable, Static

from tests.ui.waiting import wait_for as _wait_for
from workbench.demo import start_demo_job
from workbench.runs import RunStore
from workbench.screens.dialogs import ErrorScreen
from workbench.screens.runs import RunsScreen
from workbench.screens.workers import RunDetailRead, RunsChanged, RunsListed, WorkerResult

SCREENS = Path(__file__).parents[2] / "screens"


def test_no_worker_returns_through_call_from_thread() -> None:
    """Every screen module hands results back by message only."""
    offenders = []
    for path in sorted(SCREENS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "call_from_thread":
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


async def test_runs_main_path_message_order(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = start_demo_job(RunStore(tmp_path / "ws"), steps=5, step_s=0)
    assert first.wait(30)
    seen: list[Message] = []
    app = make_app()
    async with app.run_test(size=(120, 40), message_hook=seen.append) as pilot:
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await _wait_for(pilot, lambda: any(isinstance(m, RunDetailRead) for m in seen))
        # A run started from the app: RunsChanged reaches the list, which re-reads and shows it.
        mark = len(seen)
        job = app.start_job(lambda store: start_demo_job(store, steps=5, step_s=0), open_monitor=False)
        assert job.wait(30)
        await _wait_for(pilot, lambda: job.run_id in [r.run_id for r in screen._runs])
    kinds = [type(m).__name__ for m in seen if isinstance(m, WorkerResult | RunsChanged)]
    assert kinds.index("RunsListed") < kinds.index("RunDetailRead")
    later = [type(m).__name__ for m in seen[mark:] if isinstance(m, WorkerResult | RunsChanged)]
    # a listing asked for before the run started may still land after ``mark``: what matters is that the
    # change is followed by a listing (the one that shows the new run)
    assert "RunsListed" in later[later.index("RunsChanged") + 1 :], later


async def test_a_stale_run_list_is_dropped(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "ws")
    assert start_demo_job(store, steps=3, step_s=0).wait(30)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await _wait_for(pilot, lambda: screen.query_one(DataTable).row_count == 1)
        old = app.requests.latest("runs-list")
        app.requests.new("runs-list")  # a newer read is on its way: the older answer must not show
        screen.post_message(RunsListed(runs=[], request=old))
        await _wait_for(pilot, lambda: screen.query_one(DataTable).row_count == 1)


async def test_worker_error_title_is_the_translated_description(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:

        @work(thread=True, exit_on_error=False, description="worker.run_detail")
        def _read_detail(self: Any) -> None:
            raise RuntimeError("disk went away")

        _read_detail(app.screen)
        await _wait_for(  # the screen is pushed before its children are mounted
            pilot, lambda: isinstance(app.screen, ErrorScreen) and bool(app.screen.query(".modal-title"))
        )
        title = str(app.screen.query_one(".modal-title", Static).render())
        assert "reading the run's details" in title
        assert "_read_detail" not in title


def test_each_worker_result_names_its_kind_once_as_a_class_variable() -> None:
    """``kind`` is one value per message class (what ``Requests`` numbers), not a field each carries;
    the overlay answer narrows it to its run."""
    import dataclasses

    from workbench.screens import plan, workers

    classes = [
        c
        for module in (workers, plan)
        for c in vars(module).values()
        if isinstance(c, type) and issubclass(c, WorkerResult) and c is not WorkerResult
    ]
    assert len(classes) > 25
    for cls in classes:
        assert "kind" not in {f.name for f in dataclasses.fields(cls)}, cls
        assert cls.kind, cls
    requests = workers.Requests()
    requests.new("overlay:a")
    assert requests.is_current(workers.OverlayLoaded(run_id="a", request=1))
    assert not requests.is_current(workers.OverlayLoaded(run_id="b", request=1))
