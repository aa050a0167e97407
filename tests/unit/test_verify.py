"""The verify engine's parts without Paddle: config kind, JUnit XML, owner-only files, fingerprints, bad input."""

from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from workbench.cli.root import build_cli
from workbench.config import validate_file
from workbench.datasets.fingerprint import dataset_fingerprint
from workbench.runs import RunStore, atomic_write_text, tighten
from workbench.verify import VerifyConfig, collect
from workbench.verify.engine import VerifyResult
from workbench.verify.junit import to_junit
from workbench.verify.layers import LAYERS
from workbench.verify.model import FAIL, NOT_RUN, PASS, Item

REPO = Path(__file__).resolve().parents[2]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_sample_verify_config_is_a_validate_kind() -> None:
    kind, model = validate_file(REPO / "sample_configs" / "verify.yaml")
    assert kind.name == "verify" and isinstance(model, VerifyConfig)
    assert model.targets == ["cpu"] and model.tolerances.inference_abs == 1e-4


def test_a_bad_verify_config_lists_every_problem_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "verify.yaml"
    bad.write_text("targets: cpu\ntolerances:\n  inference_abs: -1\n  nosuch: 2\n", encoding="utf-8")
    result = CliRunner().invoke(build_cli(), ["--workspace", str(tmp_path / "ws"), "verify", str(bad)])
    assert result.exit_code == 2
    text = result.output
    assert f"{bad}:1" in text and f"{bad}:3" in text and f"{bad}:4" in text, text
    assert "Traceback" not in text
    assert CliRunner().invoke(build_cli(), ["validate", str(bad)]).exit_code == 2


def test_junit_counts_and_strict() -> None:
    items = [
        Item("a.one", "a", PASS, "fine"),
        Item("a.two", "a", FAIL, "broken <file>", "fix it"),
        Item("b.one", "b", NOT_RUN, "nothing yet", "paddle-workbench make"),
    ]
    root = ET.fromstring(to_junit(VerifyResult(items)))
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("3", "1", "1")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert suites["a"].get("failures") == "1" and suites["b"].get("skipped") == "1"
    assert root.find(".//testcase[@name='a.two']/failure").get("message") == "broken <file>"  # type: ignore[union-attr]
    assert "paddle-workbench make" in root.find(".//testcase[@name='b.one']/skipped").get("message")  # type: ignore[union-attr,operator]
    strict = ET.fromstring(to_junit(VerifyResult(items, strict=True)))
    assert (strict.get("failures"), strict.get("skipped")) == ("2", "0")
    assert VerifyResult(items[:1] + items[2:]).ok and not VerifyResult(items[:1] + items[2:], strict=True).ok


def test_run_folders_and_written_files_are_owner_only(tmp_path: Path) -> None:
    os.umask(0o022)
    handle = RunStore(tmp_path / "ws").create("x", {"a": 1})
    handle.write_log("hello\n")
    handle.close()
    assert _mode(handle.run_dir) == 0o700
    for name in ("run.yaml", "state.json", "events.jsonl", "logs.txt"):
        assert _mode(handle.run_dir / name) == 0o600, name
    loose = handle.run_dir / "checkpoints" / "step-1"
    loose.mkdir(parents=True, mode=0o755)
    (loose / "w").write_text("x")
    os.chmod(loose / "w", 0o644)
    tighten(handle.run_dir)
    assert (_mode(loose), _mode(loose / "w")) == (0o700, 0o600)
    atomic_write_text(tmp_path / "r.json", "{}")
    assert _mode(tmp_path / "r.json") == 0o600


def test_dataset_fingerprint_changes_with_a_list_line_or_an_image(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "images").mkdir(parents=True)
    (data / "images" / "a.png").write_bytes(b"12345")
    (data / "train.txt").write_text("images/a.png 0\n")
    first = dataset_fingerprint(data)
    assert first == dataset_fingerprint(data) and (first["files"], first["lists"]) == (2, 1)
    (data / "train.txt").write_text("images/a.png 1\n")
    second = dataset_fingerprint(data)
    assert second["sha256"] != first["sha256"]
    (data / "images" / "a.png").write_bytes(b"123456")
    assert dataset_fingerprint(data)["sha256"] != second["sha256"]


def test_fresh_workspace_collect_is_all_not_run_without_paddle(tmp_path: Path) -> None:
    result = collect(tmp_path / "ws", deep=False)
    assert {i.status for i in result.items} == {NOT_RUN} and result.ok
    assert [name for name in LAYERS.names()] == [
        "environment", "training", "parallel", "inference", "hardware", "dataset", "engineering"
    ]  # fmt: skip
    assert LAYERS.silent_modules() == []


def test_verify_json_contract_on_a_fresh_workspace(tmp_path: Path) -> None:
    result = CliRunner().invoke(build_cli(), ["--workspace", str(tmp_path / "ws"), "verify", "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["ok"] is True
    assert {"ok", "items"} <= set(doc)
    assert doc["counts"] == {"pass": 0, "fail": 0, "not run": 14}
    stored = list((tmp_path / "ws" / "reports").glob("verify-*.json"))
    assert len(stored) == 1 and _mode(stored[0]) == 0o600 and _mode(stored[0].parent) == 0o700
