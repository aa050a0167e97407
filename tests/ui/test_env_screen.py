"""Pilot tests of the ``env`` screen with fake probes, injected through ``WorkbenchApp(env_checks=...)``:
results stream in while a slow probe still runs, the keys keep working, re-runs and export work, a
failing probe never takes the app down, and a report taken early says it is partial."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Static

from tests.ui.waiting import notified
from tests.ui.waiting import wait_for as _wait_for
from workbench.envcheck import Facts, GpuSample, Probe, ProbeContext, Rule, SystemSnapshot, Verdict
from workbench.isolate import BACKGROUND_NICE, MARKER
from workbench.screens.app import WorkbenchApp
from workbench.screens.env import EnvChecks, EnvScreen


class FakeMonitor:
    """A system monitor with one GPU, so the panel's GPU branch runs on a CPU box."""

    def sample(self) -> SystemSnapshot:
        gpu = GpuSample(0, "FakeGPU-80G", 1024, 81920, 42)
        return SystemSnapshot(12.0, 2, 2 * 2**30, 8 * 2**30, (gpu,))


def _probe(name: str, run: Callable[[ProbeContext, Facts], Mapping[str, Any]]) -> Probe:
    return Probe(name, run, timeout_s=30.0)


def _rule(rule_id: str, probe: str) -> Rule:
    def evaluate(facts: Facts) -> Verdict:
        data = facts.data(probe)
        return Verdict(
            data.get("status", "pass"), f"{rule_id}: {data.get('says', '?')}", fix=data.get("fix", "")
        )

    return Rule(rule_id, (probe,), evaluate)


def _app(tmp_path: Path, probes: list[Probe], rules: list[Rule]) -> WorkbenchApp:
    checks = EnvChecks(probes=probes, rules=rules, monitor=FakeMonitor(), refresh_s=0.2, timeout_s=20.0)  # type: ignore[arg-type]
    return WorkbenchApp(tmp_path, preload_paddle=False, env_checks=checks)


async def _env_screen(pilot: Any) -> EnvScreen:
    await pilot.press("2")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, EnvScreen)
    return screen


def _status(screen: EnvScreen, rule_id: str) -> str:
    return str(screen.query_one(DataTable).get_cell(rule_id, "status"))


async def test_results_stream_in_while_a_slow_probe_runs_and_keys_work(tmp_path: Path) -> None:
    release = threading.Event()

    def slow(ctx: ProbeContext, facts: Facts) -> dict[str, Any]:
        # Bounded wait that honours cancellation, like the real probes.
        for _ in range(400):
            if release.is_set() or ctx.cancel.is_set():
                break
            release.wait(0.05)
        return {"says": "slow done"}

    probes = [_probe("fast", lambda ctx, facts: {"says": "fast done"}), _probe("slow", slow)]
    rules = [_rule("check.fast", "fast"), _rule("check.slow", "slow")]
    app = _app(tmp_path, probes, rules)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _env_screen(pilot)
        await _wait_for(pilot, lambda: "pass" in _status(screen, "check.fast"))
        # The slow probe is still running: its row says so, and the UI answers keys meanwhile.
        assert "pass" not in _status(screen, "check.slow")
        assert not release.is_set()
        await pilot.press("down")
        await pilot.press("up")
        detail = str(screen.query_one("#env-detail-text", Static).render())
        assert "check.fast: fast done" in detail
        await pilot.press("e")  # export a partial report while the slow probe runs
        await _wait_for(pilot, lambda: any((tmp_path / "reports").glob("env-check-*.md")))
        release.set()
        await _wait_for(pilot, lambda: "pass" in _status(screen, "check.slow"))
        system = str(screen.query_one("#env-system", Static).render())
        assert "FakeGPU-80G" in system
    report = next((tmp_path / "reports").glob("env-check-*.md")).read_text(encoding="utf-8")
    assert "check.fast" in report
    # Taken while check.slow still ran: the file says so, and names what is missing (issue 13.1).
    partial = next(line for line in report.splitlines() if "Partial report" in line)
    assert "1 check had not run" in partial and "`check.slow`" in partial
    assert "`check.fast`" not in partial


