"""Key-to-frame latency and mode-switch time of the TUI while a run trains in this process, side by side
with a bare Textual app handling the same keys (docs/architecture.md, "Budgets").

One real Paddle training run (``sample_configs/train_cls_mlp.yaml``, copied into a temporary folder,
its steps raised so it outlasts the measurement) trains on a thread of this process for the whole
benchmark, as a run started from the TUI does. The workbench (its Monitor following that run) and a bare
Textual app — two modes, a help modal as large as the Monitor's (three Rich tables, built once), a
panel to toggle and a label to change, the same keys — are
driven through Textual's Pilot, alternating one session of each per round, so a loaded machine slows
both alike. A key's latency is the time from the press to the next refresh of the screen after the key
was handled (``call_after_refresh``); a mode switch's is the same for ``1``/``2`` (Runs ⇄ Monitor),
counted once the new screen is the current one. Prints the median and p90 of each, the first switch to a
mode (the screen is built then) apart from the later ones, each Monitor key apart, the UI thread's own
CPU per key (steadier than wall time on a shared machine), and the load average before and after::

    python benchmarks/key_latency.py            # 3 rounds
    python benchmarks/key_latency.py 5 --idle   # 5 rounds, and the same with no run training
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.binding import Binding  # noqa: E402
from textual.containers import Vertical, VerticalScroll  # noqa: E402
from textual.screen import ModalScreen, Screen  # noqa: E402
from textual.widgets import Footer, Header, Static  # noqa: E402

MONITOR_KEYS = ["g", "g", "right_square_bracket", "question_mark", "escape"]
"""Pressed in the Monitor, in this order, each round: grid on and off, next metric, help open and closed."""
MODES = ["runs", "env", "plan", "monitor", "compare", "wizard"]
"""The workbench's modes in key order (``1``…``6``; a check in :func:`main` keeps this in step)."""
SWITCH_ROUNDS = 2
"""Times every mode is switched to per session: the first builds its screen, later ones reuse it."""


HELP_ROWS = (22, 4, 6)
"""Rows of the Monitor's help (its own keys, the keys that work everywhere, the modes): the bare app's
help has as many, so both draw a modal of the same size over their screen."""


class BareHelp(ModalScreen[None]):
    """What the workbench's help is, in plain Textual: three Rich tables in a scrolling box over the
    dimmed screen. Installed (``SCREENS``), so it is built once, as the workbench keeps its own."""

    BINDINGS = [Binding("escape", "dismiss", "Close")]
    DEFAULT_CSS = """
    BareHelp { align: center middle; }
    BareHelp #help-box { width: 90; max-width: 95%; height: auto; max-height: 100%; padding: 1 2;
                         border: round $primary; background: $surface; }
    BareHelp #help-scroll { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        from rich.table import Table

        tables = []
        for number, rows in enumerate(HELP_ROWS):
            table = Table(box=None, show_header=True, header_style="bold", title=f"Table {number}")
            table.add_column("Key", no_wrap=True)
            table.add_column("Action")
            if number == len(HELP_ROWS) - 1:
                table.add_column("What")
            for row in range(rows):
                cells = [f"k{row}", f"action number {row}", f"what mode {row} is for, in a few words"]
                table.add_row(*cells[: len(table.columns)])
            tables.append(table)
        with Vertical(id="help-box"):
            yield Static("Help")
            with VerticalScroll(id="help-scroll"):
                for table in tables:
                    yield Static(table)
            yield Static("escape closes")


class BareMode(Screen[None]):
    def __init__(self, title: str) -> None:
        super().__init__()
        self._title = title
        self._metric = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(self._title, id="title")
        yield Static("", id="panel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#panel").display = False


class BareApp(App[None]):
    """The yardstick: a header, a footer, two modes and the same keys, nothing of the workbench's."""

    TITLE = "Paddle Workbench"
    MODES = {name: partial(BareMode, name) for name in MODES}  # noqa: RUF012
    DEFAULT_MODE = "runs"
    BINDINGS = [  # noqa: RUF012
        *(Binding(str(n), f"switch_mode('{name}')", name) for n, name in enumerate(MODES, start=1)),
        Binding("question_mark", "push_screen('help')", "Help"),
        Binding("g", "grid", "Grid"),
        Binding("right_square_bracket", "metric", "Next metric"),
        Binding("q", "quit", "Quit"),
    ]
    SCREENS = {"help": BareHelp}  # noqa: RUF012

    def action_grid(self) -> None:
        panel = self.screen.query_one("#panel")
        panel.display = not panel.display

    def action_metric(self) -> None:
        screen = self.screen
        assert isinstance(screen, BareMode)
        screen._metric += 1
        screen.query_one("#title", Static).update(f"{screen._title} metric {screen._metric}")


