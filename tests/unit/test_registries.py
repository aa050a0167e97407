"""Every extension registry of the tree, found by looking, keeps its invariants: every file in its folder
registered something, every entry has a title in both languages and is tested. One new file in a folder
(plus its catalog strings and test) is enough to add a task, an environment rule, a kit-log parser, a
diagnose family (YAML only) or a mode: the example entries below are dropped into the folders and the
same invariants run over them."""

from __future__ import annotations

import contextlib
import importlib
import sys
import textwrap
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from workbench.attach.link import detect_format
from workbench.attach.parsers import PARSERS
from workbench.config import ConfigError, TrainingConfig, load_model
from workbench.envcheck import ProbeContext, default_rules, run_checks
from workbench.envcheck.report import markdown_report
from workbench.envcheck.rules import RULES
from workbench.i18n import catalog, domains
from workbench.registry import Registry
from workbench.screens.modes import MODES
from workbench.training.tasks import TASKS
from workbench.troubleshoot import diagnose
from workbench.troubleshoot.signatures import SIGNATURES

ROOT = Path(__file__).parents[2]

TITLES: dict[str, Callable[[str, Any], list[str]]] = {
    "workbench.training.tasks": lambda name, task: [task.title_key],
    "workbench.envcheck.rules": lambda name, rule: [f"envcheck.title.{name}"],
    "workbench.troubleshoot.signatures": lambda name, sig: [],  # its text is its own: see OWN_TEXTS
    "workbench.troubleshoot.flows": lambda name, flow: [flow.title_key],
    "workbench.attach.parsers": lambda name, parser: [parser.title_key],
    "workbench.inference.paths": lambda name, path: [path.label_key],
    "workbench.verify.layers": lambda name, layer: [],  # shown by its name, an identifier like item ids
    "workbench.screens.modes": lambda name, mode: [mode.title, mode.help],
}
"""Per kind of registry: the catalog keys an entry's user-facing title (and text) live under."""

OWN_TEXTS: dict[str, Callable[[str, Any], list[tuple[str, str]]]] = {
    "workbench.troubleshoot.signatures": lambda name, sig: sig.text.pairs(),
}
"""Per kind of registry whose entries carry their own text: each text as (English, Chinese)."""


def _named_by_a_test(name: str, entry: Any) -> bool:
    """A signature is tested by its examples (each one a case of test_diagnose.py); any other entry is
    named, quoted, by a test."""
    if hasattr(entry, "examples"):
        return bool(entry.examples)
    text = _test_text()
    return f'"{name}"' in text or f"'{name}'" in text


@cache
def _test_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "tests").rglob("*.py"))


def every_registry() -> dict[str, Registry[Any]]:
    """Every registry bound to a folder, found in the packages of the engine and of the UI."""
    found: dict[str, Registry[Any]] = {}
    for folder, prefix in ((ROOT / "workbench", "workbench"), (ROOT / "screens", "workbench.screens")):
        for init in sorted(folder.rglob("__init__.py")):
            if "Registry(" not in init.read_text(encoding="utf-8"):
                continue
            package = ".".join([prefix, *init.parent.relative_to(folder).parts])
            for value in list(vars(importlib.import_module(package)).values()):
                if isinstance(value, Registry) and value.package == package:
                    found[package] = value.load()
    return found


def broken_invariants() -> list[str]:
    """What breaks the invariants, one line each (empty: all kept)."""
    strings = catalog()
    problems: list[str] = []
    for package, registry in every_registry().items():
        if package not in TITLES:
            problems.append(f"{package}: a new kind of registry; say in TITLES where its titles live")
            continue
        if not registry.__doc__ or not registry.names():
            problems.append(f"{package}: empty or undocumented")
        problems += [f"{package}: {module} registered nothing" for module in registry.silent_modules()]
        for name, entry in registry.items():
            for key in TITLES[package](name, entry):
                english, chinese = strings.get(key, ("", ""))
                if not (english.strip() and chinese.strip()):
                    problems.append(f"{package}: {name}: {key} is not in the catalog in both languages")
            for english, chinese in OWN_TEXTS.get(package, lambda name, entry: [])(name, entry):
                if not (english.strip() and chinese.strip()):
                    problems.append(f"{package}: {name}: a text is not in both languages")
            if not _named_by_a_test(name, entry):
                problems.append(f"{package}: {name} is named by no test")
    return problems


