"""The environment screen's live system panel: GPU temperature and power (draw/limit) from the same reader
the run sampler uses, through a fake NVML module (the one part that cannot exist here); "no GPU" on this
CPU machine; whole entries packed into the panel's width in cells — at 80×24 too, in Chinese too —
with ``+N more`` when GPUs do not fit."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Footer

from tests.fake_nvml import install_fake_nvml
from tests.ui.waiting import wait_for
from workbench.envcheck import GpuSample, SystemMonitor, SystemSnapshot
from workbench.i18n import cell_width, set_language, t
from workbench.screens.app import WorkbenchApp
from workbench.screens.env import EnvChecks, EnvScreen
from workbench.screens.widgets.env_system import MAX_LINES, EnvSystemPanel, pack, system_entries


def _app(tmp_path: Path) -> WorkbenchApp:
    # The real reader: NVML when `import pynvml` finds one, no nvidia-smi on PATH. No checks run.
    checks = EnvChecks(
        probes=(), rules=(), monitor=SystemMonitor(env={"PATH": ""}), refresh_s=0.2, autostart=False
    )
    return WorkbenchApp(tmp_path, preload_paddle=False, env_checks=checks)


async def _panel(pilot: Any) -> EnvSystemPanel:
    await pilot.press("2")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, EnvScreen))
    panel = pilot.app.screen.query_one(EnvSystemPanel)
    await wait_for(pilot, lambda: panel.entries[0] != t("envscreen.system.waiting"))
    await pilot.pause()
    return panel


def _shown(panel: EnvSystemPanel) -> list[str]:
    """The panel's lines as drawn (rendered at its own width)."""
    return str(panel.render()).splitlines()


def _assert_inside(pilot: Any, panel: EnvSystemPanel) -> None:
    """Every line fits the panel's content width; the panel shows all its lines and sits above the footer."""
    lines = _shown(panel)
    width = panel.content_size.width
    assert width > 0 and 1 <= len(lines) <= MAX_LINES
    assert all(cell_width(line) <= width for line in lines), (width, lines)
    assert panel.content_size.height == len(lines)  # nothing cut off by max-height
    footer = pilot.app.screen.query_one(Footer)
    assert panel.region.bottom <= footer.region.y and panel.region.right <= pilot.app.size.width


async def test_cpu_machine_says_no_gpu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pynvml", None)  # no nvidia-ml-py, as on this machine
    async with _app(tmp_path).run_test(size=(80, 24)) as pilot:
        panel = await _panel(pilot)
        [line] = _shown(panel)
        assert line.startswith("CPU ") and "RAM " in line and line.endswith(t("envscreen.system.no_gpu"))
        assert "°C" not in line and " W" not in line
        _assert_inside(pilot, panel)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_gpu_temperature_and_power_through_nvml(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, size: tuple[int, int]
) -> None:
    install_fake_nvml(monkeypatch)  # GPU 0 busy at 412 W of 700 W; GPU 1 idle, power not reported
    async with _app(tmp_path).run_test(size=size) as pilot:
        panel = await _panel(pilot)
        text = "\n".join(_shown(panel))
        assert "GPU0 NVIDIA H200 59.8/140.4 GiB 87% 64°C 412/700 W" in text
        assert "GPU1 NVIDIA H200 0.0/140.4 GiB 0% 31°C" in text
        gpu1 = text[text.index("GPU1") :].split("  ·  ")[0].splitlines()[0]
        assert " W" not in gpu1  # not reported: left out, never a made-up figure
        _assert_inside(pilot, panel)
        if size == (80, 24):
            assert len(_shown(panel)) == 3  # host, GPU0, GPU1: one entry never split across lines


async def test_eight_gpus_in_chinese_at_80x24_end_in_more(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    set_language("zh")
    gpus = [{"used": 1000 * i, "util": 10 * i, "temp": 40 + i, "power_mw": 100_000 + i} for i in range(8)]
    install_fake_nvml(monkeypatch, gpus)
    async with _app(tmp_path).run_test(size=(80, 24)) as pilot:
        panel = await _panel(pilot)
        lines = _shown(panel)
        assert lines[0].startswith("CPU") and "内存" in lines[0]
        shown = [i for i in range(8) if f"GPU{i} " in "\n".join(lines)]
        assert shown == list(range(len(shown))) and 0 < len(shown) < 8
        assert lines[-1].endswith(t("envscreen.system.more", count=8 - len(shown)))
        _assert_inside(pilot, panel)
        # Wider, the same panel re-packs: more GPUs fit.
        await pilot.resize_terminal(200, 40)
        await wait_for(pilot, lambda: panel.content_size.width > 150)
        await pilot.pause()
        assert sum(f"GPU{i} " in "\n".join(_shown(panel)) for i in range(8)) > len(shown)
        _assert_inside(pilot, panel)


# --------------------------------------------------------------------------- packing (no app)


def _snapshot(*gpus: GpuSample) -> SystemSnapshot:
    return SystemSnapshot(12.0, 16, 20 * 2**30, 64 * 2**30, tuple(gpus))


def test_entries_leave_out_what_a_gpu_does_not_report() -> None:
    full = GpuSample(0, "NVIDIA H200", 61234, 143771, 87, 64, 412.3, 700.0)
    no_limit = GpuSample(1, "NVIDIA H200", 1, 143771, 0, 31, 71.0, None)
    bare = GpuSample(2, "NVIDIA H200", None, None, None)
    entries = system_entries(_snapshot(full, no_limit, bare))
    assert entries[:2] == ["CPU 12% of 16", "RAM 20.0/64.0 GiB"]
    assert entries[2] == "GPU0 NVIDIA H200 59.8/140.4 GiB 87% 64°C 412/700 W"
    assert entries[3] == "GPU1 NVIDIA H200 0.0/140.4 GiB 0% 31°C 71 W"
    assert entries[4] == "GPU2 NVIDIA H200 ?/? GiB ?%"
    assert system_entries(_snapshot())[-1] == t("envscreen.system.no_gpu")


def test_pack_keeps_entries_whole_counts_cells_and_says_what_it_left_out() -> None:
    entries = ["aaaa", "bbbb", "cccc", "dddd"]
    assert pack(entries, 80) == ["aaaa  ·  bbbb  ·  cccc  ·  dddd"]
    assert pack(entries, 13) == ["aaaa  ·  bbbb", "cccc  ·  dddd"]
    assert pack(entries, 7, max_lines=3) == ["aaaa", "bbbb", "+2 more"]
    wide = ["温度很高", "功耗"]  # 8 and 4 cells
    assert pack(wide, 16) == ["温度很高", "功耗"]  # 8 + 5 + 4 = 17 cells: two lines
    assert pack(wide, 17) == ["温度很高  ·  功耗"]
    narrow = pack(["a" * 30], 10)
    assert narrow == ["a" * 9 + "…"] and cell_width(narrow[0]) == 10
    assert all(cell_width(line) <= 7 for line in pack(["温度很高温度很高"], 7))
