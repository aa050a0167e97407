"""The rest of ``parallelize``'s vocabulary: sequence-parallel markers, Prepare hooks, sharding_mesh_dim,
recompute, amp and pipeline stages — each validated before launch with a located finding.

The model's facts are written out by hand (a small sequence model: embedding → norm → mlp(fc1, fc2) →
norm2 → head on ``[1, 8, 16]`` activations), so nothing here imports Paddle; the plan files are real
files in tmp, read by ``check_plan`` as ``plan validate`` reads them.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.parallel_helpers import line_of
from workbench.parallel.estimate import Estimate
from workbench.parallel.facts import LayerFact, ModelFacts, ParamFact, facts_from_dict, facts_to_dict
from workbench.parallel.launch import rank_plan, run_config
from workbench.parallel.validate import PlanReport, check_plan

S, H = 8, 16


def seq_facts(device: str = "cpu") -> ModelFacts:
    layers = [
        LayerFact("embed", "Embedding"),
        LayerFact("norm", "LayerNorm"),
        LayerFact("mlp", "MLP"),
        LayerFact("mlp.fc1", "Linear"),
        LayerFact("mlp.fc2", "Linear"),
        LayerFact("norm2", "LayerNorm"),
        LayerFact("head", "Linear"),
        LayerFact("unused", "Linear"),
    ]
    shapes = {
        "embed.weight": (32, H), "norm.weight": (H,), "norm.bias": (H,), "mlp.fc1.weight": (H, 2 * H),
        "mlp.fc1.bias": (2 * H,), "mlp.fc2.weight": (2 * H, H), "mlp.fc2.bias": (H,), "norm2.weight": (H,),
        "norm2.bias": (H,), "head.weight": (H, 4), "head.bias": (4,), "unused.weight": (H, H),
    }  # fmt: skip
    params = [
        ParamFact(name, name.rpartition(".")[0], name.rpartition(".")[2], shape, "float32")
        for name, shape in shapes.items()
    ]
    ins = {
        "embed": (1, S), "norm": (1, S, H), "mlp": (1, S, H), "mlp.fc1": (1, S, H), "mlp.fc2": (1, S, 2 * H),
        "norm2": (1, S, H), "head": (1, S, H),
    }  # fmt: skip
    outs = {
        "embed": (1, S, H), "norm": (1, S, H), "mlp": (1, S, H), "mlp.fc1": (1, S, 2 * H),
        "mlp.fc2": (1, S, H), "norm2": (1, S, H), "head": (1, S, 4),
    }  # fmt: skip
    counts = {name: S * shape[-1] for name, shape in outs.items()}
    return ModelFacts(
        layers=layers,
        params=params,
        activation_bytes_per_sample=4 * sum(counts.values()),
        batch_size=4,
        optimizer="adamw",
        device=device,
        layer_outputs=counts,
        input_shapes=ins,
        output_shapes=outs,
        forward_order=["embed", "norm", "mlp", "mlp.fc1", "mlp.fc2", "norm2", "head"],
        input_needs_grad={name: name != "embed" for name in ins},  # the embedding takes the token ids
    )


MESH = "mesh: {shape: [1, 2], dim_names: [dp, mp]}\n"
SP_RANGE = """\
layers:
  - {match: embed, plan: SequenceParallelBegin}
  - {match: mlp, plan: SequenceParallelDisable}
  - {match: mlp.fc1, plan: ColWiseParallel}
  - {match: mlp.fc2, plan: RowWiseParallel}
  - {match: head, plan: SequenceParallelEnd}