def test_every_registry_keeps_its_invariants() -> None:
    registries = every_registry()
    assert {"workbench.training.tasks", "workbench.envcheck.rules", "workbench.screens.modes"} <= set(
        registries
    )
    assert broken_invariants() == []


def test_a_broken_entry_breaks_the_invariants(tmp_path: Path) -> None:
    """The invariants are not vacuous: an untranslated, untested rule and a file that registers nothing fail."""
    _write(tmp_path, "untested_area.py", UNTESTED_RULE)
    _write(tmp_path, "forgot.py", "VALUE = 1\n")
    with RULES.extra_folder(tmp_path):
        problems = broken_invariants()
    untested = "workbench.envcheck.rules: " + "un" + "tested.rule"  # not quoted whole: no test names it
    assert f"{untested}: envcheck.title.untested.rule is not in the catalog in both languages" in problems
    assert f"{untested} is named by no test" in problems
    assert "workbench.envcheck.rules: workbench.envcheck.rules.forgot registered nothing" in problems
    assert broken_invariants() == []


def test_catalog_domains_are_every_module_of_the_messages_folder() -> None:
    folder = ROOT / "workbench" / "i18n" / "messages"
    assert domains() == sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    assert {"cli", "troubleshoot", "wizard"} <= set(domains())


# -- one new file per entry ---------------------------------------------------------------------------

UNTESTED_RULE = """\
from workbench.envcheck.rules import RULES, Rule, Verdict

RULES.register("un" + "tested.rule", Rule("un" + "tested.rule", ("environment",), lambda facts: Verdict("pass", "ok")))
"""

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

EXAMPLE_PARSER = """\
import re

from workbench.attach.parsers import PARSERS, LogParser

LINE = re.compile(r"example-kit step (\\d+) loss ([0-9.]+) lr ([0-9.]+)")


def detect(lines):
    return any(line.startswith("example-kit ") for line in lines)


def parse(line):
    found = LINE.search(line)
    if found is None:
        return None
    return {"step": float(found[1]), "loss": float(found[2]), "lr": float(found[3])}


PARSERS.register("example_kit", LogParser(title_key="attach.format.example_kit", detect=detect, parse_line=parse))
"""

EXAMPLE_FAMILY = """\
# An example family: one YAML file, no Python beside it.
signatures:
  - id: example.widget_broke
    keys: [WIDGET]
    patterns: ['WIDGET-\\d+ broke']
    examples: ['WIDGET-7 broke']
    text:
      en: {title: A widget broke, cause: The widget broke., fix: Replace the widget.}
      zh: {title: 部件损坏, cause: 部件损坏了。, fix: 更换部件。}
"""

EXAMPLE_MODE = """\
from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "example_mode",
    ModeSpec(factory="workbench.screens.runs:RunsScreen", title="mode.example_mode", help="mode.example_mode.what"),
    order=70,
)
"""

EXAMPLE_STRINGS = """\
MESSAGES = {
    "training.task.example_regression": ("Example regression", "示例回归"),
    "envcheck.title.example.rule": ("Example rule", "示例规则"),
    "attach.format.example_kit": ("Example kit log", "示例套件日志"),
    "mode.example_mode": ("Example", "示例"),
    "mode.example_mode.what": ("An example mode.", "示例模式。"),
}
"""


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


