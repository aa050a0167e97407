"""Pilot tests of the ``compare`` screen on a precomputed comparison document (no Paddle needed), in the
real app (``WorkbenchApp``), switched to the ``compare`` mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Static

from tests.ui.waiting import wait_for
from workbench.screens.app import WorkbenchApp
from workbench.screens.compare import CompareScreen, bar


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
        await wait_for(pilot, lambda: table.row_count == 4)
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
        table.move_cursor(row=2)
        await wait_for(pilot, lambda: "predictor_ir_on: per-element" in _text(screen, "#compare-detail"))
        detail = _text(screen, "#compare-detail")
        assert "predictor_ir_on: per-element" in detail and "40" in detail
        assert "dygraph_eval" in detail and "batch_8" in detail
        table.move_cursor(row=3)
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