"""
GOOD = MESH + SP_RANGE + "recompute:\n  - {match: mlp}\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "train.yaml").write_text("task: custom\nentry: seq_model:build\n")  # facts are given
    return tmp_path


def check(folder: Path, body: str, *, nproc: int = 2, device: str = "cpu") -> tuple[PlanReport, Path]:
    path = folder / "plan.yaml"
    path.write_text("train: train.yaml\n" + textwrap.dedent(body))
    return check_plan(path, nproc=nproc, facts=seq_facts(device)), path


def test_sequence_parallel_and_recompute_plan_validates(folder: Path) -> None:
    report, _ = check(folder, GOOD)
    assert report.ok, [str(e) for e in report.errors]
    doc = report.to_dict()
    assert doc["layer_plans"] == {"mlp.fc1": "ColWiseParallel", "mlp.fc2": "RowWiseParallel"}
    assert doc["layer_markers"] == {
        "embed": [{"plan": "SequenceParallelBegin"}],
        "mlp": [{"plan": "SequenceParallelDisable"}],
        "head": [{"plan": "SequenceParallelEnd"}],
    }
    assert doc["recompute"] == ["mlp"]
    rp = rank_plan(report).to_dict()  # what every rank applies (and what an export is made from)
    assert rp["layer_markers"] == doc["layer_markers"] and rp["recompute"] == ["mlp"]
    assert report.lowered is not None and report.lowered.sequence_split == ["norm", "norm2"]


def test_a_weight_plan_and_a_marker_share_a_layer_but_two_markers_of_a_kind_do_not(folder: Path) -> None:
    body = MESH + SP_RANGE.replace(
        "  - {match: head, plan: SequenceParallelEnd}\n",
        "  - {match: head, plan: SequenceParallelEnd}\n  - {match: head, plan: ColWiseParallel}\n",
    )
    report, _ = check(folder, body)
    assert report.ok, [str(e) for e in report.errors]
    assert report.to_dict()["layer_plans"]["head"] == "ColWiseParallel"
    report, path = check(folder, body + "  - {match: head, plan: SequenceParallelEnable}\n")
    assert [(e.code, e.line) for e in report.errors] == [
        ("overlap_layers", len(path.read_text().splitlines()))
    ]


HAZARDS: dict[str, tuple[str, str, str]] = {
    # name: (plan body, finding code, text on the line it must point at)
    "sp_without_dp": (
        "mesh: {shape: [2], dim_names: [mp]}\n" + SP_RANGE,
        "sp_mesh",
        "embed, plan: SequenceParallelBegin",
    ),
    "begin_without_end": (MESH + "layers:\n  - {match: embed, plan: SequenceParallelBegin}\n", "sp_unpaired_begin", "embed"),
    "end_without_begin": (MESH + "layers:\n  - {match: head, plan: SequenceParallelEnd}\n", "sp_unpaired_end", "head"),
    "end_before_begin": (
        MESH + "layers:\n  - {match: norm2, plan: SequenceParallelBegin}\n  - {match: norm, plan: SequenceParallelEnd}\n",
        "sp_order",
        "match: norm,",
    ),
    "disable_outside_range": (
        MESH + "layers:\n  - {match: embed, plan: SequenceParallelBegin}\n"
        "  - {match: norm, plan: SequenceParallelEnd}\n  - {match: mlp, plan: SequenceParallelDisable}\n",
        "sp_disable_outside",
        "mlp, plan",
    ),
    "marked_inside_range": (
        MESH + "layers:\n  - {match: embed, plan: SequenceParallelBegin}\n"
        "  - {match: mlp.fc1, plan: ColWiseParallel}\n  - {match: head, plan: SequenceParallelEnd}\n",
        "sp_marked_inside",
        "mlp.fc1",
    ),
    "not_3d": (MESH + "layers:\n  - {match: embed, plan: SequenceParallelEnable}\n", "sp_ndim", "embed"),
    "never_called": (
        MESH + "layers:\n  - {match: embed, plan: SequenceParallelBegin}\n  - {match: unused, plan: SequenceParallelEnd}\n",
        "sp_not_called",
        "unused",
    ),
    "recompute_typo": (MESH + "recompute:\n  - {match: mpl}\n", "recompute_matches_nothing", "mpl"),
    "recompute_of_the_first_layer": (
        MESH + "recompute:\n  - {match: mlp}\n  - {match: embed}\n", "recompute_no_grad_input", "embed"
    ),
    "prepare_module_missing": (
        MESH + "layers:\n  - {match: head, plan: PrepareLayerInput, fn: 'no_such_hooks:make'}\n",
        "prepare_module",
        "no_such_hooks",
    ),
    "prepare_function_missing": (
        MESH + "layers:\n  - {match: head, plan: PrepareLayerOutput, fn: 'my_hooks:make_hok'}\n",
        "prepare_function",
        "make_hok",
    ),
    "pipeline_on_cpu": ("mesh: {shape: [2], dim_names: [pp]}\npp: {split_spec: {mlp: END}}\n", "cpu_pipeline", "pp:"),
    "pipeline_typo": (
        "mesh: {shape: [2], dim_names: [pp]}\npp: {split_spec: {mpl: END}}\n",
        "pp_matches_nothing",
        "pp:",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(HAZARDS))
def test_each_wrong_use_is_located_with_its_fix(folder: Path, name: str) -> None:
    (folder / "my_hooks.py").write_text(
        "def make_hook(process_mesh):\n    return lambda layer, inputs: None\n"
    )
    body, code, needle = HAZARDS[name]
    report, path = check(folder, body)
    found = [e for e in report.errors if e.code == code]
    assert found, [str(e) for e in report.errors]
    assert found[0].line == line_of(path, needle), str(found[0])
    assert found[0].fix and found[0].file == str(path)


def test_sequence_length_must_divide_over_mp(folder: Path) -> None:
    body = "mesh: {shape: [1, 3], dim_names: [dp, mp]}\n" + SP_RANGE.replace(
        "  - {match: mlp.fc1, plan: ColWiseParallel}\n  - {match: mlp.fc2, plan: RowWiseParallel}\n", ""
    )
    report, path = check(folder, body, nproc=3)
    assert [(e.code, e.line) for e in report.errors] == [("sp_seq_not_divisible", line_of(path, "embed"))]
    assert "8" in report.errors[0].message and "3" in report.errors[0].message


def test_a_prepare_hook_in_the_users_module_validates(folder: Path) -> None:
    (folder / "my_hooks.py").write_text(
        "def make_hook(process_mesh):\n    return lambda layer, inputs: None\n"
    )
    report, _ = check(
        folder, MESH + "layers:\n  - {match: head, plan: PrepareLayerInput, fn: 'my_hooks:make_hook'}\n"
    )
    assert report.ok, [str(e) for e in report.errors]
    assert rank_plan(report).layer_markers == {
        "head": [{"plan": "PrepareLayerInput", "fn": "my_hooks:make_hook"}]
    }
    assert rank_plan(report).code_dir == str(folder.resolve())


SCHEMA: dict[str, tuple[str, str]] = {
    "need_transpose_on_a_weight_plan": (
        MESH + "layers:\n  - {match: mlp.fc1, plan: ColWiseParallel, need_transpose: false}\n",
        "need_transpose",
    ),
    "prepare_without_fn": (MESH + "layers:\n  - {match: head, plan: PrepareLayerInput}\n", "PrepareLayerInput"),
    "fn_on_a_marker": (MESH + "layers:\n  - {match: head, plan: SequenceParallelEnd, fn: 'a:b'}\n", "fn:"),
    "fn_not_module_function": (MESH + "layers:\n  - {match: head, plan: PrepareLayerInput, fn: 'hooks.py'}\n", "fn:"),
    "sharding_mesh_dim_unknown": (MESH + "dp: {sharding_level: 1, sharding_mesh_dim: dq}\n", "sharding_mesh_dim"),
    "amp_dtype": (MESH + "amp: {level: O1, dtype: float8}\n", "float8"),
    "amp_level": (MESH + "amp: {level: O3}\n", "O3"),
    "pp_without_pp_dim": (MESH + "pp: {split_spec: mlp}\n", "pp:"),
    "layer_plan_typo": (MESH + "layers:\n  - {match: embed, plan: SequenceParallelBegn}\n", "SequenceParallelBegn"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SCHEMA))
def test_schema_mistakes_are_located(folder: Path, name: str) -> None:
    body, needle = SCHEMA[name]
    report, path = check(folder, body)
    assert report.errors and report.lowered is None
    assert report.errors[0].line == line_of(path, needle), [str(e) for e in report.errors]
    assert report.errors[0].fix, str(report.errors[0])


def test_typo_in_a_marker_suggests_the_right_name(folder: Path) -> None:
    report, _ = check(folder, SCHEMA["layer_plan_typo"][0])
    assert "SequenceParallelBegin" in report.errors[0].fix


def test_amp_plan_validates_on_cpu_with_a_note_and_travels_with_the_plan(folder: Path) -> None:
    report, path = check(folder, GOOD + "amp: {level: O2, dtype: bfloat16}\n")
    assert report.ok, [str(e) for e in report.errors]
    notes = [w for w in report.warnings if w.code == "cpu_amp"]
    assert len(notes) == 1 and notes[0].line == line_of(path, "amp:")
    assert "not exercised on CPU" in notes[0].message and "float32" in notes[0].message
    assert report.to_dict()["amp"] == {"level": "O2", "dtype": "bfloat16"}
    assert rank_plan(report).amp == {"level": "O2", "dtype": "bfloat16"}  # the export's input carries it
    assert (
        report.estimate is not None
        and report.estimate.activation_bytes == _estimate(folder, GOOD).activation_bytes
    )
    on_gpu, _ = check(folder, GOOD + "amp: {level: O1, dtype: bfloat16}\n", device="gpu:0")
    assert on_gpu.ok and not on_gpu.warnings


def test_sharding_mesh_dim_reaches_the_rank_plan(folder: Path) -> None:
    report, _ = check(folder, MESH + "dp: {sharding_level: 1, sharding_mesh_dim: dp}\n")
    assert report.ok, [str(e) for e in report.errors]
    assert rank_plan(report).sharding_mesh_dim == "dp"
    assert RankPlanRoundTrip.check(report)


class RankPlanRoundTrip:
    @staticmethod
    def check(report: PlanReport) -> bool:
        from workbench.parallel.apply import RankPlan

        rp = rank_plan(report)
        return RankPlan.from_dict(json.loads(json.dumps(rp.to_dict()))) == rp


def _estimate(folder: Path, body: str, device: str = "cpu") -> Estimate:
    report, _ = check(folder, body, device=device)
    assert report.ok and report.estimate is not None, [str(e) for e in report.errors]
    return report.estimate


def test_estimate_drops_recomputed_and_sequence_split_activations(folder: Path) -> None:
    plain = _estimate(
        folder,
        MESH
        + SP_RANGE.split("  - {match: embed")[0]
        + "  - {match: mlp.fc1, plan: ColWiseParallel}\n  - {match: mlp.fc2, plan: RowWiseParallel}\n",
    )
    sp = _estimate(folder, MESH + SP_RANGE)
    both = _estimate(folder, GOOD)
    per = {name: S * shape[-1] * 4 * 4 for name, shape in seq_facts().output_shapes.items()}  # bytes, batch 4
    # sequence split: norm and norm2 outputs halve over mp = 2
    assert plain.activation_bytes - sp.activation_bytes == (per["norm"] + per["norm2"]) // 2
    # recompute mlp: fc1 and fc2 outputs are not kept (fc1's is column-split over mp = 2)
    assert sp.activation_bytes - both.activation_bytes == per["mlp.fc1"] // 2 + per["mlp.fc2"]
    assert both.optimizer_bytes == 2 * both.param_bytes  # AdamW: two float32 moments per local element


def test_estimate_under_amp_on_an_accelerator(folder: Path) -> None:
    f32 = _estimate(folder, GOOD, device="gpu:0")
    o1 = _estimate(folder, GOOD + "amp: {level: O1, dtype: bfloat16}\n", device="gpu:0")
    o2 = _estimate(folder, GOOD + "amp: {level: O2, dtype: float16}\n", device="gpu:0")
    assert o1.activation_bytes * 2 == f32.activation_bytes and o1.param_bytes == f32.param_bytes
    assert o2.param_bytes * 2 == f32.param_bytes  # 2-byte parameters ...
    assert o2.optimizer_bytes == f32.optimizer_bytes + f32.param_bytes  # ... float32 master weights


def test_new_facts_survive_the_cache_round_trip() -> None:
    facts = seq_facts()
    assert facts_from_dict(json.loads(json.dumps(facts_to_dict(facts)))) == facts


def test_run_config_records_markers_recompute_and_amp(folder: Path) -> None:
    (folder / "train.yaml").write_text(
        "task: custom\nentry: seq_model:build\ntrain: {steps: 2, batch_size: 4, optimizer: adamw}\n"
    )
    report, _ = check(folder, GOOD + "amp: {level: O1, dtype: float16}\n")
    doc = run_config(report, (), 2)["parallel"]
    assert doc["recompute"] == ["mlp"] and doc["amp"] == {"level": "O1", "dtype": "float16"}
    assert doc["layer_markers"]["embed"] == [{"plan": "SequenceParallelBegin"}]


class _Plan:
    """A stand-in for a ``paddle.distributed`` plan class: records its arguments."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.args, self.kwargs = args, kwargs


