"""Every YAML problem is reported with file:line:col, all at once, with a fix where one is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.config import ConfigError, TrainingConfig, load_model, validate_file

GOOD = """\
task: image_classification
data: {dir: demo_data/cls, format: cls}
model: {name: small_cnn}
train: {steps: 300, batch_size: 64, lr: 0.01, optimizer: momentum, seed: 42}
eval: {every: 50}
checkpoint: {every: 100, keep: 3}
alerts: {nonfinite: stop, hang_after_s: 60}
export: {enabled: true}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


def _issues(path: Path, overrides: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_model(path, TrainingConfig, overrides)
    return [str(issue) for issue in info.value.issues]


def test_the_design_example_is_valid(tmp_path: Path) -> None:
    config = load_model(_write(tmp_path, GOOD), TrainingConfig)
    assert config.train.steps == 300 and config.data is not None and config.data.format == "cls"
    assert config.data_dir(tmp_path / "cfg.yaml") == tmp_path / "demo_data/cls"


def test_syntax_error_points_at_line_and_column(tmp_path: Path) -> None:
    path = _write(tmp_path, "task: image_classification\ntrain:\n  steps: [1, 2\n  lr: 0.1\n")
    [message] = _issues(path)
    assert message.startswith(f"{path}:4:")
    assert "YAML syntax error" in message


def test_every_problem_is_reported_at_once_with_positions(tmp_path: Path) -> None:
    text = GOOD.replace("steps: 300", "steps: many").replace("optimizer: momentum", "optimiser: momentum")
    text = text.replace("eval: {every: 50}", "eval: {every: 50}\nexprot: {enabled: true}")
    path = _write(tmp_path, text)
    messages = _issues(path)
    assert len(messages) == 3, messages
    assert any(m.startswith(f"{path}:4:16: 'train.steps'") and "'many'" in m for m in messages), messages
    assert any(
        m.startswith(f"{path}:4:")
        and "unknown key 'train.optimiser'" in m
        and "did you mean 'optimizer'" in m
        for m in messages
    ), messages
    assert any(m.startswith(f"{path}:6:1: unknown key 'exprot'") and "'export'" in m for m in messages), (
        messages
    )


def test_missing_required_key_and_wrong_literal(tmp_path: Path) -> None:
    path = _write(tmp_path, "data: {dir: x, format: coco}\n")
    messages = _issues(path)
    assert any("missing required key 'task'" in m and m.startswith(f"{path}:1:1") for m in messages)
    assert any("'data.format'" in m and "'coco'" in m and m.startswith(f"{path}:1:24") for m in messages)


def test_duplicate_keys_are_errors_not_silently_merged(tmp_path: Path) -> None:
    path = _write(tmp_path, "task: custom\nentry: a.b:c\ntask: custom\n")
    [message] = _issues(path)
    assert message.startswith(f"{path}:3:1: key 'task' appears twice")


def test_empty_and_non_mapping_files(tmp_path: Path) -> None:
    assert "empty" in _issues(_write(tmp_path, ""))[0]
    assert "mapping" in _issues(_write(tmp_path, "- a\n- b\n"))[0]
    assert "not found" in _issues(tmp_path / "missing.yaml")[0]


def test_overrides_apply_and_are_validated_like_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    config = load_model(path, TrainingConfig, ("train.steps=40", "eval.every=0"))
    assert config.train.steps == 40 and config.eval.every == 0
    messages = _issues(path, ("train.steps=-1", "nonsense"))
    assert any(m.startswith("-o train.steps=-1: 'train.steps'") for m in messages), messages
    assert any(m.startswith("-o nonsense: an override must look like key.path=value") for m in messages)


def test_custom_task_needs_an_entry(tmp_path: Path) -> None:
    messages = _issues(_write(tmp_path, "task: custom\n"))
    assert any("entry" in m for m in messages)


def test_validate_file_detects_the_kind(tmp_path: Path) -> None:
    kind, model = validate_file(_write(tmp_path, GOOD))
    assert kind.name == "training" and isinstance(model, TrainingConfig)
    with pytest.raises(ConfigError) as info:
        validate_file(_write(tmp_path, "hello: world\n"))
    assert "what kind of workbench file" in str(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\x00b: 1", "YAML syntax error"),
        ("task: &a [*a]\n", "refers to the value that contains it"),
        (
            "a: &a [x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True)
            )
            + "task: [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n",
            "aliases expand to",
        ),
    ],
)
def test_hostile_yaml_is_a_located_error_not_a_traceback_or_a_hang(
    tmp_path: Path, text: str, expected: str
) -> None:
    messages = _issues(_write(tmp_path, text))
    assert any(expected in m for m in messages), messages


def test_chinese_output_has_no_english_validation_text(tmp_path: Path) -> None:
    from workbench.i18n import set_language

    set_language("zh")
    try:
        text = GOOD.replace("steps: 300", "steps: 0").replace("optimizer: momentum", "optimizer: sgdd")
        text = text.replace("batch_size: 64", "batch_size: lots").replace(
            "task: image_classification", "task: image_clasification"
        )
        messages = _issues(_write(tmp_path, text))
        assert any("'train.steps'：应大于 0" in m for m in messages), messages
        assert any("'train.batch_size'：应为整数" in m for m in messages), messages
        assert any(
            "'train.optimizer'：应为以下之一：'sgd', 'momentum', 'adam', 'adamw'" in m for m in messages
        )
        assert any("不是已注册的任务" in m and "你是不是想写 'image_classification'" in m for m in messages)
        model = _issues(
            _write(tmp_path, "task: text_recognition\ndata: {dir: d}\nmodel: {name: small_cnn}\n")
        )
        assert model == [
            f"{tmp_path / 'cfg.yaml'}:3:15: 'model.name'：task: text_recognition 没有模型 'small_cnn'（已知：crnn） (省略 model.name 即使用该任务的默认模型)"
        ]
        for message in messages + model:
            for english in ("Input should", "greater than", "Value error", "valid integer", " or "):
                assert english not in message, message
    finally:
        set_language("en")