async def test_copy_says_how_it_went_and_also_writes_the_file(tmp_path: Path) -> None:
    probes = [_probe("p", lambda ctx, facts: {"says": "fine"})]
    app = _app(tmp_path, probes, [_rule("check.p", "p")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _env_screen(pilot)
        await _wait_for(pilot, lambda: not screen._check_running and "pass" in _status(screen, "check.p"))
        # The screen's own "check running" flag must not be Textual's message-pump state: a finished
        # check leaves the mounted screen running (Textual prunes and idles only running pumps).
        assert screen.is_running
        await pilot.press("c")
        await _wait_for(pilot, lambda: any((tmp_path / "reports").glob("env-check-*.md")))
        await _wait_for(pilot, lambda: any("OSC 52" in str(n.message) for n in notified(app)))
        note = next(str(n.message) for n in notified(app) if "OSC 52" in str(n.message))
        assert "set -g set-clipboard on" in note
        path = next((tmp_path / "reports").glob("env-check-*.md"))
        assert str(path) in note
        assert "Partial report" not in path.read_text(encoding="utf-8")


async def test_rerun_selected_runs_only_that_check_and_rerun_all_runs_everything(tmp_path: Path) -> None:
    calls = {"a": 0, "b": 0}

    def counting(name: str) -> Callable[[ProbeContext, Facts], Mapping[str, Any]]:
        def run(ctx: ProbeContext, facts: Facts) -> dict[str, Any]:
            calls[name] += 1
            return {"says": f"{name} #{calls[name]}"}

        return run

    probes = [_probe("a", counting("a")), _probe("b", counting("b"))]
    app = _app(tmp_path, probes, [_rule("check.a", "a"), _rule("check.b", "b")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _env_screen(pilot)
        await _wait_for(pilot, lambda: not screen._check_running and calls == {"a": 1, "b": 1})
        await pilot.press("down")  # select check.b
        await pilot.press("r")
        await _wait_for(pilot, lambda: calls["b"] == 2 and not screen._check_running)
        assert calls["a"] == 1
        table = screen.query_one(DataTable)
        await _wait_for(pilot, lambda: "b #2" in str(table.get_cell("check.b", "summary")))
        await pilot.press("R")  # shift+r
        await _wait_for(pilot, lambda: calls == {"a": 2, "b": 3} and not screen._check_running)


async def test_a_crashing_probe_is_a_failed_row_and_the_app_keeps_running(tmp_path: Path) -> None:
    def broken(ctx: ProbeContext, facts: Facts) -> dict[str, Any]:
        raise RuntimeError("probe exploded")

    probes = [_probe("broken", broken), _probe("fine", lambda ctx, facts: {"says": "ok"})]
    app = _app(tmp_path, probes, [_rule("check.broken", "broken"), _rule("check.fine", "fine")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _env_screen(pilot)
        await _wait_for(pilot, lambda: "fail" in _status(screen, "check.broken"))
        await _wait_for(pilot, lambda: "pass" in _status(screen, "check.fine"))
        detail = str(screen.query_one("#env-detail-text", Static).render())
        assert "probe exploded" in detail  # first row is selected: its failure and fix are shown
        assert app.is_running


async def test_fix_is_shown_in_the_detail_pane(tmp_path: Path) -> None:
    probes = [_probe("p", lambda ctx, facts: {"status": "fail", "says": "bad", "fix": "export FOO=1"})]
    app = _app(tmp_path, probes, [_rule("check.p", "p")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _env_screen(pilot)
        await _wait_for(pilot, lambda: "fail" in _status(screen, "check.p"))
        await _wait_for(
            pilot, lambda: "export FOO=1" in str(screen.query_one("#env-detail-text", Static).render())
        )


NICE_PROBE = """
import json, os, time

def group():
    try:
        with open("/proc/self/autogroup", encoding="ascii") as f:
            return int(f.read().split()[-1])
    except (OSError, ValueError):
        return None

# The parent lowers a child right after starting it: on a loaded machine this may run first, so wait for it.
deadline = time.monotonic() + 30
while time.monotonic() < deadline and (
    os.getpriority(os.PRIO_PROCESS, 0) < NICE or (group() is not None and group() < NICE)
):
    time.sleep(0.01)
print(MARKER + json.dumps({"nice": os.getpriority(os.PRIO_PROCESS, 0), "group": group()}))
"""


async def test_checks_started_from_the_screen_run_their_children_at_low_cpu_priority(tmp_path: Path) -> None:
    """Visiting the screen starts every check while a run may be training: the probe children (a Paddle
    import each) must leave the CPU to the UI and the run, their scheduling group included."""
    seen: list[Mapping[str, Any]] = []

    def reads_its_priority(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        seen.append(
            ctx.run_script(NICE_PROBE.replace("MARKER", repr(MARKER)).replace("NICE", str(BACKGROUND_NICE)))
        )
        return {"says": "read"}

    probes, rules = [_probe("nice", reads_its_priority)], [_rule("check.nice", "nice")]
    checks = EnvChecks(probes=probes, rules=rules, monitor=FakeMonitor())  # type: ignore[arg-type]
    app = WorkbenchApp(tmp_path, preload_paddle=False, env_checks=checks)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _env_screen(pilot)
        await _wait_for(pilot, lambda: "pass" in _status(screen, "check.nice"))
    assert seen and seen[0]["nice"] >= BACKGROUND_NICE
    if seen[0]["group"] is not None:  # a kernel that groups sessions: the child's session is lowered too
        assert seen[0]["group"] >= BACKGROUND_NICE
