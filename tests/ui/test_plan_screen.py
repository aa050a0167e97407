"""Pilot tests of the plan screen on precomputed model facts (no Paddle): keys edit the YAML (comments
kept), the findings and the estimate follow, save writes the file."""

from __future__ import annotations

import shutil
from pathlib import Path

from rich.console import Console
from textual.widgets import DataTable, Static, TextArea

from tests.ui.waiting import notified, wait_for
from workbench.parallel.facts import LayerFact, ModelFacts, ParamFact
from workbench.screens.plan import PlanScreen

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"


def mlp_facts() -> ModelFacts:
    """What ``build_facts`` reports for ``train_cls_mlp.yaml`` (small_cnn_mlp, width 16, hidden 64)."""
    shapes = {
        "conv1.weight": (16, 3, 3, 3), "conv1.bias": (16,), "conv2.weight": (32, 16, 3, 3), "conv2.bias": (32,),
        "fc1.weight": (2048, 64), "fc1.bias": (64,), "fc2.weight": (64, 10), "fc2.bias": (10,),
    }  # fmt: skip
    params = [ParamFact(n, n.split(".")[0], n.split(".")[1], s, "float32") for n, s in shapes.items()]
    layers = [
        LayerFact("conv1", "Conv2D"),
        LayerFact("conv2", "Conv2D"),
        LayerFact("fc1", "Linear"),
        LayerFact("fc2", "Linear"),
    ]
    outputs = {"conv1": 16384, "conv2": 8192, "fc1": 64, "fc2": 10}
    return ModelFacts(layers, params, activation_bytes_per_sample=4 * sum(outputs.values()), batch_size=64,
                      optimizer="sgd", device="cpu", layer_outputs=outputs)  # fmt: skip


def _plain(widget: Static) -> str:
    console = Console(width=200, record=True)
    console.print(widget.render())
    return console.export_text()


