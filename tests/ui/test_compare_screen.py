"""Pilot tests of the ``compare`` screen on a precomputed comparison document (no Paddle needed), in the
real app (``WorkbenchApp``), switched to the ``compare`` mode: the results read apart from the checkpoint
list at 120×40 and 80×24 (read from the drawn screen), and ``l`` without the serve extra names it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from tests.ui.test_inert_text import drawn
from tests.ui.waiting import wait_for
from workbench.i18n import set_language
from workbench.runs import RunStore
from workbench.screens.app import WorkbenchApp
from workbench.screens.compare import CompareScreen, bar
from workbench.screens.dialogs import ErrorScreen
from workbench.serve import SERVE_FIX
from workbench.training.checkpoints import CheckpointStore


def _path(name: str, status: str, diff: float, deliberate: bool = False) -> dict[str, Any]:
    return {
        "name": name,
        "deliberate": deliberate,
        "status": status,
        "max_abs_diff": diff,
        "max_rel_diff": diff,
        "cosine": 1.0 if diff < 1e-3 else 0.9,
        "top1_agreement": 1.0,
        "latency_ms": 2.0,
        "within_tolerance": status == "ok",
        "latency": {"batch_1": {"median": 0.5, "p90": 0.6}, "batch_8": {"median": 2.0, "p90": 2.5}},
        "histogram": {
            "log10_edges": [-12.0 + 0.7 * i for i in range(21)],
            "counts": [0] * 7 + [40] + [0] * 12,
        }
        if status != "skipped"
        else None,
        **({"error": "skipped: paddle2onnx not installed"} if status == "skipped" else {}),
    }


RESULT: dict[str, Any] = {
    "run_dir": "/tmp/ws/runs/r1",
    "checkpoint": {"step": 300},
    "batch": {"size": 8, "shape": [8, 1, 32, 100], "dtype": "float32"},
    "reference": {
        "name": "dygraph_eval",
        "latency": {"batch_1": {"median": 1.8}, "batch_8": {"median": 9.0}},
    },
    "paths": [
        _path("dygraph_train", "exceeds", 2.07, deliberate=True),
        _path("jit_load", "ok", 0.0),
        _path("predictor_ir_on", "exceeds", 0.3),
        _path("onnxruntime", "skipped", 0.0),
    ],
    "findings": [
        {
            "id": "train_mode",
            "severity": "warn",
            "summary": "BatchNorm2D x3: bn1, bn2, bn3",
            "fix": "call model.eval()",
            "evidence": ["bn1 (BatchNorm2D)"],
        },
        {
            "id": "first_divergence",
            "severity": "fail",
            "summary": "predictor_ir_on is the first path outside",
            "fix": "delete_pass",
            "evidence": [],
        },
    ],  # fmt: skip
    "ops": {"ops": [{"name": "conv2d", "count": 3}, {"name": "rnn", "count": 1}], "missing_kernels": {}},
    "matrix_rows": [
        {
            "hardware": "cpu: X (2 cores)",
            "model": "text_recognition:crnn",
            "paddle_version": "3.3.1",
            "path": "jit_load",
            "status": "ok",
            "max_diff": 0.0,
            "latency_ms": 2.0,
        },
    ],  # fmt: skip
    "ok": False,
}


async def _compare_screen(pilot: Any) -> CompareScreen:
    pilot.app.switch_mode("compare")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, CompareScreen)
    return screen


def _text(screen: CompareScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_a_precomputed_result_is_shown_path_by_path(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _compare_screen(pilot)
        screen.show_result(RESULT)
        table = screen.query_one("#paths", DataTable)
        await wait_for(pilot, lambda: table.row_count == 5)
        assert str(table.get_cell("dygraph_eval", "status")) == "reference"  # the reference row first
        assert str(table.get_cell("dygraph_train", "status")) == "differs (expected)"
        assert str(table.get_cell("predictor_ir_on", "status")) == "OUT OF TOLERANCE"
        assert str(table.get_cell("onnxruntime", "status")) == "skipped"
        assert "parity check failed" in _text(screen, "#compare-progress")
        findings = _text(screen, "#compare-findings")
        assert "train_mode" in findings and "bn1" in findings and "first_divergence" in findings
        assert "conv2d×3" in _text(screen, "#compare-ops")
        assert "cpu: X (2 cores)" in _text(screen, "#compare-matrix")
        # Moving through the paths shows each one's histogram; latency bars list every path and batch.
        table.focus()
        table.move_cursor(row=3)
        await wait_for(pilot, lambda: "predictor_ir_on: per-element" in _text(screen, "#compare-detail"))
        detail = _text(screen, "#compare-detail")
        assert "predictor_ir_on: per-element" in detail and "40" in detail
        assert "dygraph_eval" in detail and "batch_8" in detail
        table.move_cursor(row=4)
        await wait_for(pilot, lambda: "paddle2onnx not installed" in _text(screen, "#compare-detail"))
        assert screen.query_one("#checkpoints", DataTable).row_count == 0


async def test_an_empty_workspace_says_how_to_get_a_checkpoint(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _compare_screen(pilot)
        await wait_for(pilot, lambda: "train one first" in _text(screen, "#compare-progress"))
        assert "train one first" in _text(screen, "#compare-progress")
        await pilot.press("c")  # nothing to compare: no crash, nothing started
        await pilot.pause(0.1)
        assert screen.result is None


def test_bars_scale_to_the_largest() -> None:
    assert bar(10, 10, 20) == "█" * 20 and bar(1, 1000, 20) == "█" and bar(0, 10) == ""


async def test_a_load_test_result_shows_the_figures_and_the_latency_distribution(tmp_path: Path) -> None:
    doc = {
        "concurrency": 4, "sent": 200, "succeeded": 198, "throughput_rps": 151.96,
        "latency_ms": {"p50": 20.99, "p90": 27.04, "p99": 39.09},
        "errors": {"429": 2}, "model": {"name": "r1@step-6"},
        "reports": {"markdown": "/tmp/ws/runs/r1/reports/loadtest-x-c4.md"},
    }  # fmt: skip
    histogram = [(10.0, 20.0, 120), (20.0, 30.0, 70), (30.0, 40.0, 8)]
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _compare_screen(pilot)
        await pilot.press("l")  # no checkpoint picked: says what to do, starts nothing
        await wait_for(pilot, lambda: "pick a run" in _text(screen, "#compare-serve"))
        screen.show_loadtest(doc, histogram)
        await wait_for(pilot, lambda: "r1@step-6" in _text(screen, "#compare-serve"))
        text = _text(screen, "#compare-serve")
    assert "r1@step-6" in text and "198/200 ok" in text and "152.0 req/s" in text and "p99 39.1 ms" in text
    assert "429×2" in text and "loadtest-x-c4.md" in text
    lines = [line for line in text.splitlines() if "█" in line]
    assert len(lines) == 3 and lines[0].count("█") == 24 and lines[0].rstrip().endswith("120")


RUN_ID = "20261201-211256-train_cls_demo-3e80"


def _workspace_with_checkpoints(tmp_path: Path) -> Path:
    """A workspace whose one run committed checkpoints at steps 100, 200 and 300 (no export, no Paddle)."""
    handle = RunStore(tmp_path / "ws").create("train_cls_demo", {"name": "train_cls_demo"}, run_id=RUN_ID)
    store = CheckpointStore(handle.run_dir / "checkpoints", keep=None)
    for step in (100, 200, 300):
        store.save(step, {"model.pdparams": lambda path: path.write_bytes(b"weights")})
    handle.close()
    return tmp_path / "ws"


def _measured(
    name: str, status: str, diff: float | None, one: float | None, many: float | None
) -> dict[str, Any]:
    latency = {"batch_1": {"median": one}, "batch_64": {"median": many}} if one is not None else {}
    return {
        "name": name, "status": status, "deliberate": name == "dygraph_train", "max_abs_diff": diff,
        "cosine": None if diff is None else 1.0, "top1_agreement": None if diff is None else 1.0,
        "latency": latency, "histogram": None,
    }  # fmt: skip


def _demo_result(run_dir: Path) -> dict[str, Any]:
    """What ``compare --json`` printed for the demo classifier at step 300 (the figures of one real run)."""
    return {
        "run_dir": str(run_dir),
        "checkpoint": {"step": 300},
        "batch": {"size": 64, "shape": [64, 3, 32, 32], "dtype": "float32"},
        "reference": {
            "name": "dygraph_eval",
            "latency": {"batch_1": {"median": 0.234}, "batch_64": {"median": 76.0}},
        },
        "paths": [
            _measured("dygraph_train", "ok", 0.0, 0.278, 73.2),
            _measured("jit_load", "ok", 0.0, 0.615, 17.3),
            _measured("predictor_ir_off", "ok", 1.05e-05, 0.189, 1.84),
            _measured("predictor_ir_on", "ok", 1.05e-05, 0.183, 11.8),
            _measured("predictor_memory_optim", "ok", 1.05e-05, 0.181, 11.2),
            _measured("predictor_gpu", "skipped", None, None, None),
            _measured("onnxruntime", "ok", 9.54e-06, 0.0401, 30.6),
        ],
        "findings": [],
        "ops": {"ops": [], "missing_kernels": {}},
        "matrix_rows": [],
        "ok": True,
    }


async def _shown(pilot: Any, tmp_path: Path) -> tuple[CompareScreen, list[str]]:
    """Mode 5 through its key, the checkpoints listed, the demo result shown: the drawn screen's lines."""
    await pilot.press("5")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CompareScreen))
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.query_one("#checkpoints", DataTable).row_count == 3)
    screen.show_result(_demo_result(tmp_path / "ws" / "runs" / RUN_ID))
    table = screen.query_one("#paths", DataTable)
    await wait_for(pilot, lambda: table.row_count == 8 and "onnxruntime" in drawn(pilot.app)[0])
    await pilot.pause()
    return screen, drawn(pilot.app)[0].splitlines()


