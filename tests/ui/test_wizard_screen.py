"""Pilot tests of the ``wizard`` mode in the real app: each of the six problems walked end to end through the
screen (problems picked from the list, answers from the option list, probes running in workers on this
machine and leaving evidence), a pasted error diagnosed and followed into its flow, back a step, export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static, TextArea

from tests.troubled_run import write_troubled_run
from tests.ui.waiting import wait_for
from workbench.runner.in_process import start_in_process
from workbench.runs import RunStore
from workbench.screens.app import WorkbenchApp
from workbench.screens.wizard import PASTE, WizardScreen


def _workspace(tmp_path: Path) -> Path:
    """A workspace whose newest run has a config (seed, lr, a broken dataset), metrics and a compare report."""
    write_troubled_run(tmp_path)
    return tmp_path / "ws"


async def _screen(pilot: Any) -> WizardScreen:
    pilot.app.switch_mode("wizard")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, WizardScreen)
    return screen


def _text(screen: WizardScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _pick(pilot: Any, selector: str, option_id: str) -> None:
    options = pilot.app.screen.query_one(selector, OptionList)
    options.focus()
    options.highlighted = options.get_option_index(option_id)
    await pilot.press("enter")
    await pilot.pause(0.05)


async def _walk(pilot: Any, screen: WizardScreen, flow: str, answers: dict[str, str]) -> None:
    await _pick(pilot, "#wizard-problems", flow)
    for _ in range(3000):
        walk = screen.walk
        assert walk is not None
        if walk.done and not screen.busy:
            return
        if screen.busy or walk.step.probe:
            await pilot.pause(0.05)
            continue
        step = walk.step
        if step.ask == "text":
            screen.query_one("#wizard-text", TextArea).insert(answers[step.id])
            await pilot.press("ctrl+s")
        else:
            await _pick(pilot, "#wizard-choices", answers[step.id])
        await pilot.pause(0.05)
    raise AssertionError(f"{flow} did not finish")


CASES = [
    ("import_fails", {"platform": "linux", "linux_error": "other"}, "python"),
    ("parallel_hangs", {"cpu_backend": "no", "same_code": "yes"}, "port"),
    ("parallel_worse", {"batchnorm": "yes"}, "train.seed = 7"),
    ("inference_disagrees", {"inputs": "no"}, "dropout on"),
    ("op_unsupported", {"target": "gpu"}, "no exported model.json"),
    ("lowcode_data", {}, "train.txt:2"),
]


@pytest.mark.parametrize(("flow", "answers", "evidence"), CASES, ids=[c[0] for c in CASES])
async def test_each_problem_is_walked_end_to_end(
    tmp_path: Path, flow: str, answers: dict[str, str], evidence: str
) -> None:
    app = WorkbenchApp(_workspace(tmp_path), preload_paddle=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _screen(pilot)
        await _walk(pilot, screen, flow, answers)
        assert evidence in _text(screen, "#wizard-evidence")  # an automatic probe's evidence, on screen
        finding = _text(screen, "#wizard-finding")
        assert "cause:" in finding and "fix:" in finding
        await pilot.press("e")
        await wait_for(pilot, lambda: screen.last_export)
        report = Path(screen.last_export).read_text(encoding="utf-8")
        assert screen.walk.finding().title in report and evidence in report


async def test_back_a_step_and_a_text_answer(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _screen(pilot)
        await _pick(pilot, "#wizard-problems", "which_path")
        await _pick(pilot, "#wizard-choices", "vision")
        assert screen.walk.step.id == "customise"
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.walk.step.id == "task")
        assert "task" in _text(screen, "#wizard-prompt").lower()
        await _pick(pilot, "#wizard-problems", "op_unsupported")
        await _pick(pilot, "#wizard-choices", "onnx")
        screen.query_one("#wizard-text", TextArea).insert("multiclass_nms3, roi_align")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.walk.done)
        assert "multiclass_nms3" in _text(screen, "#wizard-evidence")


async def test_pasted_error_is_diagnosed_and_followed_into_its_flow(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _screen(pilot)
        await _pick(pilot, "#wizard-problems", PASTE)
        await pilot.press("ctrl+s")  # an empty paste: a sentence, not a crash
        await wait_for(pilot, lambda: "empty" in _text(screen, "#wizard-prompt"))
        assert "empty" in _text(screen, "#wizard-prompt")
        screen.query_one("#wizard-text", TextArea).insert(
            "\x1b[31mImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found\x1b[0m\r\n"
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.diagnosis is not None)
        finding = _text(screen, "#wizard-finding")
        assert "imports.glibcxx" in finding and "GLIBCXX_3.4.30" in finding
        assert screen.suggested_flow == "import_fails"
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.walk is not None and screen.walk.flow_id == "import_fails")


async def test_newest_failed_run_opens_into_its_diagnosis_and_flow(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")

    def job(ctx: Any) -> None:
        raise RuntimeError("TypeError: only 0-dimensional arrays can be converted to Python scalars")

    start_in_process(store, "broken", job).wait(60)
    app = WorkbenchApp(store.workspace, preload_paddle=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _screen(pilot)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.diagnosis is not None)
        assert "numpy_compat.scalar_conversion" in _text(screen, "#wizard-finding")
        assert screen.suggested_flow == "import_fails"
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.walk is not None and screen.walk.flow_id == "import_fails")
