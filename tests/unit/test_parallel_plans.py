"""Sharding plans: both levels lowered to one table; every hazard refused with its location.

The model is the real one (built once on the CPU from a tiny training config); ``plan validate`` and
``plan run`` are driven through the real command tree in this process. A refused ``plan run`` starts
nothing (the workspace holds no run).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.parallel_helpers import line_of, write_plan, write_train
from workbench.parallel.facts import ModelFacts, build_facts
from workbench.parallel.placements import Placement, local_shape, parse_placement
from workbench.parallel.validate import check_plan

pytestmark = pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plans")
    write_train(path)
    return path


@pytest.fixture(scope="module")
def facts(folder: Path) -> ModelFacts:
    return build_facts(folder / "train.yaml")


def test_placements_parse_as_paddle_spells_them() -> None:
    assert parse_placement("Shard(1)") == Placement("shard", 1)
    assert parse_placement(" Replicate() ") == Placement("replicate")
    assert parse_placement("Partial(avg)") == Placement("partial", reduce="avg")
    assert parse_placement("Shard(x)") is None and parse_placement("Split(0)") is None
    assert local_shape((64, 10), (Placement("shard", 0),), (2,)) == (32, 10)


def test_facts_come_from_the_real_model(facts: ModelFacts) -> None:
    shapes = {p.name: p.shape for p in facts.params}
    assert shapes["fc1.weight"] == (16 * 8 * 8, 64) and shapes["fc2.weight"] == (64, 10)
    assert {layer.name: layer.type for layer in facts.layers}["fc1"] == "Linear"
    assert facts.activation_bytes_per_sample > 0 and facts.optimizer == "sgd"


def test_both_levels_lower_to_one_table_with_sources(folder: Path, facts: ModelFacts) -> None:
    plan = write_plan(
        folder,
        "both",
        """\
        mesh: {shape: [1, 2], dim_names: [dp, mp]}
        dp: {sharding_level: 0}
        layers:
          - {match: fc1, plan: ColWiseParallel}
          - {match: "re:fc2", plan: RowWiseParallel}
        params:
          - {match: "conv*.weight", placements: ["Replicate()", "Shard(0)"]}
        """,
    )
    report = check_plan(plan, nproc=2, facts=facts)
    assert report.ok, [str(e) for e in report.errors]
    rows = {row["name"]: row for row in report.to_dict()["params"]}
    assert rows["fc1.weight"]["placements"] == ["Replicate()", "Shard(1)"]
    assert rows["fc1.weight"]["local_shape"] == [1024, 32]
    assert rows["fc1.bias"]["placements"] == ["Replicate()", "Shard(0)"]
    assert rows["fc2.weight"]["placements"] == ["Replicate()", "Shard(0)"]
    assert rows["fc2.bias"]["placements"] == ["Replicate()", "Replicate()"]
    assert rows["conv2.weight"]["local_shape"] == [8, 8, 3, 3]
    assert rows["fc1.weight"]["source"] == f"{plan}:{line_of(plan, 'fc1')}:13"
    assert rows["conv1.weight"]["source"].startswith(f"{plan}:{line_of(plan, 'conv*')}:")
    assert rows["conv1.bias"]["source"] == ""
    estimate = report.to_dict()["estimate"]
    assert estimate["param_bytes"] < estimate["baseline_bytes"] and estimate["comm_count"] >= 2


def test_estimate_follows_the_sharding_level(folder: Path, facts: ModelFacts) -> None:
    docs = {}
    for level in (0, 1, 2):
        plan = write_plan(
            folder,
            f"level{level}",
            f"mesh: {{shape: [2], dim_names: [dp]}}\ndp: {{sharding_level: {level}}}\n",
        )
        report = check_plan(plan, nproc=2, facts=facts)
        assert report.ok, [str(e) for e in report.errors]
        docs[level] = report.to_dict()["estimate"]
    assert docs[2]["grad_bytes"] == docs[0]["grad_bytes"] // 2
    assert docs[1]["grad_bytes"] == docs[0]["grad_bytes"]
    kinds = {c["kind"] for c in docs[2]["comm"]}
    assert kinds == {"reduce_scatter", "all_gather"}


# Each hazard: the plan body, the ranks to launch, the text that locates the finding, what it says.
HAZARDS = {
    "shard_dim": (
        'mesh: {shape: [2], dim_names: [mp]}\nparams:\n  - {match: fc2.bias, placements: ["Shard(1)"]}\n',
        2,
        "Shard(1)",
        "has 1 dimension",
    ),
    "mesh_larger_than_world": (
        "mesh: {shape: [4], dim_names: [dp]}\ndp: {sharding_level: 0}\n",
        2,
        "mesh:",
        "4 ranks and 2 will be launched",
    ),
    "not_divisible": (
        "mesh: {shape: [4], dim_names: [mp]}\nlayers:\n  - {match: fc2, plan: ColWiseParallel}\n",
        4,
        "fc2",
        "not divisible by 4 ranks",
    ),
    "matches_nothing": (
        "mesh: {shape: [2], dim_names: [mp]}\nlayers:\n  - {match: fc3, plan: ColWiseParallel}\n",
        2,
        "fc3",
        "matches no layer",
    ),
    "cpu_sharding_3": (
        "mesh: {shape: [2], dim_names: [dp]}\ndp: {sharding_level: 3}\n",
        2,
        "sharding_level",
        "CReduceScatterOp",
    ),
    "cpu_reshard": (
        'mesh: {shape: [2], dim_names: [dp]}\ndp: {sharding_level: 1}\ninputs: {placements: ["Replicate()"]}\n'
        'params:\n  - {match: fc1.weight, placements: ["Shard(1)"]}\n',
        2,
        "fc1.weight",
        "Shard→Shard reshard",
    ),
    "overlap": (
        "mesh: {shape: [2], dim_names: [mp]}\nlayers:\n  - {match: fc1, plan: ColWiseParallel}\n"
        'params:\n  - {match: fc1.weight, placements: ["Shard(0)"]}\n',
        2,
        "fc1.weight",
        "decided twice",
    ),
    "plan_kind": (
        "mesh: {shape: [2], dim_names: [mp]}\nlayers:\n  - {match: conv1, plan: RowWiseParallel}\n",
        2,
        "RowWiseParallel",
        "splits Linear, Embedding layers only",
    ),
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the module, in tmp (never the repository's): the first command builds the model
    facts of ``train.yaml`` in a child process, the later ones read them from its cache, as a user's
    second command does. No test here starts a run, so it never holds one."""
    return tmp_path_factory.mktemp("plans-ws") / "ws"


