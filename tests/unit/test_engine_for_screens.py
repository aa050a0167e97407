"""Engine pieces behind the screens' fixes of issue 13: the start-up environment, packaged samples,
config issues in file order with "did you mean", the CPU figure, partial reports, one formatter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.config import ConfigError
from workbench.config.loader import load_model
from workbench.config.training import TrainingConfig
from workbench.envcheck import CheckReport, Facts, Finding, SystemMonitor
from workbench.envcheck.report import markdown_report
from workbench.envcheck.rules import default_rules
from workbench.formatting import STATUS_ICONS, format_duration, format_value
from workbench.samples import find_sample, resolve_config, sample_names

REPO = Path(__file__).parents[2]


def test_checks_see_the_environment_of_process_start(subprocess_env: dict[str, str]) -> None:
    """What the workbench (or Paddle) sets in its own process later is not the user's environment."""
    env = {k: v for k, v in subprocess_env.items() if k not in ("GLOG_minloglevel", "OMP_NUM_THREADS")}
    env["FLAGS_user_set"] = "1"
    code = (
        "import os, json\n"
        "from workbench.envcheck.probes import ProbeContext, probe_environment\n"
        "from workbench.envcheck import Facts\n"
        "os.environ['GLOG_minloglevel'] = '2'; os.environ['OMP_NUM_THREADS'] = '1'\n"
        "print(json.dumps(probe_environment(ProbeContext(), Facts())['variables']))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    variables = json.loads(out.stdout)
    assert variables.get("FLAGS_user_set") == "1"
    assert "GLOG_minloglevel" not in variables and "OMP_NUM_THREADS" not in variables


def test_samples_are_package_data_and_resolve_by_name(tmp_path: Path) -> None:
    names = sample_names()
    assert names == sorted(p.name for p in (REPO / "sample_configs").glob("train_*.yaml"))
    assert find_sample("train_cls_demo") == "train_cls_demo.yaml"
    assert find_sample("some/dir/train_cls_demo.yaml") is None  # a path means that path
    copy = resolve_config("train_cls_demo.yaml", tmp_path / "ws")
    assert copy == tmp_path / "ws" / "samples" / "train_cls_demo.yaml"
    cfg = load_model(copy, TrainingConfig)
    assert cfg.data_dir(copy) == tmp_path / "ws" / "samples" / ".." / "demo_data" / "cls"
    existing = tmp_path / "mine.yaml"
    existing.write_text("x: 1\n")
    assert resolve_config(existing, tmp_path / "ws") == existing


def test_config_issues_come_in_file_order_with_did_you_mean(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "task: image_classification\n"
        "data:\n  dir: d\n  format: cls\n"
        "model:\n  name: small_cnn\n"
        "train:\n  steps: -5\n  optimizer: momentun\n  batch_size: 0\n  lr_schedule: cosinee\n"
    )
    with pytest.raises(ConfigError) as info:
        load_model(path, TrainingConfig)
    lines = [issue.line for issue in info.value.issues]
    assert lines == sorted(lines) and len(lines) == 4
    hints = {issue.message.split("'")[1]: issue.hint for issue in info.value.issues}
    assert "momentum" in hints["train.optimizer"]
    assert "cosine" in hints["train.lr_schedule"]


def test_cpu_figure_is_measured_over_an_interval() -> None:
    """The first sample after start-up measures a real interval (it read 0% while cores were busy)."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        assert SystemMonitor().sample().cpu_percent > 0
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()


def test_partial_report_names_what_had_not_run() -> None:
    rules = default_rules()[:3]
    done = [Finding(rules[0].id, "pass", "fine")]
    text = markdown_report(CheckReport(done, Facts(), 0.0, 0.0, rules=rules))
    assert "Partial report — 2 checks had not run" in text
    assert f"`{rules[1].id}`" in text and f"`{rules[2].id}`" in text
    whole = markdown_report(CheckReport(done, Facts(), 0.0, 0.0, rules=rules[:1]))
    assert "Partial" not in whole


def test_one_formatter_set() -> None:
    assert format_value(None) == "-" and format_value(float("nan")) == "nan"
    assert format_value(0.5) == "0.5000" and format_value(1e-5) == "1.000e-05"
    assert format_duration(42) == "42s" and format_duration(185) == "3m 05s"
    assert STATUS_ICONS["interrupted"] == STATUS_ICONS["warn"]
    from workbench.envcheck import report
    from workbench.screens import env, formatting

    assert formatting.STATUS_ICONS is STATUS_ICONS and env.STATUS_ICONS is STATUS_ICONS
    assert not hasattr(report, "STATUS_ICONS")


def test_a_glance_value_keeps_five_significant_digits() -> None:
    """Chart titles: ``1183.8`` and ``100``, not ``1183.7995`` and ``100.0000`` (seen at 120x40)."""
    from workbench.formatting import format_glance

    assert [format_glance(v) for v in (1183.7995, 100.0, 0.0075, 455.3, 0.00409123, None)] == [
        "1183.8",
        "100",
        "0.0075",
        "455.3",
        "0.0040912",
        "-",
    ]
    assert format_glance(float("nan")) == "nan"
