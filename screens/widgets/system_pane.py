"""The monitor's system pane (y): the run's latest CPU %, RSS and, per GPU, utilisation, memory,
temperature and power.

It draws what the engine recorded (``sys/...`` series, :mod:`workbench.runner.system_sampler`), never
asks the machine itself: a headless run attached later, or a finished run opened from the list, shows
the same figures it had. It is hidden until toggled on, and while hidden :meth:`SystemPane.show_from`
returns at once; shown, it redraws only when a new sample arrived (once a second at most).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from workbench.i18n import t
from workbench.metric_store import MetricStore
from workbench.runner.system_sampler import gpu_indices, is_system_metric

BAR_CELLS = 10


def bar(fraction: float, cells: int = BAR_CELLS) -> str:
    """``███░░░░░░░`` for 0.3: a share drawn in whole cells (clamped to 0-1)."""
    filled = round(max(0.0, min(1.0, fraction)) * cells)
    return "█" * filled + "░" * (cells - filled)


def _number(value: float | None, digits: int = 0) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def system_renderable(latest: dict[str, float], *, done: bool, kit_log: bool = False) -> RenderableType:
    """The pane's picture for the latest ``sys/...`` values of a run (``{}``: none yet).

    A kit's log followed by ``attach`` never has samples (the workbench samples only the processes it
    starts), so it says that instead of waiting for one or blaming the run's settings."""
    title = Text(t("ui.system.title") + "  ", style="bold")
    if not latest:
        why = "ui.system.none_kit_log" if kit_log else "ui.system.none" if done else "ui.system.waiting"
        return Text.assemble(title, (t(why), "dim"))
    head = Text.assemble(title)
    cpu = latest.get("sys/cpu_percent")
    if cpu is not None:
        head.append(t("ui.system.cpu", percent=_number(cpu, 1)))
        head.append("  ")
    rss = latest.get("sys/rss_mb")
    if rss is not None:
        head.append(t("ui.system.rss", mib=_number(rss)))
        head.append(" " + t("ui.system.rss_hint"), style="dim")
    gpus = gpu_indices(latest)
    if not gpus:
        head.append("   ")
        head.append(t("ui.system.no_gpu"), style="dim")
        return head
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 0))
    for key in ("gpu", "util", "memory", "temp", "power"):
        table.add_column(t(f"ui.system.col.{key}"), justify="left" if key == "gpu" else "right", no_wrap=True)
    for index in gpus:
        prefix = f"sys/gpu{index}/"
        util = latest.get(prefix + "util")
        used, total = latest.get(prefix + "mem_used_mb"), latest.get(prefix + "mem_total_mb")
        temp, power = latest.get(prefix + "temp_c"), latest.get(prefix + "power_w")
        memory = f"{_number(used)} / {_number(total)} MiB"
        if used is not None and total:
            memory = f"{bar(used / total)} {memory}"
        table.add_row(
            str(index),
            "—" if util is None else f"{bar(util / 100)} {util:.0f} %",
            memory,
            "—" if temp is None else f"{temp:.0f} °C",
            "—" if power is None else f"{power:.0f} W",
        )
    return Group(head, table)


class SystemPane(Static):
    """``show_from(store, done=...)`` draws a run's latest system sample; hidden until toggled (y)."""

    DEFAULT_CSS = """
    SystemPane { height: auto; max-height: 12; padding: 0 1; display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._key: tuple[object, ...] | None = None
        self.latest: dict[str, float] = {}
        """The values shown now (what tests read back)."""

    def toggle(self) -> None:
        self.display = not self.display
        self._key = None  # drawn afresh when shown again

    def show_from(self, store: MetricStore | None, *, done: bool, kit_log: bool = False) -> None:
        """Draw the newest ``sys/...`` values of ``store`` when shown and a new sample arrived."""
        if not self.display:
            return
        names = [] if store is None else [n for n in store.names() if is_system_metric(n)]
        series = [store.series(n) for n in names] if store is not None else []
        key = (id(store), done, kit_log, tuple(names), tuple(len(s) if s is not None else 0 for s in series))
        if key == self._key:
            return
        self._key = key
        latest: dict[str, float] = {}
        for name, s in zip(names, series, strict=True):
            last = s.last() if s is not None else None
            if last is not None:
                latest[name] = last[1]
        self.latest = latest
        self.update(system_renderable(latest, done=done, kit_log=kit_log))