async def next_frame(app: App[Any]) -> None:
    """Return after the screen's next refresh."""
    done = asyncio.Event()
    app.screen.call_after_refresh(done.set)
    await done.wait()


CHARACTERS = {"right_square_bracket": "]", "question_mark": "?", "escape": "\x1b"}
SHOWN = {"right_square_bracket": "]", "question_mark": "?", "escape": "esc"}


def state(app: App[Any]) -> tuple[object, ...]:
    """What the keys change, in either app: the mode, the screen, the grid (panel) and the metric."""
    screen = app.screen
    panels = screen.query("#panel")
    return (
        app.current_mode,
        type(screen).__name__,
        getattr(screen, "grid_mode", panels.first().display if panels else None),
        getattr(screen, "metric_index", getattr(screen, "_metric", None)),
    )


async def timed(app: App[Any], key: str) -> float:
    """Seconds from the key's arrival (posted as the terminal driver posts it) to the first refresh after
    it took effect. Pilot's ``press`` is not used: it waits for the process to go idle, which it never
    does while a run trains in it."""
    before = state(app)
    started = time.perf_counter()
    app.post_message(events.Key(key, CHARACTERS.get(key, key)))
    while state(app) == before:
        await asyncio.sleep(0.001)
    await next_frame(app)
    return time.perf_counter() - started


async def session(app: App[Any], job: Any) -> dict[str, list[float]]:
    """One app: the Monitor keys, then every mode in turn; seconds per key and per switch."""
    out: dict[str, list[float]] = {"key": [], "first switch": [], "switch": []}
    monitor_key = str(MODES.index("monitor") + 1)
    async with app.run_test(size=(120, 40)) as pilot:
        if job is not None:
            app.start_job(lambda _store: job)  # type: ignore[attr-defined]
        else:
            await timed(app, monitor_key)
        while app.current_mode != "monitor":
            await asyncio.sleep(0.01)
        await next_frame(app)
        await asyncio.sleep(0.5)  # the monitor's first ticks with the run's data
        for key in MONITOR_KEYS * 3:
            cpu = time.thread_time()
            seconds = await timed(app, key)
            cpu = time.thread_time() - cpu  # the UI thread's own: what other load leaves alone
            out["key"].append(seconds)
            out.setdefault(f"key {SHOWN.get(key, key)}", []).append(seconds)
            out.setdefault("cpu", []).append(cpu)
            out.setdefault(f"cpu {SHOWN.get(key, key)}", []).append(cpu)
        for turn in range(SWITCH_ROUNDS):
            for number, name in enumerate(MODES, start=1):
                if name == app.current_mode:
                    continue
                kind = "first switch" if turn == 0 and name != "runs" else "switch"
                out[kind].append(await timed(app, str(number)))
        del pilot
    return out


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def start_run(folder: Path) -> Any:
    """A real Paddle training run on a thread of this process, long enough to outlast the benchmark."""
    from workbench.runs import RunStore
    from workbench.training import prepare_training, start_training

    config = folder / "train_cls_mlp.yaml"
    shutil.copy(ROOT / "sample_configs" / "train_cls_mlp.yaml", config)
    store = RunStore(folder / "ws")
    overrides = ["train.steps=100000", "eval.every=1000", "checkpoint.every=100000", "export.enabled=false"]
    plan = prepare_training(config, overrides, store=store, environ={})
    job = start_training(plan, store)
    deadline = time.monotonic() + 120
    while job.metrics.last_step.get(0) is None and time.monotonic() < deadline and not job.done:
        time.sleep(0.05)
    if job.done:
        raise SystemExit(f"the training run ended early: {job.status}")
    return job