@contextlib.contextmanager
def extra_strings(folder: Path) -> Iterator[list[str]]:
    """The catalog reads the domain modules of ``folder`` too, inside the block (domains are found, not
    listed, so a new one is one new file)."""
    from workbench.i18n import messages

    before = set(domains())
    messages.__path__.append(str(folder))
    catalog.cache_clear()
    try:
        yield sorted(set(domains()) - before)
    finally:
        messages.__path__.remove(str(folder))
        for path in folder.glob("*.py"):
            sys.modules.pop(f"{messages.__name__}.{path.stem}", None)
        catalog.cache_clear()


def test_each_kind_of_entry_is_one_new_file_and_keeps_the_invariants(tmp_path: Path) -> None:
    """A task, an environment rule, a kit-log parser, a diagnose family (YAML only), a mode and a new
    catalog domain for their strings: each one file in its folder, nothing else edited; the invariants
    hold with them, and each is where users meet it."""
    with contextlib.ExitStack() as stack:
        added = {
            "domain": stack.enter_context(extra_strings(_write(tmp_path / "msg", "example_strings.py", EXAMPLE_STRINGS))),
            "task": stack.enter_context(TASKS.extra_folder(_write(tmp_path / "tasks", "example_regression.py", EXAMPLE_TASK))),
            "rule": stack.enter_context(RULES.extra_folder(_write(tmp_path / "rules", "example_area.py", EXAMPLE_RULE))),
            "parser": stack.enter_context(PARSERS.extra_folder(_write(tmp_path / "parsers", "example_kit.py", EXAMPLE_PARSER))),
            "family": stack.enter_context(SIGNATURES.extra_folder(_write(tmp_path / "sigs", "example.yaml", EXAMPLE_FAMILY))),
            "mode": stack.enter_context(MODES.extra_folder(_write(tmp_path / "modes", "example_mode.py", EXAMPLE_MODE))),
        }  # fmt: skip
        assert added == {
            "domain": ["example_strings"], "task": ["example_regression"], "rule": ["example.rule"],
            "parser": ["example_kit"], "family": ["example.widget_broke"], "mode": ["example_mode"],
        }  # fmt: skip
        assert broken_invariants() == []
        log = tmp_path / "train.log"
        log.write_text("example-kit started\nexample-kit step 1 loss 0.5 lr 0.1\n", encoding="utf-8")
        assert detect_format(log) == "example_kit"
        assert diagnose.diagnose_text("x\nWIDGET-7 broke\n").matches[0].id == "example.widget_broke"
        assert MODES.names()[-1] == "example_mode"
    for registry, name in ((TASKS, "example_regression"), (RULES, "example.rule"), (PARSERS, "example_kit")):
        assert name not in registry
    assert "example.widget_broke" not in SIGNATURES and "example_mode" not in MODES
    assert "mode.example_mode" not in catalog()


def test_a_broken_family_file_in_the_folder_is_located(tmp_path: Path) -> None:
    """YAML entries are validated where the registry reads them: the error names file, line and column."""
    _write(
        tmp_path,
        "broken.yaml",
        "signatures:\n  - id: broken.one\n    keys: [x]\n    patterns: ['(unclosed']\n",
    )
    with pytest.raises(ConfigError) as caught, SIGNATURES.extra_folder(tmp_path):
        pass
    located = {(Path(issue.file).name, issue.line) for issue in caught.value.issues}
    assert ("broken.yaml", 4) in located and ("broken.yaml", 2) in located
    assert "broken.one" not in SIGNATURES and len(SIGNATURES) >= 40


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

    code = (
        "import sys\n"
        "from workbench.config import validate_file\n"
        "from workbench.training.tasks import TASKS\n"
        "validate_file('sample_configs/train_rec_demo.yaml')\n"
        "print(len(TASKS), 'paddle' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(len(TASKS)), "False"]


def test_every_task_has_its_sample_config() -> None:
    samples = ROOT / "sample_configs"
    for name, spec in TASKS.items():
        if spec.sample_config is not None:
            sample = load_model(samples / spec.sample_config, TrainingConfig)
            assert sample.task == name