@pytest.fixture(autouse=True)
def _workspace_in_tmp(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands these tests run keep the model facts in :func:`workspace`."""
    monkeypatch.setenv("PADDLE_WORKBENCH_WORKSPACE", str(workspace))


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from workbench.cli.root import build_cli

    code = build_cli().main(args=args, prog_name="paddle-workbench", standalone_mode=False)
    out, err = capsys.readouterr()
    return int(code or 0), out, err


@pytest.mark.parametrize("hazard", sorted(HAZARDS))
def test_hazard_refused_by_validate_and_run_with_its_location(
    hazard: str, folder: Path, capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    body, nproc, needle, words = HAZARDS[hazard]
    plan = write_plan(folder, hazard, body)
    line = line_of(plan, needle)
    code, out, err = _cli(["plan", "validate", str(plan), "--nproc", str(nproc), "--json"], capsys)
    assert code == 2, err
    doc = json.loads(out)
    assert not doc["ok"]
    located = [e for e in doc["errors"] if e["line"] == line and words in e["message"]]
    assert located, (line, doc["errors"])
    assert located[0]["file"] == str(plan) and located[0]["col"] >= 1 and located[0]["fix"]
    assert "Traceback" not in err
    code, out, err = _cli(
        ["--workspace", str(workspace), "plan", "run", str(plan), "--nproc", str(nproc)], capsys
    )
    assert code == 2
    text = out + err
    assert f"{plan}:{line}:" in text and words in text, text
    assert not (workspace / "runs").exists() or not any((workspace / "runs").iterdir())


def test_sharding_3_over_a_dp_of_one_is_accepted_on_cpu(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Over ``[1, 2]`` (dp = 1) nothing is reduce-scattered: Paddle runs level 3 on CPU with level 1's
    losses, so validate accepts it (over dp = 2 it stays refused: the hazard table above)."""
    plan = write_plan(
        folder,
        "level3_dp1",
        "mesh: {shape: [1, 2], dim_names: [dp, mp]}\ndp: {sharding_level: 3}\n"
        "layers:\n  - {match: fc1, plan: ColWiseParallel}\n",
    )
    code, out, err = _cli(["plan", "validate", str(plan), "--nproc", "2", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["ok"], doc["errors"]


def test_overlap_names_both_lines(folder: Path, facts: ModelFacts) -> None:
    body = HAZARDS["overlap"][0]
    plan = write_plan(folder, "overlap2", body)
    report = check_plan(plan, nproc=2, facts=facts)
    message = next(e.message for e in report.errors if e.code == "overlap_param")
    assert (
        f"{plan}:{line_of(plan, 'fc1, plan')}:" in message
        and f"{plan}:{line_of(plan, 'fc1.weight')}:" in message
    )


def test_schema_errors_are_located(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = write_plan(
        folder,
        "schema",
        "mesh: {shape: [2, 2], dim_names: [dp]}\nlayers:\n  - {match: fc1, plan: ColWiseParalel}\n",
    )
    code, out, err = _cli(["plan", "validate", str(plan), "--json"], capsys)
    assert code == 2
    doc = json.loads(out)
    messages = " ".join(e["message"] for e in doc["errors"])
    assert "ColWiseParalel" in messages and "1 dimension names for a 2-D mesh" in messages
    assert "ColWiseParallel" in " ".join(e["fix"] for e in doc["errors"])  # did you mean


def test_validate_command_accepts_plans(capsys: pytest.CaptureFixture[str]) -> None:
    samples = Path(__file__).resolve().parents[2] / "sample_configs"
    files = sorted(str(p) for p in samples.glob("plan_*.yaml"))
    assert len(files) == 4
    code, out, err = _cli(["validate", *files, "--json"], capsys)
    assert code == 0, err
    assert {f["kind"] for f in json.loads(out)["files"]} == {"plan"}


def test_optimizer_shard_optimizer_cannot_take_is_refused(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = write_plan(folder, "momentum", "mesh: {shape: [2], dim_names: [dp]}\ndp: {sharding_level: 0}\n")
    code, out, _ = _cli(["plan", "validate", str(plan), "-o", "train.optimizer=momentum", "--json"], capsys)
    assert code == 2
    assert any("SGD and AdamW only" in e["message"] and e["line"] == 1 for e in json.loads(out)["errors"])


def test_rank_script_runs_main_only_as_the_main_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spawned helper (the dataset checker's process pool, over 2000 images) imports the rank script
    as ``__mp_main__``: it must not start training again (found in the TUI with the full demo data)."""
    import runpy

    from workbench.parallel.launch import RANK_MAIN

    script = tmp_path / "rank_main.py"
    script.write_text(RANK_MAIN)
    monkeypatch.setattr("sys.argv", [str(script)])
    runpy.run_path(str(script), run_name="__mp_main__")  # would raise SystemExit from main() otherwise
    with pytest.raises(SystemExit) as exited:
        runpy.run_path(str(script), run_name="__main__")
    assert exited.value.code == 2  # main ran (and said how it is meant to be started)
