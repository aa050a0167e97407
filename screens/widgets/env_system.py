"""The environment screen's live system panel: CPU, RAM and, per GPU, memory, utilisation, temperature
and power (draw and limit), from :class:`workbench.envcheck.SystemMonitor` — the reader every run's
system sampler uses.

Each figure group is one entry (``CPU 12% of 16``, ``GPU0 NVIDIA H200 59.8/140.4 GiB 87% 64°C 412/700
W``); the panel packs whole entries into at most :data:`MAX_LINES` lines of its own width, measured in
cells (a Chinese label is two cells a character), so it never wraps mid-entry or spills out of its
border at 80×24; GPUs that do not fit end in ``+N more``. A figure the GPU does not report is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import set_cell_size
from rich.text import Text
from textual.geometry import Size
from textual.widgets import Static

from workbench.i18n import cell_width, t

if TYPE_CHECKING:
    from workbench.envcheck import GpuSample, SystemSnapshot

MAX_LINES = 3
SEPARATOR = "  ·  "


def gpu_entry(gpu: GpuSample) -> str:
    """One GPU's figures; temperature and power only when the GPU reports them."""
    used = "?" if gpu.memory_used_mib is None else f"{gpu.memory_used_mib / 1024:.1f}"
    total = "?" if gpu.memory_total_mib is None else f"{gpu.memory_total_mib / 1024:.1f}"
    util = "?" if gpu.utilization_pct is None else str(gpu.utilization_pct)
    parts = [t("envscreen.system.gpu", index=gpu.index, name=gpu.name, used=used, total=total, util=util)]
    if gpu.temperature_c is not None:
        parts.append(t("envscreen.system.temp", temp=gpu.temperature_c))
    if gpu.power_w is not None:
        draw = f"{gpu.power_w:.0f}"
        if gpu.power_limit_w:
            parts.append(t("envscreen.system.power_limit", draw=draw, limit=f"{gpu.power_limit_w:.0f}"))
        else:
            parts.append(t("envscreen.system.power", draw=draw))
    return " ".join(parts)


def system_entries(snapshot: SystemSnapshot) -> list[str]:
    """The panel's entries for one sample: the host, then each GPU (or "no GPU")."""
    entries = [
        t("envscreen.system.cpu", percent=f"{snapshot.cpu_percent:.0f}", count=snapshot.cpu_count),
        t(
            "envscreen.system.ram",
            used=f"{snapshot.memory_used_bytes / 2**30:.1f}",
            total=f"{snapshot.memory_total_bytes / 2**30:.1f}",
        ),
    ]
    entries += [gpu_entry(gpu) for gpu in snapshot.gpus]
    if not snapshot.gpus:
        entries.append(t("envscreen.system.no_gpu"))
    return entries


def _fit(entry: str, width: int) -> str:
    """``entry`` cut to ``width`` cells with an ellipsis (only a narrower terminal than any entry)."""
    if cell_width(entry) <= width:
        return entry
    return set_cell_size(entry, max(0, width - 1)) + "…"


def _lines(entries: Sequence[str], width: int) -> list[str]:
    lines: list[str] = []
    for entry in (_fit(e, width) for e in entries):
        joined = lines[-1] + SEPARATOR + entry if lines else entry
        if lines and cell_width(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(entry)
    return lines


def pack(entries: Sequence[str], width: int, max_lines: int = MAX_LINES) -> list[str]:
    """Whole ``entries`` in lines of at most ``width`` cells, at most ``max_lines`` of them; the entries
    that do not fit are dropped from the end and counted in a last ``+N more``."""
    width = max(1, width)
    for shown in range(len(entries), -1, -1):
        hidden = len(entries) - shown
        tail = [t("envscreen.system.more", count=hidden)] if hidden else []
        lines = _lines([*entries[:shown], *tail], width)
        if len(lines) <= max_lines:
            return lines
    return _lines(entries, width)[:max_lines]  # not reached: one entry a line always fits


class EnvSystemPanel(Static):
    """``show(entries)``; draws them packed to its width (and re-packs when the terminal is resized)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self.entries: list[str] = [t("envscreen.system.waiting")]

    def show(self, entries: Sequence[str]) -> None:
        self.entries = list(entries)
        self.refresh(layout=True)

    def lines(self, width: int | None = None) -> list[str]:
        """What the panel shows at ``width`` cells (its own content width when ``None``)."""
        return pack(self.entries, self.content_size.width if width is None else width)

    def render(self) -> Text:
        return Text("\n".join(self.lines()), no_wrap=True, overflow="ellipsis")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width)) if width else 0