def _copy_samples(tmp_path: Path) -> Path:
    for name in ("plan_cls_tp.yaml", "train_cls_mlp.yaml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path / "plan_cls_tp.yaml"


def _placements(screen: PlanScreen, name: str) -> str:
    table = screen.query_one("#plan-params", DataTable)
    return str(table.get_cell(name, "placements"))


async def _checked(pilot, screen: PlanScreen) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause(0.1)
    await wait_for(
        pilot,
        lambda: (
            not screen.pending
            and screen.report is not None  # the first check waits until the mode has been shown a moment
            and screen.checked == screen.requests.latest("plan-check")
        ),
    )
    await pilot.pause(0.1)


async def test_keys_change_the_plan_yaml_findings_and_estimate_and_save_keeps_comments(
    make_app, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    plan = _copy_samples(tmp_path)
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = PlanScreen(plan, facts=mlp_facts())
        await app.push_screen(screen)
        await _checked(pilot, screen)
        assert screen.report is not None and screen.report.ok
        assert _placements(screen, "fc1.weight") == "Shard(1)"
        assert _placements(screen, "fc2.weight") == "Shard(0)"
        estimate_before = _plain(screen.query_one("#plan-estimate", Static))

        table = screen.query_one("#plan-params", DataTable)
        table.move_cursor(row=screen._rows.index("fc2.weight"))
        await pilot.press("c")  # fc2 becomes column-parallel
        await _checked(pilot, screen)
        text = screen.query_one("#plan-yaml", TextArea).text
        assert "{match: fc2, plan: ColWiseParallel}" in text
        assert _placements(screen, "fc2.weight") == "Shard(1)"
        assert _plain(screen.query_one("#plan-estimate", Static)) != estimate_before  # all-gather now

        table.move_cursor(row=screen._rows.index("conv1.weight"))
        await pilot.press("c")  # a column plan on a convolution: refused with its line
        await _checked(pilot, screen)
        findings = _plain(screen.query_one("#plan-findings", Static))
        assert "splits Linear, Embedding layers only" in findings and "L8:" in findings
        assert not screen.report.ok

        await pilot.press("x")  # back to replicated: valid again
        await _checked(pilot, screen)
        assert screen.report.ok and "the plan is valid" in _plain(screen.query_one("#plan-findings", Static))

        table.move_cursor(row=screen._rows.index("conv2.weight"))
        await pilot.press("s")  # the parameter itself sharded on dim 0
        await _checked(pilot, screen)
        assert _placements(screen, "conv2.weight") == "Shard(0)"

        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: 'placements: ["Shard(0)"]' in plan.read_text())
    saved = plan.read_text()
    assert saved.startswith("# Tensor parallel (Megatron-style)")  # the user's comments survive
    assert "# fc1.weight Shard(1), fc1.bias Shard(0)" in saved
    assert '{match: conv2.weight, placements: ["Shard(0)"]}' in saved


async def test_typing_an_invalid_placement_shows_a_located_finding(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = _copy_samples(tmp_path)
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = PlanScreen(plan, facts=mlp_facts())
        await app.push_screen(screen)
        await _checked(pilot, screen)
        area = screen.query_one("#plan-yaml", TextArea)
        area.load_text(area.text.replace("mesh: {shape: [2]", "mesh: {shape: [3]"))
        screen._text_changed()
        await _checked(pilot, screen)
        findings = _plain(screen.query_one("#plan-findings", Static))
        assert "not divisible by 3 ranks" in findings and "fc1" in findings
        await pilot.press("n")  # an invalid plan does not run
        await wait_for(pilot, lambda: any("nothing was started" in n.message for n in notified(app)))


def _stored_run(store, name: str, config: dict, losses: list[float]) -> None:  # type: ignore[no-untyped-def]
    from workbench.events import RunFinished, RunStarted

    handle = store.create(name, config)
    handle.emit(RunStarted(run_id=handle.run_id, name=name))
    for step, loss in enumerate(losses, start=1):
        handle.writer.sample(0, step, {"loss": loss}, float(step))
    finished = RunFinished(step=len(losses))
    handle.emit(finished)
    handle.update_state(finished)
    handle.close()


async def test_b_shows_parity_of_the_plans_run_with_the_baseline(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = _copy_samples(tmp_path)
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        train = {"train": {"batch_size": 64, "lr": 0.05, "seed": 42}}
        _stored_run(app.store, "train_cls_mlp", train, [2.3, 2.1, 1.9])
        parallel = {**train, "parallel": {"plan_file": str(plan.resolve()), "train_name": "train_cls_mlp"}}
        _stored_run(app.store, "plan_cls_tp", parallel, [2.3, 2.1 + 1e-7, 1.9])
        screen = PlanScreen(plan, facts=mlp_facts())
        await app.push_screen(screen)
        await _checked(pilot, screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: "steps compared" in _plain(screen.query_one("#plan-findings", Static)))
        text = _plain(screen.query_one("#plan-findings", Static))
        assert text.startswith("parity holds: over 3 steps the loss gap stayed within float32 rounding")
        assert "3 steps compared" in text and "divergence from step —" in text
        assert "[pass] seeds" in text
        assert f"next: paddle-workbench compare {app.store.run_dirs()[-1].name}" in text

        # A newer run of the plan with another seed: the verdict says so in words, in the colour of a
        # failure, and "next:" is the plan's run once fixed — not the same comparison again.
        seeded = {"train": {**train["train"], "seed": 7}, "parallel": parallel["parallel"]}
        _stored_run(app.store, "plan_cls_tp", seeded, [2.5, 2.3, 2.0])
        await pilot.press("b")
        await wait_for(pilot, lambda: "does not hold" in _plain(screen.query_one("#plan-findings", Static)))
        text = _plain(screen.query_one("#plan-findings", Static))
        assert text.startswith("parity does not hold: at step 1") and "named causes: seeds" in text
        assert "[fail] seeds: different seeds: 42 vs 7" in text
        assert f"next: paddle-workbench plan run {plan.resolve()}" in text
        assert "next: paddle-workbench plan parity" not in text