async def measure(rounds: int, folder: Path, job: Any) -> dict[str, dict[str, list[float]]]:
    from workbench.screens.app import WorkbenchApp
    from workbench.screens.modes import ordered_modes

    if [name for name, _ in ordered_modes()] != MODES:
        raise SystemExit(f"the modes changed: {[name for name, _ in ordered_modes()]}; update MODES")

    results: dict[str, dict[str, list[float]]] = {
        "bare Textual": {"key": [], "first switch": [], "switch": []},
        "workbench": {"key": [], "first switch": [], "switch": []},
    }
    for _ in range(rounds):
        got = await session(BareApp(), None)
        for kind, values in got.items():
            results["bare Textual"].setdefault(kind, []).extend(values)
        got = await session(WorkbenchApp(folder / "ws", preload_paddle=False), job)
        for kind, values in got.items():
            results["workbench"].setdefault(kind, []).extend(values)
    return results


def report(title: str, results: dict[str, dict[str, list[float]]]) -> None:
    print(title)
    for name, kinds in results.items():
        parts = []
        for kind in ("key", "switch", "first switch"):
            values = kinds[kind]
            ms = [v * 1000 for v in values]
            parts.append(f"{kind} median {statistics.median(ms):.0f} ms, p90 {p90(ms):.0f} ms (n={len(ms)})")
        print(f"  {name:>12}: " + "; ".join(parts))
        for prefix in ("key ", "cpu "):
            each = [k for k in kinds if k.startswith(prefix)]
            print(" " * 16 + "; ".join(f"{k} {statistics.median(kinds[k]) * 1000:.0f} ms" for k in each))
        print(" " * 16 + f"UI-thread CPU per key: median {statistics.median(kinds['cpu']) * 1000:.1f} ms, "
              f"mean {statistics.mean(kinds['cpu']) * 1000:.1f} ms")  # fmt: skip
    ratio = statistics.median(results["workbench"]["key"]) / statistics.median(results["bare Textual"]["key"])
    print(f"  workbench / bare, key median: {ratio:.2f}×")
    cpu = [statistics.mean(results[name]["cpu"]) for name in ("workbench", "bare Textual")]
    print(f"  workbench / bare, UI-thread CPU per key (mean): {cpu[0] / cpu[1]:.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=3)
    parser.add_argument("--idle", action="store_true", help="also measure with no run training")
    args = parser.parse_args()
    os.environ.setdefault("PADDLE_WORKBENCH_LANG", "en")
    os.environ.setdefault("GLOG_minloglevel", "2")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old_cwd = Path.cwd()
        os.chdir(folder)
        try:
            load_before = os.getloadavg()[0]
            if args.idle:
                report(
                    f"no run training; {args.rounds} rounds, alternating",
                    asyncio.run(measure(args.rounds, folder, None)),
                )
            job = start_run(folder)
            try:
                results = asyncio.run(measure(args.rounds, folder, job))
            finally:
                job.cancel()
                job.wait(60)
            report(
                f"a Paddle run training in process (step {job.metrics.last_step.get(0)} at the end); "
                f"{args.rounds} rounds, alternating; load average {load_before:.2f} → {os.getloadavg()[0]:.2f}",
                results,
            )
        finally:
            os.chdir(old_cwd)


if __name__ == "__main__":
    main()
