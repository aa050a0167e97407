"""click's own usage errors in the user's language, through the real command line (exit 2 either way)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from workbench.cli.root import build_cli
from workbench.cli.usage_errors import _CLICK_SENTENCES, CatalogUsageError, message_of, say_again
from workbench.i18n import set_language, t

# Each kind of click error a user meets: the arguments, click's English error line, words the Chinese
# error line must carry (click's detail: the option, the offending value, the choices, "did you mean").
CASES = {
    "no-such-option": (["train", "--nope"], "Error: No such option '--nope'.", ["没有选项", "'--nope'"]),
    "the-brief's-example": (["runs", "--limit", "abc"], "Error: No such option '--limit'.", ["'--limit'"]),
    "did-you-mean": (
        ["runs", "--jsn"],
        "Error: No such option '--jsn'. Did you mean '--json'?",
        ["'--jsn'", "'--json'", "是否要用"],
    ),
    "no-such-command": (["trian"], "Error: No such command 'trian'.", ["没有命令", "'trian'"]),
    "not-a-choice": (
        ["dataset", "check", "d", "--format", "xx"],
        "Error: Invalid value for '--format': 'xx' is not one of 'cls', 'rec', 'det', 'coco', 'auto'.",
        ["'--format'", "'xx'", "'cls', 'rec', 'det', 'coco', 'auto'", "取值无效"],
    ),
    "not-a-number": (
        ["dataset", "check", "d", "--workers", "abc"],
        "Error: Invalid value for '--workers': 'abc' is not a valid integer range.",
        ["'--workers'", "'abc'", "整数"],
    ),
    "out-of-range": (
        ["dataset", "check", "d", "--workers", "0"],
        "Error: Invalid value for '--workers': 0 is not in the range 1<=x<=256.",
        ["'--workers'", "1<=x<=256", "不在范围"],
    ),
    "a-file-for-a-folder": (
        ["--workspace", "{file}", "runs"],
        "Error: Invalid value for '--workspace': Directory '{file}' is a file.",
        ["'--workspace'", "'{file}'", "是文件"],
    ),
    "missing-argument": (["validate"], "Error: Missing argument 'FILES...'.", ["缺少参数", "'FILES...'"]),
    "option-needs-values": (
        ["dataset", "check", "d", "--sample", "3"],
        "Error: Option '--sample' requires 2 arguments.",
        ["'--sample'", "2"],
    ),
    "extra-argument": (
        ["runs", "gc", "extra"],
        "Error: Got unexpected extra argument (extra)",
        ["多余的参数", "extra"],
    ),
}

# What may stay Latin in a Chinese error: the program and command names, metavars, the user's own text.
_NAMES = re.compile(
    r"'[^']*'|\bpaddle-workbench\b|\b(?:train|runs|gc|dataset|check|validate|extra)\b|\b[A-Z.]+\b"
)


def _invoke(language: str, args: list[str], afile: Path) -> click.testing.Result:
    set_language(language)  # as workbench.cli.main does from --lang, before the tree is built
    try:
        filled = [arg.format(file=afile) for arg in args]
        return CliRunner().invoke(build_cli(), ["--lang", language, *filled], prog_name="paddle-workbench")
    finally:
        set_language("en")


@pytest.fixture
def afile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "afile"
    path.write_text("not a folder")
    return path


@pytest.mark.parametrize("case", CASES)
def test_click_errors_read_as_before_in_english(case: str, afile: Path) -> None:
    args, english, _ = CASES[case]
    result = _invoke("en", args, afile)
    assert result.exit_code == 2, result.output
    assert english.format(file=afile) in result.stderr.splitlines()
    assert "Traceback" not in result.output


@pytest.mark.parametrize("case", CASES)
def test_click_errors_are_chinese_with_click_s_details_kept(case: str, afile: Path) -> None:
    args, _, kept = CASES[case]
    result = _invoke("zh", args, afile)
    assert result.exit_code == 2, result.output
    error = [line for line in result.stderr.splitlines() if line.startswith("错误：")]
    assert len(error) == 1, result.stderr
    for detail in kept:
        assert detail.format(file=afile) in error[0], result.stderr
    leftover = _NAMES.sub("", result.stderr.replace(str(afile), ""))
    assert not re.search(r"[A-Za-z]{2,}", leftover), result.stderr  # no "Error", "Usage", "Try", "help"...


def test_the_usage_line_and_hint_are_chinese(afile: Path) -> None:
    result = _invoke("zh", ["train", "--nope"], afile)
    assert result.stderr.splitlines()[:2] == [
        "用法： paddle-workbench train [选项] CONFIG",
        "运行 'paddle-workbench train --help' 查看帮助。",
    ]
    assert "[选项] [命令] [参数]..." in _invoke("zh", ["trian"], afile).stderr


def test_english_output_is_click_s_own_word_for_word(afile: Path) -> None:
    """In English the error is shown exactly as click itself shows it (usage, hint, blank line, error)."""
    for args, _, _ in CASES.values():
        try:
            build_cli().main(["--lang", "en", *(a.format(file=afile) for a in args)], standalone_mode=False)
        except CatalogUsageError as exc:
            ours, clicks = io.StringIO(), io.StringIO()
            exc.show(ours)
            exc.original.show(clicks)
            assert ours.getvalue() == clicks.getvalue(), args
        else:
            raise AssertionError(f"{args} raised no usage error")


@pytest.mark.parametrize(
    ("args", "env_lang"),
    [(["--lang", "zh", "runs", "--limit", "abc"], "en"), (["runs", "--limit", "abc"], "zh")],
    ids=["--lang", "PADDLE_WORKBENCH_LANG"],
)
def test_the_installed_command_says_it_in_chinese(args: list[str], env_lang: str) -> None:
    env = dict(os.environ, PADDLE_WORKBENCH_LANG=env_lang)
    result = subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr.endswith("错误：没有选项 '--limit'。\n"), result.stderr
    assert "Error" not in result.stderr and "Usage" not in result.stderr


def test_a_usage_error_under_json_is_chinese_too(afile: Path) -> None:
    env = dict(os.environ, PADDLE_WORKBENCH_LANG="zh")
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(afile), "runs", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2
    message = json.loads(result.stdout)["errors"][0]["message"]
    assert message == f"'--workspace' 的取值无效：目录 '{afile}' 是文件，不是目录。"


def test_a_missing_choice_lists_the_choices_in_the_user_s_language() -> None:
    option = click.Option(["--format"], type=click.Choice(["cls", "det"]), required=True)
    error = click.MissingParameter(ctx=click.Context(click.Command("x")), param=option)
    assert message_of(error) == error.format_message()
    set_language("zh")
    try:
        assert message_of(error) == "缺少选项 '--format'。可选值：\n\tcls,\n\tdet"
    finally:
        set_language("en")


def test_a_command_s_own_message_is_kept() -> None:
    set_language("zh")
    try:
        own = t("cli.check.timeout_positive", value="0")
        assert say_again(own) == own
        assert (
            message_of(click.BadParameter(own, param_hint="'--timeout'")) == f"'--timeout' 的取值无效：{own}"
        )
    finally:
        set_language("en")


def test_the_sentences_are_click_s_and_the_catalog_repeats_them_in_english() -> None:
    """If click rewords a sentence, this fails (the error would fall back to click's English)."""
    source = "".join(
        (Path(click.__file__).parent / name).read_text()
        for name in ("parser.py", "core.py", "types.py", "exceptions.py")
    )
    for template, key in _CLICK_SENTENCES:
        assert template.encode("unicode_escape").decode() in source, template
        assert t(key, lang="en") == template.replace("!r", ""), key