def _fake_dist() -> object:
    from types import SimpleNamespace

    names = (
        "ColWiseParallel", "RowWiseParallel", "SequenceParallelBegin", "SequenceParallelEnd",
        "SequenceParallelDisable", "PrepareLayerInput",
    )  # fmt: skip
    kinds = {name: type(name, (_Plan,), {}) for name in names}
    return SimpleNamespace(**kinds, SplitPoint=SimpleNamespace(END="END", BEGIN="BEGIN"))


def test_the_rank_plan_becomes_parallelizes_config(folder: Path) -> None:
    from workbench.parallel.apply import parallelize_config

    (folder / "my_hooks.py").write_text("def make_hook(process_mesh):\n    return None\n")
    body = (
        MESH.replace("[1, 2]", "[2, 2]")
        + SP_RANGE.replace("SequenceParallelDisable}", "SequenceParallelDisable, need_transpose: false}")
        + "  - {match: head, plan: ColWiseParallel}\n"
        + "  - {match: norm2, plan: PrepareLayerInput, fn: 'my_hooks:make_hook'}\n"
        + "dp: {sharding_level: 1, sharding_mesh_dim: dp}\n"
    )
    report, _ = check(folder, body, nproc=4)
    assert report.ok, [str(e) for e in report.errors]
    config = parallelize_config(rank_plan(report), _fake_dist())
    assert config["dp_config"] == {"sharding_level": 1, "sharding_mesh_dim": "dp"}
    plan = config["mp_config"]["parallelize_plan"]
    assert [type(p).__name__ for p in plan["head"]] == ["ColWiseParallel", "SequenceParallelEnd"]
    assert plan["mlp"][0].kwargs == {"need_transpose": False}
    assert plan["norm2"][0].args[0].__name__ == "make_hook"  # imported from the config's folder
    assert "pp_config" not in config


