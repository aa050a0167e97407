"""``paddle-workbench verify`` end to end on real workspaces: fresh, walked on the demo, then damaged.

The demo workspace (tests/conftest.py ``demo_workspace``) holds a real stored env check, a real 6-step
training run and a real comparison; each test that changes something works on a copy.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from workbench.cli.root import build_cli

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

REPO = Path(__file__).resolve().parents[2]
ALL_IDS = {
    "env.check", "env.tensor_op", "training.baseline", "parallel.run", "parallel.parity",
    "inference.compare", "hardware.cpu", "dataset.lint", "engineering.checkpoint",
    "engineering.checkpoint_load", "engineering.exports", "engineering.logs",
    "engineering.reproducible", "engineering.permissions",
}  # fmt: skip


def _verify(workspace: Path, *args: str) -> tuple[Result, dict[str, Any]]:
    result = CliRunner().invoke(build_cli(), ["--workspace", str(workspace), "verify", "--json", *args])
    doc = json.loads(result.stdout) if result.stdout.strip() else {}
    return result, doc


def _items(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in doc["items"]}


def test_fresh_workspace_lists_every_item_not_run_with_its_command(tmp_path: Path) -> None:
    result, doc = _verify(tmp_path / "ws")
    assert result.exit_code == 0, result.output  # "not run" is not a failure ...
    items = _items(doc)
    assert set(items) == ALL_IDS
    for item in items.values():
        assert item["status"] == "not run", item
        assert item["command"].startswith("paddle-workbench "), item
        assert set(item) == {"id", "layer", "status", "evidence", "command"}
    assert items["env.check"]["command"] == "paddle-workbench check"
    assert items["parallel.parity"]["command"] == "paddle-workbench plan parity RUN_A RUN_B"
    strict, doc = _verify(tmp_path / "ws", "--strict")
    assert strict.exit_code == 1 and doc["ok"] is False  # ... unless the release pipeline says so


def test_demo_workspace_passes_and_junit_counts(demo_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ws = demo_workspace.copy(tmp_path)
    junit = tmp_path / "verify.xml"
    result, doc = _verify(ws, "--junit", str(junit), str(REPO / "sample_configs" / "verify.yaml"))
    assert result.exit_code == 0, result.output
    items = _items(doc)
    not_run = {i for i, item in items.items() if item["status"] == "not run"}
    # No parallel run in the demo workspace: plan run needs two ranks (tested in test_parallel_runs).
    assert not_run == {"parallel.run", "parallel.parity"}, items
    assert all(item["status"] == "pass" for i, item in items.items() if i not in not_run), items
    run_id = demo_workspace.run.name
    assert items["parallel.parity"]["command"] == f"paddle-workbench plan parity {run_id} RUN_B"
    suites = ET.parse(junit).getroot()
    assert suites.tag == "testsuites"
    assert (suites.get("tests"), suites.get("failures"), suites.get("skipped")) == ("14", "0", "2")
    cases = suites.findall("testsuite/testcase")
    assert len(cases) == 14 and {c.get("name") for c in cases} == ALL_IDS
    parallel = next(s for s in suites.findall("testsuite") if s.get("name") == "parallel")
    assert parallel.get("skipped") == "2" and parallel.find("testcase/skipped") is not None
    stored = sorted((ws / "reports").glob("verify-*.json"))
    assert stored and oct(stored[-1].stat().st_mode & 0o777) == "0o600"


def test_a_tampered_checkpoint_byte_fails_with_the_file_named(demo_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ws = demo_workspace.copy(tmp_path)
    run = ws / "runs" / demo_workspace.run.name
    newest = max((run / "checkpoints").glob("step-*"), key=lambda p: int(p.name.split("-")[1]))
    weights = newest / "model.pdparams"
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0xFF
    weights.write_bytes(bytes(data))
    junit = tmp_path / "verify.xml"
    result, doc = _verify(ws, "--junit", str(junit))
    assert result.exit_code == 1, result.output
    items = _items(doc)
    assert items["engineering.checkpoint"]["status"] == "fail"
    assert f"{weights}: sha256 differs from the manifest" in items["engineering.checkpoint"]["evidence"]
    assert items["engineering.checkpoint_load"]["status"] == "fail"
    assert doc["ok"] is False
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "2"
    failure = root.find(".//testcase[@name='engineering.checkpoint']/failure")
    assert failure is not None and str(weights) in (failure.get("message") or "")


def test_a_loosened_run_folder_fails_with_the_path_named(demo_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ws = demo_workspace.copy(tmp_path)
    run = ws / "runs" / demo_workspace.run.name
    assert run.stat().st_mode & 0o777 == 0o700  # what training made
    os.chmod(run, 0o755)
    result, doc = _verify(ws)
    assert result.exit_code == 1
    item = _items(doc)["engineering.permissions"]
    assert item["status"] == "fail" and f"{run} (0755)" in item["evidence"]
    assert item["command"] == f"chmod -R go-rwx {ws / 'runs'}"


def test_training_records_owner_only_files_and_the_dataset_fingerprint(demo_workspace) -> None:  # type: ignore[no-untyped-def]
    import yaml

    from workbench.datasets.fingerprint import dataset_fingerprint

    loose = [
        f"{p} {p.stat().st_mode & 0o777:o}"
        for p in [demo_workspace.run, *demo_workspace.run.rglob("*")]
        if p.stat().st_mode & 0o077
    ]
    assert loose == []  # checkpoints and exports included (Paddle writes under the umask)
    env = yaml.safe_load((demo_workspace.run / "run.yaml").read_text(encoding="utf-8"))["environment"]
    assert env["dataset"] == dataset_fingerprint(demo_workspace.data)
    assert env["dataset"]["files"] > 64 + 16 and env["dataset"]["lists"] >= 3  # images + lists


def test_a_parity_report_is_read_by_its_contract(demo_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ws = demo_workspace.copy(tmp_path)
    run = demo_workspace.run.name
    parity = CliRunner().invoke(build_cli(), ["--workspace", str(ws), "plan", "parity", run, run])
    assert parity.exit_code == 0, parity.output
    report = next((ws / "runs" / run / "reports").glob("parity-*.json"))
    assert {"max_abs_diff", "max_rel_diff", "first_divergence_step", "checks"} <= set(
        json.loads(report.read_text())
    )
    _, doc = _verify(ws)
    item = _items(doc)["parallel.parity"]
    assert item["status"] == "pass" and str(report) in item["evidence"]


def test_the_dashboard_engine_never_imports_paddle(demo_workspace) -> None:  # type: ignore[no-untyped-def]
    code = (
        "import sys; from workbench.verify.path import path_steps; "
        f"steps = path_steps({str(demo_workspace.workspace)!r}); "
        "assert 'paddle' not in sys.modules and 'textual' not in sys.modules; "
        "print(' '.join(f'{s.id}={s.state}' for s in steps))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert "environment=done baseline=done parallel=not run" in out.stdout
    assert "inference=done hardware=done" in out.stdout
