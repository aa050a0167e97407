"""One settings model: flags, then PADDLE_WORKBENCH_* variables, then the user config file, then defaults."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.config import ConfigError
from workbench.i18n import detect_language
from workbench.runs import RunStore
from workbench.settings import WorkbenchSettings, resolve_settings
from workbench.settings_sources import CONFIG_ENV, SETTING_KEYS, user_config_path


def _env(tmp_path: Path, text: str | None = None, **variables: str) -> dict[str, str]:
    config = tmp_path / "user" / "config.yaml"
    if text is not None:
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(text)
    return {CONFIG_ENV: str(config), **variables}


def test_defaults_without_any_source(tmp_path: Path) -> None:
    settings = resolve_settings(environ=_env(tmp_path))
    assert settings == WorkbenchSettings()
    assert settings.workspace == Path(".paddle-workbench") and settings.lang is None
    assert not (settings.plain or settings.low_bandwidth or settings.no_color)


def test_flags_win_over_variables_which_win_over_the_file(tmp_path: Path) -> None:
    env = _env(
        tmp_path,
        "workspace: ~/from-file\ntheme: light\nlang: zh\nlow_bandwidth: true\n",
        PADDLE_WORKBENCH_THEME="high-contrast",
        PADDLE_WORKBENCH_WORKSPACE=str(tmp_path / "from-env"),
    )
    settings = resolve_settings(environ=env)
    assert settings.workspace == tmp_path / "from-env"  # variable over file
    assert settings.theme == "high-contrast" and settings.lang == "zh" and settings.low_bandwidth
    flagged = resolve_settings({"theme": "dark", "workspace": None, "lang": "en"}, environ=env)
    assert flagged.theme == "dark" and flagged.lang == "en"  # flag over variable and file
    assert flagged.workspace == tmp_path / "from-env"  # None is "flag not given"
    only_file = resolve_settings(environ=_env(tmp_path, "workspace: ~/from-file\n"))
    assert only_file.workspace == Path("~/from-file").expanduser()


def test_no_color_follows_the_convention_and_its_own_variable(tmp_path: Path) -> None:
    assert resolve_settings(environ=_env(tmp_path, NO_COLOR="1")).no_color
    assert not resolve_settings(environ=_env(tmp_path, NO_COLOR="")).no_color
    assert not resolve_settings(environ=_env(tmp_path, NO_COLOR="1", PADDLE_WORKBENCH_NO_COLOR="0")).no_color


def test_every_bad_source_is_reported_at_once_with_where_it_came_from(tmp_path: Path) -> None:
    env = _env(tmp_path, "lang: zh\nthme: dark\nplain: 3\n", PADDLE_WORKBENCH_LOW_BANDWIDTH="maybe")
    with pytest.raises(ConfigError) as caught:
        resolve_settings(environ=env)
    messages = [str(issue) for issue in caught.value.issues]
    config = env[CONFIG_ENV]
    assert any(
        m.startswith(f"{config}:2:1: unknown key 'thme'") and "did you mean 'theme'" in m for m in messages
    )
    assert any(m.startswith(f"{config}:3:8: 'plain': should be true or false") for m in messages)
    assert any(
        m == "PADDLE_WORKBENCH_LOW_BANDWIDTH: should be true or false (got 'maybe')" for m in messages
    ), messages
    assert len(messages) == 3


def test_locale_style_languages_are_accepted_and_others_refused(tmp_path: Path) -> None:
    assert resolve_settings(environ=_env(tmp_path, PADDLE_WORKBENCH_LANG="zh_CN.UTF-8")).lang == "zh"
    assert detect_language(_env(tmp_path, PADDLE_WORKBENCH_LANG="ZH-cn", LANG="en_US.UTF-8")) == "zh"
    with pytest.raises(ConfigError, match="PADDLE_WORKBENCH_LANG: should be one of 'en', 'zh'"):
        resolve_settings(environ=_env(tmp_path, PADDLE_WORKBENCH_LANG="fr"))


def test_an_empty_user_file_is_no_settings_not_an_error(tmp_path: Path) -> None:
    assert resolve_settings(environ=_env(tmp_path, "# nothing yet\n")) == WorkbenchSettings()


def test_the_model_and_the_sources_name_the_same_settings_each_with_a_docstring() -> None:
    assert tuple(f.name for f in dataclasses.fields(WorkbenchSettings)) == SETTING_KEYS
    source = Path(sys.modules[WorkbenchSettings.__module__].__file__ or "").read_text()
    [cls] = [
        n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == "WorkbenchSettings"
    ]
    body = cls.body
    for index, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            following = body[index + 1] if index + 1 < len(body) else None
            assert isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant), (
                node.target.id
            )


def test_language_and_workspace_readers_use_the_same_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env(tmp_path, f"lang: zh\nworkspace: {tmp_path / 'ws-from-file'}\n")
    assert detect_language({**env, "LANG": "en_US.UTF-8"}) == "zh"
    monkeypatch.setenv(CONFIG_ENV, env[CONFIG_ENV])
    monkeypatch.delenv("PADDLE_WORKBENCH_LANG")
    assert RunStore().workspace == tmp_path / "ws-from-file"
    assert user_config_path() == Path(env[CONFIG_ENV])


def test_the_cli_reads_settings_from_the_user_file_and_rejects_a_broken_one(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    env = {**subprocess_env, **_env(tmp_path, f"workspace: {tmp_path / 'ws-from-file'}\n")}
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "runs", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["workspace"] == str(tmp_path / "ws-from-file")
    Path(env[CONFIG_ENV]).write_text("plain: sometimes\n")
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--lang", "zh", "runs"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{env[CONFIG_ENV]}:1:8: 'plain'：应为 true 或 false" in result.stderr


def test_a_command_and_the_helpers_it_calls_read_the_same_settings() -> None:
    import click
    from click.testing import CliRunner

    from workbench.cli.output import human_console
    from workbench.cli.root import build_cli
    from workbench.cli.state import current_settings, pass_settings

    seen: dict[str, object] = {}

    def probe_command() -> click.Command:
        @click.command("probe")
        @pass_settings
        def probe(settings: WorkbenchSettings) -> None:
            seen.update(settings=settings, current=current_settings(), no_color=human_console().no_color)

        return probe

    root = build_cli()
    root.add_command(probe_command())
    result = CliRunner().invoke(root, ["--plain", "probe"], env={"PADDLE_WORKBENCH_NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    settings = seen["settings"]
    assert isinstance(settings, WorkbenchSettings) and settings.plain and settings.no_color
    assert seen["current"] is settings and seen["no_color"] is True