def test_pp_config_names_paddles_split_points(folder: Path) -> None:
    from workbench.parallel.apply import parallelize_config

    report, _ = check(
        folder, "mesh: {shape: [2], dim_names: [pp]}\npp: {split_spec: {mlp: END}}\n", device="gpu:0"
    )
    assert report.ok, [str(e) for e in report.errors]
    assert parallelize_config(rank_plan(report), _fake_dist()) == {
        "pp_config": {"split_spec": {"mlp": "END"}}
    }


def test_plan_code_reads_as_the_same_config(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What an exported script writes out (``plan_code``) builds the config the ranks build."""
    from workbench.parallel.apply import parallelize_config, plan_code

    (folder / "my_hooks.py").write_text("def make_hook(process_mesh):\n    return None\n")
    monkeypatch.syspath_prepend(str(folder))
    body = (
        MESH
        + SP_RANGE.replace("SequenceParallelDisable}", "SequenceParallelDisable, need_transpose: false}")
        + "  - {match: norm2, plan: PrepareLayerInput, fn: 'my_hooks:make_hook'}\n"
        + "recompute:\n  - {match: mlp}\n"
        + "dp: {sharding_level: 1, sharding_mesh_dim: dp}\namp: {level: O2, dtype: bfloat16}\n"
    )
    report, _ = check(folder, body)
    assert report.ok, [str(e) for e in report.errors]
    rp = rank_plan(report)
    code = plan_code(rp)
    source = "\n".join(
        [
            *code.imports,
            "def parallelize(model, optimizer):",
            *code.setup,
            "    return {",
            *code.config,
            "    }",
        ]
    )
    namespace: dict[str, object] = {"dist": _fake_dist()}
    exec(compile(source, "plan.py", "exec"), namespace)  # noqa: S102 - the generated source under test
    assert "recompute(_f" in source and "level='O2', dtype='bfloat16'" in source and code.amp
    setup_free = source.replace("\n".join(code.setup), "")  # the config alone, without a model to wrap
    exec(compile(setup_free, "plan.py", "exec"), namespace)  # noqa: S102
    written = namespace["parallelize"](None, None)  # type: ignore[operator]
    built = parallelize_config(rp, namespace["dist"])
    plans = written["mp_config"]["parallelize_plan"]  # type: ignore[index]
    for name, value in plans.items():  # one plan or a list: Paddle takes both
        plans[name] = value if isinstance(value, list) else [value]
    assert json.dumps(written, default=_describe) == json.dumps(built, default=_describe)


def _describe(value: object) -> object:
    if isinstance(value, _Plan):
        return [type(value).__name__, [getattr(a, "__name__", a) for a in value.args], value.kwargs]
    return str(value)


def test_the_exported_script_carries_markers_recompute_and_amp(folder: Path) -> None:
    """``plan export``'s rank script holds what ``plan run`` applies: without it an exported
    sequence-parallel plan would train without sequence parallelism and say nothing."""
    from workbench.parallel.export import python_source

    body = MESH + SP_RANGE + "recompute:\n  - {match: mlp}\namp: {level: O2, dtype: bfloat16}\n"
    report, _ = check(folder, body)
    assert report.ok, [str(e) for e in report.errors]
    source = python_source(report, [], "train.yaml")
    compile(source, "plan.py", "exec")
    assert "dist.SequenceParallelBegin(" in source and "dist.SequenceParallelEnd(" in source
    assert "recompute(_f" in source and "paddle.amp.decorate" in source
    assert "amp={'level': 'O2', 'dtype': 'bfloat16'}" in source
