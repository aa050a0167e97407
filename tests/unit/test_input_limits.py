"""Hostile and out-of-range input is refused at validation (exit 2 material), never later in ``train``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.config import ConfigError, TrainingConfig, load_model
from workbench.config.loader import MAX_DEPTH, MAX_FILE_BYTES
from workbench.config.training import SEED_MAX
from workbench.runs import RunStore
from workbench.training import PrepareError, prepare_training

HEAD = "task: custom\nentry: os.path:join\n"


def _messages(path: Path, overrides: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_model(path, TrainingConfig, overrides)
    return [str(issue) for issue in info.value.issues]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


def _laughs(levels: int) -> str:
    lines = [HEAD + "options:", "  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [7, 9])
def test_alias_bomb_under_options_is_refused_naming_the_alias_limit(tmp_path: Path, levels: int) -> None:
    [message] = _messages(_write(tmp_path, _laughs(levels)))
    assert "aliases expand to" in message and "over the limit of 100000" in message


def test_alias_reused_text_is_counted(tmp_path: Path) -> None:
    text = HEAD + "options:\n  a: &a " + "x" * 100_000 + "\n  b: [" + ", ".join(["*a"] * 60) + "]\n"
    [message] = _messages(_write(tmp_path, text))
    assert "characters of text" in message


def test_modest_aliases_still_work(tmp_path: Path) -> None:
    text = HEAD + "options:\n  base: &b {hidden: 8, depth: 2}\n  copy: *b\n"
    cfg = load_model(_write(tmp_path, text), TrainingConfig)
    assert cfg.options["copy"] == {"hidden": 8, "depth": 2}


def test_an_honest_but_huge_file_is_refused_for_its_size_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with open(path, "w") as fh:
        fh.write(HEAD + "options:\n  x: [")
        fh.truncate(50 * 1024 * 1024)  # 50 MB (sparse): parsing it would take a minute and 0.5 GB
    [message] = _messages(path)
    assert f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB" in message and "alias" not in message


def test_a_pipe_is_read_only_up_to_the_size_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "cfg.yaml"
    os.mkfifo(fifo)
    pid = os.fork()
    if pid == 0:  # the writer: more than the limit, then it is killed by the closed read end
        try:
            with open(fifo, "w") as fh:
                fh.write(HEAD + "options:\n  x: '" + "y" * (MAX_FILE_BYTES + 10) + "'\n")
        finally:
            os._exit(0)
    try:
        [message] = _messages(fifo)
    finally:
        os.waitpid(pid, 0)
    assert "larger than" in message


def test_deep_nesting_is_refused_with_its_location(tmp_path: Path) -> None:
    text = HEAD + "options:\n  x: " + "[" * 300 + "]" * 300 + "\n"
    [message] = _messages(_write(tmp_path, text))
    assert f"more than {MAX_DEPTH} levels" in message
    assert message.startswith(f"{tmp_path / 'cfg.yaml'}:4:")  # the line of options.x


def test_deep_nesting_through_an_override_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, HEAD)
    [message] = _messages(path, ("options.x=" + "[" * 100 + "]" * 100,))
    assert message.startswith("-o options.x=") and "levels" in message
    [message] = _messages(path, ("options." + ".".join(["k"] * 80) + "=1",))
    assert "levels" in message


@pytest.mark.parametrize(
    ("override", "key"),
    [
        ("train.seed=-1", "train.seed"),
        (f"train.seed={SEED_MAX + 1}", "train.seed"),
        ("train.seed=12345678901234567890123", "train.seed"),
        ("train.lr=inf", "train.lr"),
        ("train.lr=.inf", "train.lr"),
        ("train.lr=nan", "train.lr"),
        ("train.weight_decay=.inf", "train.weight_decay"),
        ("alerts.hang_after_s=.inf", "alerts.hang_after_s"),
    ],
)
def test_values_paddle_would_reject_later_are_refused_now(tmp_path: Path, override: str, key: str) -> None:
    [message] = _messages(_write(tmp_path, HEAD), (override,))
    assert message.startswith(f"-o {override}: '{key}'"), message


def test_the_seed_range_paddle_accepts_is_valid(tmp_path: Path) -> None:
    for seed in (0, 2**32, SEED_MAX):
        assert load_model(_write(tmp_path, HEAD), TrainingConfig, (f"train.seed={seed}",)).train.seed == seed


def test_the_override_that_set_a_value_is_the_one_blamed(tmp_path: Path) -> None:
    path = _write(tmp_path, HEAD)
    [message] = _messages(path, ("train.steps=2", "train=5"))
    assert message.startswith("-o train=5: 'train'"), message
    [message] = _messages(path, ("train=5", "train.lr=0.1", "model.width=0"))
    assert message.startswith("-o model.width=0: 'model.width'"), message


def test_faults_that_would_never_fire_are_refused_with_the_range(tmp_path: Path) -> None:
    path = _write(tmp_path, HEAD + "train: {steps: 10}\n")
    store = RunStore(tmp_path / "ws")
    for spec in ("raise@0", "nan@11"):
        with pytest.raises(PrepareError) as info:
            prepare_training(path, store=store, environ={"PADDLE_WORKBENCH_INJECT": spec})
        assert f"{spec} would never fire" in info.value.messages[0]
        assert "between 1 and train.steps (10)" in info.value.messages[0]
    with pytest.raises(PrepareError):
        prepare_training(path, ("debug.inject=hang@12:1",), store=store, environ={})
    assert prepare_training(path, store=store, environ={"PADDLE_WORKBENCH_INJECT": "raise@10"}).faults


@pytest.mark.parametrize("ref", ["", "  "])
def test_an_empty_resume_is_refused(tmp_path: Path, ref: str) -> None:
    with pytest.raises(PrepareError) as info:
        prepare_training(_write(tmp_path, HEAD), resume=ref, store=RunStore(tmp_path / "ws"), environ={})
    assert "--resume needs a value" in info.value.messages[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_laughs(9), "aliases expand to"),
        (HEAD + "options:\n  x: " + "[" * 300 + "]" * 300 + "\n", "levels deep"),
    ],
)
def test_validate_refuses_bombs_and_depth_with_exit_2(
    tmp_path: Path, subprocess_env: dict[str, str], text: str, expected: str
) -> None:
    path = _write(tmp_path, text)
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "validate", str(path)],
        capture_output=True,
        text=True,
        env=subprocess_env,
        timeout=60,
    )
    assert result.returncode == 2 and expected in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
