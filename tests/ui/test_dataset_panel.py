"""Pilot test of the dataset panel: k on a run lints its dataset and shows the offending lines."""

from __future__ import annotations

from pathlib import Path

import yaml
from PIL import Image
from textual.widgets import DataTable, Static

from tests.ui.waiting import wait_for as _wait_for


async def test_k_shows_the_runs_dataset_report_at_80x24(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from workbench.demo import start_demo_job
    from workbench.runs import RunStore

    data = tmp_path / "data"
    (data / "images").mkdir(parents=True)
    Image.new("RGB", (8, 8)).save(data / "images" / "a.png")
    (data / "label.txt").write_text("0 cat\n1 dog\n", encoding="utf-8")
    (data / "train.txt").write_text("images/a.png 0\nimages/gone.png 1\n", encoding="utf-8")
    (data / "val.txt").write_text("images/a.png\t1\n", encoding="utf-8")
    job = start_demo_job(RunStore(tmp_path / "ws"), steps=5, step_s=0)
    assert job.wait(30)
    run_yaml = job.run_dir / "run.yaml"
    doc = yaml.safe_load(run_yaml.read_text(encoding="utf-8"))
    doc.setdefault("environment", {})["data_dir"] = str(data)
    run_yaml.write_text(yaml.safe_dump(doc), encoding="utf-8")

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one(DataTable)
        await _wait_for(pilot, lambda: table.row_count == 1)
        await pilot.press("k")
        detail = app.screen.query_one("#run-detail-text", Static)
        # Another run lands while the check runs: the list is rebuilt and re-highlights the selected
        # row, which used to replace the report with the run's detail (and cancel the check).
        assert start_demo_job(RunStore(tmp_path / "ws"), steps=1, step_s=0).wait(30)
        app.screen.refresh_runs()
        await _wait_for(pilot, lambda: table.row_count == 2)
        await _wait_for(pilot, lambda: "missing_image" in str(detail.render()))
        text = str(detail.render())
        assert f"{data / 'train.txt'}:2: image 'images/gone.png' does not exist" in text.replace(
            "\n", ""
        ) or ("train.txt:2" in text)
        assert "separator" in text and "2 errors" in text
