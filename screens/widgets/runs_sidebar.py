"""The monitor's runs sidebar (``r``): the workspace's runs with a filter, to overlay any number of them.

It owns the comparison's state — which runs are overlaid (:attr:`RunsSidebar.overlays`, each with its
theme colour ``run-N``), which one is the pinned baseline — and loads each chosen run off the UI thread
(one worker per run, ending in :class:`~workbench.screens.workers.OverlayLoaded`, one request kind per
run so several loads never drop each other). Whenever the state changes it posts
:class:`RunsSidebar.Changed`, and the monitor redraws from it.

Keys on the list: space / enter overlay the highlighted run or take it away, ``b`` pins it as the
baseline (again: unpins), ``a`` flips the alignment (the monitor's step / samples-seen axis, the same
state as ``x``); ``/`` (a monitor key) focuses the filter, escape or enter in the filter go back to the
list. The filter is :func:`workbench.compare_runs.matches`: words matched against name or id, status,
task and tags, ``key:value`` for one field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from workbench.compare_runs import RunEntry, list_entries, matches
from workbench.i18n import t
from workbench.screens.inert import inert
from workbench.screens.workers import CompareRunsListed, OverlayLoaded

if TYPE_CHECKING:
    from workbench.metric_store import MetricStore
    from workbench.runner import Job
    from workbench.screens.app import WorkbenchApp

REFRESH_S = 3.0
"""How often the shown sidebar reads the workspace's runs again."""
MAX_RUNS = 8
"""Runs on one set of axes, the followed one included: one theme colour each (``run-0`` … ``run-7``),
and a legend and table that still read at 120 columns."""


@dataclass(frozen=True)
class OverlayRun:
    """An overlaid run, followed from disk (a live one keeps growing, a linked kit log is parsed like
    any attached run), and its colour slot (``run-<color>`` in the theme)."""

    run_id: str
    metrics: MetricStore
    config: Mapping[str, Any]
    color: int
    job: Job | None = None


class FilterInput(Input):
    """The filter box; escape and enter go back to the list (escape must not leave the monitor)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "to_list", "ui.key.to_list")]

    def action_to_list(self) -> None:
        self.screen.query_one(RunList).focus()


class RunList(OptionList):
    """The filtered runs; the keys that act on the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "select", "ui.key.toggle_overlay"),
        Binding("b", "pin", "ui.key.pin_baseline"),
        Binding("a", "screen.x_axis", "ui.key.align"),  # the monitor's own axis state: one, not two
    ]

    def action_pin(self) -> None:
        option = self.highlighted_option
        if option is not None and option.id is not None:
            cast(RunsSidebar, self.parent).pin(option.id)


