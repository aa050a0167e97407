"""The command line: the stable surface, exit codes, bad input without tracebacks, both languages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from workbench.i18n import set_language

DESIGN_COMMANDS = [
    "validate", "check", "train", "plan", "compare", "attach", "dataset", "diagnose", "verify", "report", "serve", "loadtest",
]  # fmt: skip


def wb(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_help_lists_every_command_of_the_design() -> None:
    result = wb("--help")
    assert result.returncode == 0
    for command in DESIGN_COMMANDS + ["tui"]:
        assert f"\n  {command} " in result.stdout, command


def test_help_in_chinese() -> None:
    result = wb("--lang", "zh", "--help")
    assert result.returncode == 0
    assert "用法" in result.stdout and "选项" in result.stdout and "显示此帮助并退出" in result.stdout
    assert "检查工作台 YAML 文件" in result.stdout


def test_commands_come_from_one_ordered_table() -> None:
    """``--help`` lists the table's commands in its order; each entry names a factory that exists and
    builds the command of that name (checked without running it)."""
    from workbench.cli.root import COMMANDS, build_cli, command_factory

    root = build_cli()
    assert root.list_commands(click.Context(root)) == list(COMMANDS)
    assert set(DESIGN_COMMANDS) | {"tui", "runs", "web"} == set(COMMANDS)
    for name in COMMANDS:
        assert command_factory(name)().name == name


def test_help_lists_each_command_as_the_command_itself_would() -> None:
    """``--help`` lists commands from the catalog without building them; each built command agrees."""
    from workbench.cli.root import build_cli

    for language in ("en", "zh"):
        set_language(language)
        try:
            root = build_cli()
            names = root.list_commands(click.Context(root))
            listed = {name: root.listed_help(name, 60) for name in names}
            for name in names:
                command = root.get_command(click.Context(root), name)
                assert command is not None
                assert command.get_short_help_str(60) == listed[name], (language, name)
        finally:
            set_language("en")


def test_unknown_option_is_bad_input() -> None:
    result = wb("validate", "--no-such-flag", "x.yaml")
    assert result.returncode == 2 and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["validate", "train"])
def test_malformed_yaml_gives_located_messages_and_exit_2(tmp_path: Path, command: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("task: image_classification\ndata: {dir: d}\ntrain: {steps: many, lern_rate: 0.1}\n")
    syntax = tmp_path / "syntax.yaml"
    syntax.write_text("task: [oops\n")
    files = [str(bad), str(syntax)] if command == "validate" else [str(bad)]
    result = wb(command, *files)
    assert result.returncode == 2
    assert "Traceback" not in result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert f"{bad}:3:16: 'train.steps'" in out
    assert f"{bad}:3:22: unknown key 'train.lern_rate'" in out
    if command == "validate":
        assert f"{syntax}:2:1: YAML syntax error" in out


def test_validate_json_document(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("task: image_classification\ndata: {dir: d}\ntrain: {steps: 0}\n")
    result = wb("validate", str(bad), "--json")
    assert result.returncode == 2
    doc = json.loads(result.stdout)
    assert doc["ok"] is False
    [error] = doc["errors"]
    assert {"file", "line", "col", "message"} <= set(error) and error["line"] == 3


def test_validate_accepts_every_sample_config() -> None:
    samples = sorted(Path(__file__).parents[2].joinpath("sample_configs").glob("*.yaml"))
    assert samples, "sample_configs/ must hold at least one sample"
    result = wb("validate", *map(str, samples))
    assert result.returncode == 0, result.stdout + result.stderr


def test_chinese_cli_messages(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("task: image_classification\ndata: {dir: d}\ntrian: {}\n")
    result = wb("--lang", "zh", "validate", str(bad))
    assert result.returncode == 2
    assert "未知的键 'trian'" in result.stdout and "你是不是想写 'train'" in result.stdout


def test_headless_tui_prints_line_mode_not_textual(tmp_path: Path) -> None:
    result = wb("--workspace", str(tmp_path / "ws"))  # stdout is a pipe here: never Textual
    assert result.returncode == 0
    assert "line mode" in result.stdout and "no runs yet" in result.stdout
    assert "\x1b[?1049h" not in result.stdout  # no alternate screen


def test_runs_json_lists_runs(tmp_path: Path) -> None:
    from workbench.demo import start_demo_job
    from workbench.runs import RunStore

    job = start_demo_job(RunStore(tmp_path / "ws"), steps=5, step_s=0)
    assert job.wait(30)
    result = wb("--workspace", str(tmp_path / "ws"), "runs", "--json")
    doc = json.loads(result.stdout)
    assert [r["status"] for r in doc["runs"]] == ["finished"]


def test_markup_like_paths_are_printed_literally(tmp_path: Path) -> None:
    folder = tmp_path / "[red]"
    folder.mkdir()
    bad = folder / "[bold]x.yaml"
    bad.write_text("task: nope\n")
    result = wb("validate", str(bad))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{bad}:1:7:" in result.stdout


def test_an_unknown_theme_is_exit_2_with_the_choices_for_every_command(tmp_path: Path) -> None:
    """Issue 9.7: ``--theme nope runs`` used to exit 0 (the theme was checked by ``tui`` only)."""
    from click.testing import CliRunner

    from workbench.cli.root import build_cli

    workspace = ["--workspace", str(tmp_path / "ws")]
    bad = CliRunner().invoke(build_cli(), [*workspace, "--theme", "nope", "runs"])
    assert bad.exit_code == 2
    assert "unknown theme 'nope'" in bad.output and "high-contrast" in bad.output
    from_env = CliRunner().invoke(build_cli(), [*workspace, "runs"], env={"PADDLE_WORKBENCH_THEME": "nope"})
    assert from_env.exit_code == 2
    assert CliRunner().invoke(build_cli(), [*workspace, "--theme", "light", "runs"]).exit_code == 0
