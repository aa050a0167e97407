"""Every extension registry lists what it holds, no file in a registry folder forgets to register, and
one new file in a folder is enough to add a task or an environment rule."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from workbench.config import ConfigError, TrainingConfig, load_model
from workbench.envcheck import ProbeContext, default_rules, run_checks
from workbench.envcheck.report import markdown_report
from workbench.envcheck.rules import RULES
from workbench.i18n import catalog
from workbench.registries import engine_registries
from workbench.training.tasks import TASKS

EXPECTED = {
    "workbench.training.tasks": ["image_classification", "text_recognition", "custom"],
    "workbench.envcheck.rules": [
        "python", "python.venv", "paddle.install", "paddle.import", "paddle.build", "numpy", "tensor_op",
        "run_check.static", "run_check.dygraph", "run_check.parallel", "gpu.driver", "gpu.cuda_version",
        "gpu.compute_capability", "gpu.visible", "gpu.libraries", "ld_library_path", "environment",
        "system.resources", "system.shm", "system.disk",
    ],
    "workbench.troubleshoot.flows": [
        "import_fails", "parallel_hangs", "parallel_worse", "inference_disagrees", "op_unsupported",
        "lowcode_data", "which_path", "training_slow",
    ],
    "workbench.attach.parsers": ["paddleocr", "paddleclas", "paddledetection", "paddlex", "visualdl"],
    "workbench.inference.paths": [
        "dygraph_train", "jit_load", "onnxruntime", "predictor_gpu", "predictor_ir_off", "predictor_ir_on",
        "predictor_memory_optim",
    ],
    "workbench.cli.commands": [
        "tui", "validate", "check", "train", "plan", "compare", "attach", "dataset", "diagnose", "verify", "report",
        "serve", "loadtest", "runs",
    ],
    "workbench.verify.layers": [
        "environment", "training", "parallel", "inference", "hardware", "dataset", "engineering",
    ],
}  # fmt: skip


def test_every_registry_lists_what_it_holds_and_every_module_registered() -> None:
    registries = engine_registries()
    listed = {package: registry.names() for package, registry in registries.items()}
    # The diagnose signatures are many: counted below, listed one by one in test_diagnose.py.
    assert set(listed) == {*EXPECTED, "workbench.troubleshoot.signatures"}, (
        "a registry was added: list it here"
    )
    for package, names in EXPECTED.items():
        assert listed[package] == names, package
    assert len(listed["workbench.troubleshoot.signatures"]) >= 40  # listed one by one in test_diagnose.py
    for package, registry in registries.items():
        assert registry.silent_modules() == [], f"{package}: these modules registered nothing"
        assert registry.__doc__, package


def test_every_task_has_its_catalog_strings_and_sample() -> None:
    samples = Path(__file__).parents[2] / "sample_configs"
    for name, spec in TASKS.items():
        assert spec.title_key in catalog(), name
        if spec.sample_config is not None:
            sample = load_model(samples / spec.sample_config, TrainingConfig)
            assert sample.task == name


EXAMPLE_TASK = """\
from workbench.training.tasks import TASKS, TaskSpec


def build(cfg, ctx):
    raise NotImplementedError("an example: validation is what the test checks")


TASKS.register(
    "example_regression",
    TaskSpec(build=build, title_key="training.task.example_regression", models=("tiny_mlp", "wide_mlp")),
    order=50,
)
"""

EXAMPLE_RULE = """\
from workbench.envcheck.rules import RULES, Rule, Verdict


def check_example(facts):
    variables = facts.value("environment", "variables", {})
    return Verdict("pass", f"the example rule read {len(variables)} variable(s)")


RULES.register("example.rule", Rule("example.rule", ("environment",), check_example), order=35)
"""


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(textwrap.dedent(text))
    return folder


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


def test_a_task_in_one_new_file_is_listed_and_validated(tmp_path: Path) -> None:
    folder = _write(tmp_path / "tasks", "example_regression.py", EXAMPLE_TASK)
    with TASKS.extra_folder(folder) as added:
        assert added == ["example_regression"]
        assert TASKS.names() == ["image_classification", "text_recognition", "example_regression", "custom"]
        assert TASKS.silent_modules() == []
        cfg = load_model(_config(tmp_path, "task: example_regression\n"), TrainingConfig)
        assert cfg.model_name() == "tiny_mlp"
        wide = load_model(
            _config(tmp_path, "task: example_regression\nmodel: {name: wide_mlp}\n"), TrainingConfig
        )
        assert wide.model_name() == "wide_mlp"
        with pytest.raises(ConfigError) as caught:
            load_model(_config(tmp_path, "task: example_regresion\n"), TrainingConfig)
        [issue] = caught.value.issues
        assert issue.line == 1 and issue.col == 7
        assert "did you mean 'example_regression'" in issue.hint
        assert "image_classification, text_recognition, example_regression, custom" in issue.hint
        with pytest.raises(ConfigError, match="has no model 'small_cnn'"):
            load_model(
                _config(tmp_path, "task: example_regression\nmodel: {name: small_cnn}\n"), TrainingConfig
            )
    assert "example_regression" not in TASKS
    with pytest.raises(ConfigError, match="not a registered task"):
        load_model(_config(tmp_path, "task: example_regression\n"), TrainingConfig)


def test_a_rule_in_one_new_file_is_listed_and_shown_in_the_report(tmp_path: Path) -> None:
    folder = _write(tmp_path / "rules", "example_area.py", EXAMPLE_RULE)
    with RULES.extra_folder(folder) as added:
        assert added == ["example.rule"]
        ids = [rule.id for rule in default_rules()]
        # order=35: after the smoke tests (30), before the GPU checks (40)
        assert ids.index("run_check.parallel") < ids.index("example.rule") < ids.index("gpu.driver")
        report = run_checks(only=["example.rule"], context=ProbeContext(workspace=tmp_path / "ws"))
        [finding] = [f for f in report.to_dict()["checks"] if f["id"] == "example.rule"]
        assert finding["status"] == "pass" and "the example rule read" in finding["summary"]
        assert "example.rule" in markdown_report(report)
    assert "example.rule" not in [rule.id for rule in default_rules()]


def test_validating_a_config_scans_the_tasks_without_importing_paddle() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from workbench.config import validate_file\n"
        "from workbench.training.tasks import TASKS\n"
        "validate_file('sample_configs/train_rec_demo.yaml')\n"
        "print(len(TASKS), 'paddle' in sys.modules)\n"
    )
    root = Path(__file__).parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(len(EXPECTED["workbench.training.tasks"])), "False"]
