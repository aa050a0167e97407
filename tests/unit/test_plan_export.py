"""``plan export``: a folder that runs anywhere — copied config and plan, relative paths, the user's model
code — with cluster forms that speak each scheduler's own language, and a node layout that fits the mesh.

The model is the real one (built once on the CPU from a tiny training config, its facts cached in the
module's workspace); ``plan export`` runs through the real command tree in this process. The operator's
command runs under ``bash -c`` with a recording ``python`` first on ``PATH`` and its argv is parsed by
Paddle's own launcher parser; the launch itself runs in tests/integration/test_parallel_runs.py.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import logging
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from tests.parallel_helpers import (
    OPERATOR_ENV,
    PADDLE_PORT,
    kubernetes_expand,
    operator_env,
    write_plan,
    write_train,
)
from workbench.parallel.facts import ModelFacts, build_facts
from workbench.parallel.validate import check_plan

pytestmark = pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed")

# paddle-operator's contract (github.com/PaddleFlow/paddle-operator, api/v1/paddlejob_types.go and
# controllers/paddlejob_helper.go), written out in the tests so that they do not read the export's own
# view (the variables: tests/parallel_helpers.py).
OPERATOR_SPEC_FIELDS = {
    "cleanPodPolicy", "schedulingPolicy", "intranet", "withGloo", "sampleSetRef", "ps", "worker", "heter",
    "elastic",
}  # fmt: skip
OPERATOR_RESOURCE_FIELDS = {"replicas", "requests", "limits", "template"}
OPERATOR_CLEAN_POLICIES = {"Always", "Never", "OnFailure", "OnCompletion"}
OPERATOR_INTRANETS = {"PodIP", "Service", "Host"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export")
    write_train(path)
    write_plan(path, "dp_plan", "mesh: {shape: [2], dim_names: [dp]}\ndp: {sharding_level: 0}\n")
    write_plan(
        path,
        "tp_plan",
        "mesh: {shape: [2], dim_names: [mp]}\nlayers:\n  - {match: fc1, plan: ColWiseParallel}\n"
        "  - {match: fc2, plan: RowWiseParallel}\n",
    )
    return path


@pytest.fixture(scope="module")
def facts(folder: Path) -> ModelFacts:
    return build_facts(folder / "train.yaml")


def _cli(folder: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from workbench.cli.root import build_cli

    argv = ["--workspace", str(folder / "ws"), *args]  # one workspace: the model facts are built once
    code = build_cli().main(args=argv, prog_name="paddle-workbench", standalone_mode=False)
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def _export(
    folder: Path, plan: str, out: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, dict[str, Any], str]:
    code, stdout, err = _cli(
        folder, ["plan", "export", str(folder / plan), "--output", str(out), "--json", *extra], capsys
    )
    return code, json.loads(stdout), err


def _fake_python(bin_dir: Path, record: Path) -> None:
    """A ``python`` that records its argv (and working directory) as JSON instead of launching."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    fake = bin_dir / "python"
    fake.write_text(
        f"#!{sys.executable}\nimport json, os, sys\n"
        f"open({str(record)!r}, 'w').write(json.dumps({{'argv': sys.argv[1:], 'cwd': os.getcwd()}}))\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)


def _launch_args(argv: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """``argv`` (after ``python``) parsed by ``paddle.distributed.launch``'s own parser, then passed
    through its plugin that reads the operator's ``PADDLE_TRAINER_ENDPOINTS`` (master and node count)."""
    from paddle.distributed.launch.context.args_envs import parse_args
    from paddle.distributed.launch.plugins import collective_compatible

    assert argv[:2] == ["-m", "paddle.distributed.launch"], argv
    monkeypatch.setattr(sys, "argv", ["launch", *argv[2:]])
    args, unknown = parse_args()
    assert not unknown, unknown
    as_given = (args.master, args.nnodes)
    collective_compatible(SimpleNamespace(args=args, envs=env, logger=logging.getLogger("test")))
    assert (args.master, str(args.nnodes)) == as_given  # the command says what Paddle derives anyway
    return args


def test_the_operators_command_runs_under_bash_with_the_operators_variables(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the command read ``$(PADDLE_MASTER)``, which the operator never sets; ``bash -c`` ran
    ``--master --nnodes 2`` and the launcher exited 2 ("argument --master: expected one argument")."""
    code, doc, err = _export(folder, "dp_plan.yaml", tmp_path / "made" / "job", capsys)
    assert code == 0, err
    copy = tmp_path / "image" / "job"  # the folder as the pod sees it, under /workspace in the image
    shutil.copytree(tmp_path / "made" / "job", copy)
    shutil.rmtree(tmp_path / "made")
    manifest = yaml.safe_load((copy / "dp_plan.paddlejob.yaml").read_text())
    container = manifest["spec"]["worker"]["template"]["spec"]["containers"][0]
    assert container["command"][:2] == ["bash", "-c"]
    hosts = ["10.1.0.4", "10.1.0.5"]
    for node in (0, 1):
        env = operator_env(node, [f"{h}:{PADDLE_PORT}" for h in hosts])
        command = kubernetes_expand(container["command"][2], env)
        record = tmp_path / f"argv-{node}.json"
        _fake_python(tmp_path / "bin", record)
        path = f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        result = subprocess.run(
            ["bash", "-c", command], cwd=copy, env={"PATH": path, "HOME": str(tmp_path), **env},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert result.returncode == 0 and not result.stderr, (command, result.stderr)
        args = _launch_args(json.loads(record.read_text())["argv"], env, monkeypatch)
        assert args.master == f"{hosts[0]}:{PADDLE_PORT}"  # worker 0 holds the rendezvous
        assert (str(args.nnodes), args.rank, args.nproc_per_node) == ("2", node, 1)
        assert (copy / args.training_script).is_file()
    assert container["workingDir"] == "/workspace/job"  # where the command found the rank script


def test_the_manifest_uses_only_the_operators_fields_and_variables(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Lint against paddle-operator's own names: the PaddleJob spec and resource fields, the enum values,
    and every variable the command reads is one the operator sets (before: ``PADDLE_MASTER``)."""
    code, doc, err = _export(folder, "dp_plan.yaml", tmp_path / "job", capsys)
    assert code == 0, err
    manifest = yaml.safe_load((tmp_path / "job" / "dp_plan.paddlejob.yaml").read_text())
    assert (manifest["apiVersion"], manifest["kind"]) == ("batch.paddlepaddle.org/v1", "PaddleJob")
    assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", manifest["metadata"]["name"])
    spec = manifest["spec"]
    assert set(spec) <= OPERATOR_SPEC_FIELDS, set(spec) - OPERATOR_SPEC_FIELDS
    assert spec.get("cleanPodPolicy", "Always") in OPERATOR_CLEAN_POLICIES
    assert spec.get("intranet", "PodIP") in OPERATOR_INTRANETS
    assert set(spec["worker"]) <= OPERATOR_RESOURCE_FIELDS and spec["worker"]["replicas"] == 2
    command = spec["worker"]["template"]["spec"]["containers"][0]["command"][2]
    read = set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", command))
    read |= set(re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", command))
    assert read and read <= OPERATOR_ENV, read - OPERATOR_ENV


def test_a_node_layout_that_is_not_the_mesh_is_refused_with_the_layouts_that_fit(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``--nnodes 2 --nproc 2`` for a 2-rank mesh wrote scripts that launch 4 ranks."""
    out = tmp_path / "job"
    code, doc, err = _export(folder, "dp_plan.yaml", out, capsys, "--nnodes", "2", "--nproc", "2")
    assert code == 2 and not doc["ok"]
    said = " ".join((doc["errors"][0]["message"] + " " + doc["errors"][0]["fix"]).split())
    assert "--nnodes 2 × --nproc 2" in said and "2 ranks" in said
    assert "--nnodes 1 --nproc 2" in said and "--nnodes 2 --nproc 1" in said
    assert "Traceback" not in err and not out.exists()


def test_a_tensor_parallel_group_across_nodes_is_a_warning_with_the_layout_that_keeps_it(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``--nnodes 2`` (then the default) put the two mp ranks on two nodes without a word."""
    code, doc, err = _export(folder, "tp_plan.yaml", tmp_path / "split", capsys, "--nnodes", "2")
    assert code == 0, err
    assert (doc["nnodes"], doc["nproc_per_node"]) == (2, 1)
    assert len(doc["warnings"]) == 1 and "mp" in doc["warnings"][0]
    assert "--nnodes 1 --nproc 2" in doc["warnings"][0]
    code, doc, err = _export(folder, "tp_plan.yaml", tmp_path / "kept", capsys)
    assert code == 0 and (doc["nnodes"], doc["nproc_per_node"]) == (1, 2) and not doc["warnings"]


def test_the_folder_is_self_contained_and_slurm_asks_what_the_config_trains_on(
    folder: Path, facts: ModelFacts, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``TRAIN_CONFIG`` was an absolute local path, the folder held no config and no plan, and
    the Slurm script asked ``--gpus-per-node`` for a ``device: cpu`` config."""
    from workbench.parallel.export import write_export

    code, doc, err = _export(folder, "dp_plan.yaml", tmp_path / "made", capsys)
    assert code == 0, err
    copy = tmp_path / "elsewhere" / "job"
    shutil.copytree(tmp_path / "made", copy)
    shutil.rmtree(tmp_path / "made")
    assert {"train.yaml", "dp_plan.yaml", "README.md", "launch.sh"} <= {p.name for p in copy.iterdir()}
    tree = ast.parse((copy / "dp_plan.py").read_text())
    value = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "TRAIN_CONFIG"
    )
    train_config = eval(compile(ast.Expression(value), "TRAIN_CONFIG", "eval"), {"Path": Path, "__file__": str(copy / "dp_plan.py")})  # fmt: skip
    assert Path(train_config) == (copy / "train.yaml").resolve()
    assert check_plan(copy / "dp_plan.yaml", nproc=2, facts=facts).ok  # the copied plan names the copy
    slurm = (copy / "dp_plan.slurm").read_text()
    assert subprocess.run(["bash", "-n", str(copy / "dp_plan.slurm")]).returncode == 0
    assert "--gpus" not in slurm  # train.device: cpu
    for placeholder in ("#SBATCH --partition=CHANGE_ME", "#SBATCH --time=", "VENV=", "SLURM_SUBMIT_DIR"):
        assert placeholder in slurm, placeholder
    container = yaml.safe_load((copy / "dp_plan.paddlejob.yaml").read_text())["spec"]["worker"]
    assert "resources" not in container["template"]["spec"]["containers"][0]
    launch = (copy / "launch.sh").read_text()
    assert subprocess.run(["sh", "-n", str(copy / "launch.sh")]).returncode == 0 and "HERE=$(cd" in launch

    report = check_plan(folder / "dp_plan.yaml", nproc=2, facts=facts)
    gpu = write_export(report, tmp_path / "gpu", overrides=["train.device=gpu"]).files
    assert "#SBATCH --gpus-per-node=1" in gpu["slurm"].read_text()
    pod = yaml.safe_load(gpu["paddlejob"].read_text())["spec"]["worker"]["template"]["spec"]["containers"][0]
    assert pod["resources"] == {"limits": {"nvidia.com/gpu": 1}}


def test_a_custom_tasks_model_code_is_copied_or_named_by_its_install_line(tmp_path: Path) -> None:
    """``task: custom``: the entry's package and the local modules it imports travel with the export;
    what is installed (numpy, the workbench) is not copied."""
    from workbench.parallel.export import model_code

    configs = tmp_path / "configs"
    (configs / "mymodel").mkdir(parents=True)
    (configs / "mymodel" / "__init__.py").write_text("")
    (configs / "mymodel" / "build.py").write_text(
        "import numpy\nimport layers_helper\nfrom workbench import i18n\n"
    )
    (configs / "layers_helper.py").write_text("import os\n")
    (configs / "unrelated.py").write_text("")
    copied, install = model_code("mymodel.build:build", configs)
    assert sorted(p.name for p in copied) == ["layers_helper.py", "mymodel"] and not install
    copied, install = model_code("yaml:safe_load", configs)
    assert not copied and install and install[0].startswith("pip install PyYAML==")


@pytest.mark.parametrize(
    ("shape", "dims", "asked", "layout", "spans"),
    [
        ([2, 2], ["dp", "mp"], (None, None), (2, 2), False),  # each node one whole mp group
        ([2, 2], ["mp", "dp"], (None, None), (1, 4), False),  # mp outermost: its groups are strided
        ([2, 2], ["dp", "mp"], (4, None), (4, 1), True),
        ([2, 2], ["mp", "dp"], (2, None), (2, 2), True),
        ([4], ["dp"], (None, 2), (2, 2), False),
    ],
)
def test_the_node_layout_follows_the_mesh_and_names_a_split_mp_group(
    shape: list[int],
    dims: list[str],
    asked: tuple[int | None, int | None],
    layout: tuple[int, int],
    spans: bool,
) -> None:
    from workbench.parallel.export import mp_spans_nodes, node_layout

    got = node_layout(shape, dims, *asked)
    assert (got.nnodes, got.nproc_per_node) == layout
    assert mp_spans_nodes(shape, dims, got) is spans


def test_an_amp_plan_exports_with_its_cpu_note_and_the_script_keeps_amp(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ``amp:`` plan checked on CPU exports for GPU: the note that CPU will not exercise it comes
    with the files (human and JSON), and the rank script runs its forward under that amp."""
    write_plan(folder, "amp_plan", "mesh: {shape: [2], dim_names: [dp]}\namp: {level: O1, dtype: bfloat16}\n")
    code, doc, _ = _export(folder, "amp_plan.yaml", tmp_path / "json", capsys)
    assert code == 0 and [w["code"] for w in doc["plan_warnings"]] == ["cpu_amp"], doc
    code, out, _ = _cli(
        folder, ["plan", "export", str(folder / "amp_plan.yaml"), "--output", str(tmp_path / "h")], capsys
    )
    assert code == 0 and "not exercised on CPU" in out and "exports keep amp for GPU" in out, out
    script = (tmp_path / "h" / "amp_plan.py").read_text(encoding="utf-8")
    assert "amp={'level': 'O1', 'dtype': 'bfloat16'}" in script
