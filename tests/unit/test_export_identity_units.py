"""The pieces of an export's identity on real files: the user's code closure, model code files, the key,
and the train-form operators of a PIR program (no Paddle needed)."""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.inference.code_identity import changed_files, code_closure, file_hash, is_user_code
from workbench.inference.export import export_key, key_differences
from workbench.inference.findings import detect_program_train_ops
from workbench.inference.ops import train_form_ops

USER_CODE = """
import json

MEAN = [0.5, 0.25]
SCALE = 2
UNUSED = 7


def normalise(x):
    return [(v - m) * SCALE for v, m in zip(x, MEAN)]


class Items:
    def __getitem__(self, i):
        return normalise([i, i])


class Net:  # stands in for a model class: skipped below
    def forward(self, x):
        return x * UNUSED


def build(cfg):
    return Items(), Net(), json.dumps(cfg)
"""


@pytest.fixture
def load(tmp_path: Path) -> Iterator[types.SimpleNamespace]:
    names: list[str] = []

    def _load(name: str, text: str) -> types.ModuleType:
        path = tmp_path / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        names.append(name)
        spec.loader.exec_module(module)
        return module

    yield types.SimpleNamespace(module=_load, dir=tmp_path)
    for name in names:
        sys.modules.pop(name, None)


def test_closure_follows_the_users_code_and_constants_not_the_model_or_libraries(
    load: types.SimpleNamespace,
) -> None:
    first = load.module("user_code_a", USER_CODE)
    pieces = code_closure([first.build], skip=lambda obj: getattr(obj, "__name__", "") == "Net")
    assert set(pieces) == {
        "user_code_a:build", "user_code_a:Items", "user_code_a:normalise", "user_code_a:MEAN",
        "user_code_a:SCALE",
    }  # fmt: skip
    assert is_user_code(first) and not is_user_code(json)
    # A changed constant changes its piece only; a changed model class changes nothing here.
    second = load.module("user_code_b", USER_CODE.replace("MEAN = [0.5, 0.25]", "MEAN = [0.45, 0.25]"))
    third = load.module("user_code_c", USER_CODE.replace("x * UNUSED", "x * UNUSED * 2"))
    skip_net = {"skip": lambda obj: getattr(obj, "__name__", "") == "Net"}
    b = code_closure([second.build], **skip_net)
    c = code_closure([third.build], **skip_net)
    strip = {k.split(":", 1)[1]: v["hash"] for k, v in pieces.items()}
    assert {k.split(":", 1)[1]: v["hash"] for k, v in c.items()} == strip
    changed = [k for k, v in b.items() if strip[k.split(":", 1)[1]] != v["hash"]]
    assert changed == ["user_code_b:MEAN"]


def test_changed_files_and_the_key_say_what_differs(tmp_path: Path) -> None:
    model = tmp_path / "net.py"
    model.write_text("class Net: pass\n", encoding="utf-8")
    files = {str(model): file_hash(model)}
    assert changed_files(files) == []
    model.write_text("class Net:\n    fixed = True\n", encoding="utf-8")
    assert changed_files(files) == [str(model)]
    model.unlink()
    assert changed_files(files) == [str(model)]

    spec = [types.SimpleNamespace(name="x", shape=[-1, 8], dtype="float32")]
    preprocess = {"name": "p", "config_hash": "c", "code_hash": "h"}
    before = export_key(
        weights="w", code={"hash": "a"}, preprocess=preprocess, input_spec=spec, paddle_version="3.3.1"
    )
    after = export_key(
        weights="w", code={"hash": "b"}, preprocess=preprocess, input_spec=spec, paddle_version="3.3.1"
    )
    assert key_differences(before, before) == []
    assert key_differences(before, after) == ["model_code"]
    assert key_differences(None, after) == ["key"]


def _op(name: str, **attrs: object) -> dict[str, object]:
    return {"#": f"1.{name}", "A": [{"AT": {"#": "0.a_any", "D": v}, "N": k} for k, v in attrs.items()]}


def test_train_form_ops_and_what_the_findings_make_of_them(tmp_path: Path) -> None:
    program = {
        "regions": [{"blocks": [{"ops": [
            {"#": "p"}, _op("data"),
            _op("dropout", is_test=True, struct_name="/Net/Dropout/"),  # a Dropout layer: fine
            _op("dropout", is_test=True, struct_name="/Net/Block/"),  # F.dropout in Block.forward
            _op("dropout", is_test=True),  # F.dropout in the model's own forward
            _op("batch_norm_", is_test=True, use_global_stats=True, struct_name="/Net/BatchNorm2D/"),
            _op("batch_norm_", is_test=True, use_global_stats=False, struct_name="/Net/"),
            _op("gaussian", seed=0), {"#": "0.combine"},
        ]}]}],
    }  # fmt: skip
    (tmp_path / "model.json").write_text(json.dumps({"program": program}), encoding="utf-8")
    found = train_form_ops(program)
    assert [(e["kind"], e["where"]) for e in found] == [
        ("functional_dropout", "/Net/Block/"), ("functional_dropout", "/"),
        ("batch_norm_train", "/Net/"), ("random", "/"),
    ]  # fmt: skip
    ops = {"train_form": found}
    exceeds = [{"name": "jit_load", "status": "exceeds", "deliberate": False, "max_abs_diff": 1.8}]
    agrees = [{"name": "jit_load", "status": "ok", "deliberate": False, "max_abs_diff": 0.0}]
    shown = {f.id: f for f in detect_program_train_ops(ops, [], {"repeatable": False}, exceeds)}
    assert shown["program_functional_dropout"].severity == "fail"
    assert "training=True" in shown["program_functional_dropout"].summary
    assert "/Net/Block/" in shown["program_functional_dropout"].summary
    assert shown["program_batch_norm_train"].severity == "fail"
    assert shown["program_random"].severity == "warn"
    quiet = {f.id: f for f in detect_program_train_ops(ops, [], {"repeatable": True}, agrees)}
    assert quiet["program_functional_dropout"].severity == "info"
    assert "training=True" not in quiet["program_functional_dropout"].summary
    assert detect_program_train_ops({}, [], {}, exceeds) == []