def _line(lines: list[str], *words: str) -> str:
    """The one drawn line holding every word."""
    found = [line for line in lines if all(word in line for word in words)]
    assert len(found) == 1, (words, "\n".join(lines))
    return found[0]


def _no_sideways_scroll(screen: CompareScreen) -> None:
    table = screen.query_one("#paths", DataTable)
    assert table.virtual_size.width <= table.scrollable_content_region.width


async def test_results_read_apart_from_the_checkpoints_at_120_columns(tmp_path: Path) -> None:
    app = WorkbenchApp(_workspace_with_checkpoints(tmp_path), preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, lines = await _shown(pilot, tmp_path)
        _no_sideways_scroll(screen)
    # The results name what was compared in their own panel's title; no row holds a checkpoint and a path.
    _line(lines, f"comparison of {RUN_ID} at step 300 (batch 64)")
    assert not [line for line in lines if RUN_ID in line and ("tolerance" in line or "dygraph" in line)]
    _line(lines, "path", "status", "max abs diff", "cosine", "agreement", "median ms (1 / N)")  # none cut
    _line(lines, "dygraph_eval", "reference", "0.234 / 76")
    _line(lines, "predictor_ir_on", "within tolerance", "1.05e-05", "1.000000", "100%", "0.183 / 11.8")
    assert "not shown at this width" not in "\n".join(lines)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_numbers_and_path_names_stay_visible(tmp_path: Path, lang: str) -> None:
    set_language(lang)
    app = WorkbenchApp(_workspace_with_checkpoints(tmp_path), preload_paddle=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, lines = await _shown(pilot, tmp_path)
        _no_sideways_scroll(screen)
    status, hidden = (
        ("within tolerance", "not shown at this width: cosine") if lang == "en" else ("在容差内", "余弦")
    )
    _line(lines, "predictor_memory_optim", status, "1.05e-05", "0.181 / 11.2")
    _line(lines, "dygraph_eval", "0.234 / 76")
    _line(lines, "onnxruntime", "9.54e-06")
    _line(lines, hidden)


async def test_serve_and_load_test_without_the_serve_extra_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``l`` where uvicorn cannot be imported: the pane names the extra to install; no error panel."""
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # "import uvicorn" fails as if it were not installed
    for name in ("workbench.serve.server", "workbench.serve.loadtest", "workbench.serve.session"):
        monkeypatch.delitem(sys.modules, name, raising=False)  # imported afresh, through the blocked import
    app = WorkbenchApp(_workspace_with_checkpoints(tmp_path), preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("5")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one("#checkpoints", DataTable).row_count == 3)
        await pilot.press("l")
        await wait_for(
            pilot, lambda: SERVE_FIX in _text(screen, "#compare-serve") or isinstance(app.screen, ErrorScreen)
        )
        assert not isinstance(app.screen, ErrorScreen)
        text = _text(screen, "#compare-serve")
    assert "uvicorn" in text and "pip install 'paddle-workbench[serve]'" in text