class RunsSidebar(Vertical):
    """The runs of the workspace, filtered; the overlaid runs and the baseline."""

    DEFAULT_CSS = """
    RunsSidebar { display: none; width: 42; min-width: 30; max-width: 40%; padding: 0 1 0 0; }
    RunsSidebar #runs-filter { height: 3; }
    RunsSidebar #runs-list { height: 1fr; border: none; padding: 0; }
    RunsSidebar .dim { color: $text-muted; }
    """

    @dataclass
    class Changed(Message):
        """The overlaid runs or the baseline changed (the monitor redraws)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, disabled=True)  # hidden: nothing in it takes the focus (or the keys)
        self.entries: list[RunEntry] = []
        self.overlays: dict[str, OverlayRun] = {}
        self.baseline: str | None = None
        self.followed: str | None = None
        self.generation = 0
        """Changes with every change of the overlays or the baseline (the monitor's redraw key)."""
        self._loading: set[str] = set()
        self._listed = False

    @property
    def wb(self) -> WorkbenchApp:
        return cast("WorkbenchApp", self.app)

    def compose(self) -> ComposeResult:
        yield FilterInput(placeholder=t("ui.runs_sidebar.filter"), id="runs-filter")
        yield RunList(id="runs-list")
        yield Static(t("ui.runs_sidebar.loading"), id="runs-count", classes="dim")
        yield Static(t("ui.runs_sidebar.hint"), classes="dim")

    def on_mount(self) -> None:
        # While shown the list is read again every few seconds: a run that ended or started (here or in
        # another process) shows its new status without reopening the sidebar.
        self._refresh_timer = self.set_interval(REFRESH_S, self.reload, pause=True)

    def set_shown(self, shown: bool) -> None:
        """Show the sidebar (its runs read afresh, the list focused) or hide it."""
        self.display = shown
        self.disabled = not shown
        if shown:
            self.reload()
            self.query_one(RunList).focus()
            self._refresh_timer.resume()
        else:
            self._refresh_timer.pause()

    # -- the list ---------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the workspace's runs again (on a worker: one ``run.yaml`` per run)."""
        self._list_runs(self.wb.requests.new("compare-runs"))

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="compare-runs",
        description="worker.compare_runs",
    )
    def _list_runs(self, request: int) -> None:
        self.post_message(CompareRunsListed(entries=list_entries(self.wb.store), request=request))

    @on(CompareRunsListed)
    def _listed_runs(self, message: CompareRunsListed) -> None:
        if self.wb.requests.is_current(message):
            self.entries = message.entries
            self._listed = True
            self.show_entries()

    @on(Input.Changed, "#runs-filter")
    def _filter_changed(self) -> None:
        self.show_entries()

    @on(Input.Submitted, "#runs-filter")
    def _filter_done(self) -> None:
        self.query_one(RunList).focus()

    def shown(self) -> list[RunEntry]:
        """The runs the filter lets through, in list order."""
        query = self.query_one(FilterInput).value
        return [e for e in self.entries if matches(e, query)]

    def _colour(self, slot: int) -> str:
        return self.wb.theme_variable(f"run-{slot}")

    def _prompt(self, entry: RunEntry) -> Group:
        run = self.overlays.get(entry.run_id)
        followed = entry.run_id == self.followed
        slot = 0 if followed else run.color if run is not None else None
        colour = self._colour(slot) if slot is not None else ""
        if entry.run_id == self.baseline:
            mark = "★"
        elif followed:
            mark = "▶"
        elif entry.run_id in self._loading:
            mark = "…"
        else:
            mark = "●" if run is not None else "○"
        head = Text.assemble((f"{mark} ", colour or "dim"), (inert(entry.run_id), colour))
        facts = [t("ui.runs_sidebar.followed") if followed else "", t(f"status.{entry.status}"), entry.task]
        facts += [f"#{tag}" for tag in entry.tags]
        line = Text(inert(" · ".join(f for f in facts if f)), style="dim")  # task and tags: the user's
        return Group(head, Padding(line, (0, 0, 0, 2)))  # the facts wrap under themselves

    def show_entries(self) -> None:
        """Rebuild the list from the entries, the filter and the overlay state (highlight kept)."""
        listing = self.query_one(RunList)
        highlighted = listing.highlighted_option
        keep = highlighted.id if highlighted is not None else None
        shown = self.shown()
        listing.clear_options()
        listing.add_options([Option(self._prompt(e), id=e.run_id) for e in shown])
        ids = [e.run_id for e in shown]
        if shown:
            listing.highlighted = ids.index(keep) if keep in ids else 0
        if self._listed:
            self.query_one("#runs-count", Static).update(
                t(
                    "ui.runs_sidebar.count",
                    shown=len(shown),
                    total=len(self.entries),
                    overlaid=len(self.overlays),
                )
            )

    @on(OptionList.OptionSelected, "#runs-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.toggle(event.option.id)

    # -- the overlay state ------------------------------------------------------------------------

    def follow(self, run_id: str | None) -> int:
        """The monitor follows ``run_id`` now: the overlays chosen for another run go (how many went)."""
        cleared = len(self.overlays) if run_id != self.followed and self.followed is not None else 0
        if cleared:
            self.clear()
        self.followed = run_id
        if self._listed:
            self.show_entries()
        return cleared

    def clear(self) -> None:
        """No run overlaid, no baseline; loads in flight are dropped."""
        for run_id in self._loading:
            self.wb.requests.new(f"overlay:{run_id}")
        self._loading.clear()
        for run in self.overlays.values():
            _stop_following(run)
        self.overlays.clear()
        self.baseline = None
        self._changed()

    def toggle(self, run_id: str) -> bool:
        """Overlay ``run_id`` (loaded on a worker) or take it away; whether it is (being) overlaid now."""
        if run_id == self.followed:
            self.notify(t("ui.overlay.followed"))
            return True
        if run_id in self.overlays or run_id in self._loading:
            removed = self.overlays.pop(run_id, None)
            if removed is not None:
                _stop_following(removed)
            if run_id in self._loading:
                self._loading.discard(run_id)
                self.wb.requests.new(f"overlay:{run_id}")  # its answer, when it comes, is dropped
            if self.baseline == run_id:
                self.baseline = None
            self._changed()
            return False
        if 1 + len(self.overlays) + len(self._loading) >= MAX_RUNS:
            self.notify(t("ui.overlay.cap", count=MAX_RUNS), severity="warning")
            return False
        self._loading.add(run_id)
        self._load(run_id, self.wb.requests.new(f"overlay:{run_id}"))
        self._changed()
        return True

    def pin(self, run_id: str) -> None:
        """Pin ``run_id`` as the baseline (overlaying it if it is not drawn yet); again: unpin."""
        if self.baseline == run_id:
            self.baseline = None
            self.notify(t("ui.overlay.no_baseline"))
        else:
            drawn = run_id == self.followed or run_id in self.overlays or run_id in self._loading
            if not drawn and not self.toggle(run_id):
                return
            self.baseline = run_id
            self.notify(t("ui.overlay.baseline", run=run_id))
        self._changed()

    @work(thread=True, exit_on_error=False, group="overlay", description="worker.overlay")
    def _load(self, run_id: str, request: int) -> None:
        from workbench.runner import attach

        run_dir = self.wb.store.resolve(run_id)
        job = attach(run_dir) if run_dir is not None else None  # reads what is there, follows the rest
        self.post_message(
            OverlayLoaded(
                run_id=run_id,
                metrics=job.metrics if job is not None else None,
                config=job.config if job is not None else None,
                job=job,
                request=request,
            )
        )

    @on(OverlayLoaded)
    def _loaded(self, message: OverlayLoaded) -> None:
        if not self.wb.requests.is_current(message):
            if message.job is not None:
                message.job.cancel()  # unticked (or cleared) while it loaded: stop following it
            return
        self._loading.discard(message.run_id)
        if message.metrics is not None:
            used = {run.color for run in self.overlays.values()}
            slot = next(i for i in range(1, MAX_RUNS) if i not in used)
            self.overlays[message.run_id] = OverlayRun(
                message.run_id, message.metrics, message.config or {}, slot, message.job
            )
        elif self.baseline == message.run_id:
            self.baseline = None
        self._changed()

    def _changed(self) -> None:
        self.generation += 1
        if self._listed:
            self.show_entries()
        self.post_message(self.Changed())

    def samples(self) -> int:
        """Samples of every overlaid run so far (a live one grows: part of the monitor's redraw key)."""
        return sum(run.metrics.samples for run in self.overlays.values())

    def on_unmount(self) -> None:
        for run in self.overlays.values():
            _stop_following(run)

    @on(Worker.StateChanged)
    def _forward_worker_failure(self, event: Worker.StateChanged) -> None:
        self.wb.report_worker_error(event)  # widgets' workers report where the screens' do


def _stop_following(run: OverlayRun) -> None:
    """An overlay taken away: its attached run stops following the files (nothing else is touched)."""
    if run.job is not None and not run.job.done:
        run.job.cancel()
