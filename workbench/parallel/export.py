"""``plan export``: what a user keeps of a plan — the plan as Python, and how to launch it anywhere.

Written into one folder:

* ``<plan>.py`` — the plan as code a reader recognises: a ``parallelize(model, optimizer)`` with the
  ``dist.shard_tensor`` calls of the per-parameter rules and the ``dist.parallelize`` config, and the
  batch placements; its main trains the plan's training config with the workbench's engine, so the run
  lands in the workspace like a ``plan run`` (one run, a stream per rank);
* ``launch.sh`` — the single-node command and the multi-node one (``--master HOST:PORT --nnodes K
  --rank R``), which differ from each other only in those options;
* ``<plan>.slurm`` — a batch script starting one launcher per node with ``srun``;
* ``<plan>.paddlejob.yaml`` — a Kubernetes ``PaddleJob`` (paddle-operator) with one worker per node;
* ``commands.json`` — the multi-node command as a template, the one the other files are rendered from.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from workbench.parallel.launch import rank_plan
from workbench.parallel.validate import PlanReport

MULTI_NODE_TEMPLATE = (
    "python -m paddle.distributed.launch --master {master} --nnodes {nnodes} --rank {rank} "
    "--nproc_per_node {nproc} --log_dir {log_dir} {script}"
)
SINGLE_NODE_TEMPLATE = (
    "python -m paddle.distributed.launch --nproc_per_node {nproc} --log_dir {log_dir} {script}"
)
DEFAULT_PORT = 29500


def _placement_code(text: str) -> str:
    """``"Shard(1)"`` → ``"dist.Shard(1)"``; ``"Partial(avg)"`` → ``dist.Partial(dist.ReduceType.kRedAvg)``."""
    if text.startswith("Partial"):
        return "dist.Partial(dist.ReduceType.kRedAvg)" if "avg" in text.lower() else "dist.Partial()"
    return f"dist.{text}"


def python_source(report: PlanReport, overrides: Sequence[str]) -> str:
    plan, train_path = report.plan, report.train_path
    assert plan is not None and train_path is not None
    rp = rank_plan(report)
    import numpy as np

    ids = np.arange(rp.size).reshape(rp.mesh_shape).tolist()
    lines = [
        "#!/usr/bin/env python",
        f'"""The sharding plan {report.path.name} as code (written by `paddle-workbench plan export`).',
        "",
        "One node:  python -m paddle.distributed.launch --nproc_per_node N --log_dir log THIS_FILE",
        "K nodes:   python -m paddle.distributed.launch --master HOST:PORT --nnodes K --rank R \\",
        "               --nproc_per_node N --log_dir log THIS_FILE",
        "",
        "Each rank trains TRAIN_CONFIG with paddle-workbench's engine (same seeds, metrics and checkpoints as",
        "`plan run`); the job is one run in $PADDLE_WORKBENCH_WORKSPACE (default ./.paddle-workbench).",
        "On a cluster, point TRAIN_CONFIG at a path every node can read.",
        '"""',
        "",
        "import sys",
        "",
        "import paddle.distributed as dist",
        "",
        f"TRAIN_CONFIG = {str(train_path.resolve())!r}",
        f"TRAIN_OVERRIDES = {list(overrides)!r}",
        f"MESH = {{'shape': {list(rp.mesh_shape)!r}, 'dim_names': {list(rp.dim_names)!r}}}",
        "",
        "",
        "def parallelize(model, optimizer):",
        '    """Shard the model and its optimizer as the plan says; returns (model, optimizer, mesh)."""',
        f"    mesh = dist.ProcessMesh({ids!r}, dim_names={list(rp.dim_names)!r})",
    ]
    if rp.param_placements:
        lines.append("    layers = dict(model.named_sublayers(include_self=True))")
        lines.append("    # params: per-parameter placements (dist.shard_tensor), one per mesh dimension")
        for name, placements in rp.param_placements.items():
            owner, _, attr = name.rpartition(".")
            code = ", ".join(_placement_code(p) for p in placements)
            lines.append(
                f"    layers[{owner!r}].{attr} = dist.shard_tensor(layers[{owner!r}].{attr}, mesh, [{code}])"
            )
    config: list[str] = []
    if rp.sharding_level is not None:
        config.append(f'        "dp_config": {{"sharding_level": {rp.sharding_level}}},')
    if rp.layer_plans:
        config.append('        "mp_config": {"parallelize_plan": {')
        for name, kind in rp.layer_plans.items():
            config.append(f"            {name!r}: dist.{kind}(),")
        config.append("        }},")
    if config:
        lines += [
            "    dist.auto_parallel.set_mesh(mesh)",
            "    config = {",
            *config,
            "    }",
            "    model, optimizer = dist.parallelize(model, optimizer, config=config)",
        ]
    else:
        lines.append("    optimizer = dist.shard_optimizer(optimizer)")
    lines += [
        "    return model, optimizer, mesh",
        "",
        "",
        "def input_placements():",
        '    """How each batch is laid out over the mesh (every rank draws the same batch, keeps its slice)."""',
        f"    return [{', '.join(_placement_code(p) for p in rp.inputs)}]",
        "",
        "",
        'if __name__ == "__main__":',
        "    from workbench.parallel.worker import run_script",
        "",
        "    sys.exit(",
        "        run_script(",
        "            TRAIN_CONFIG,",
        "            TRAIN_OVERRIDES,",
        "            parallelize,",
        "            input_placements,",
        f"            name={report.path.stem!r},",
        f"            parallel={{'mesh': MESH, 'sharding_level': {plan.sharding_level}}},",
        "        )",
        "    )",
        "",
    ]
    return "\n".join(lines)


def render(template: str, **values: Any) -> str:
    return template.format(**{k: str(v) for k, v in values.items()})


def write_export(
    report: PlanReport,
    out: Path,
    *,
    overrides: Sequence[str] = (),
    nproc_per_node: int | None = None,
    nnodes: int | None = None,
) -> dict[str, Path]:
    """Write the export folder (see the module docstring); returns ``{kind: path}``."""
    plan = report.plan
    assert plan is not None
    stem = report.path.stem
    names = (f"{stem}.py", "launch.sh", f"{stem}.slurm", f"{stem}.paddlejob.yaml", "commands.json")
    there = [name for name in names if (out / name).exists() or (out / name).is_symlink()]
    if there:  # an export never replaces a file (a user's edited launch script, say)
        from workbench.i18n import t

        raise FileExistsError(t("parallel.export.exists", files=", ".join(there)))
    out.mkdir(parents=True, exist_ok=True)
    size = plan.mesh.size
    nodes = nnodes or (2 if size % 2 == 0 and size > 1 else 1)
    per_node = nproc_per_node or max(1, size // nodes)
    script = out / f"{stem}.py"
    script.write_text(python_source(report, overrides), encoding="utf-8")
    single = render(SINGLE_NODE_TEMPLATE, nproc=size, log_dir="log", script=script.name)
    multi = render(
        MULTI_NODE_TEMPLATE,
        master="HOST:PORT",
        nnodes=nodes,
        rank="R",
        nproc=per_node,
        log_dir="log",
        script=script.name,
    )
    launch = out / "launch.sh"
    launch.write_text(
        "\n".join(
            [
                "#!/bin/sh",
                f"# {stem}: {size} rank(s) on mesh {plan.mesh.shape} ({', '.join(plan.mesh.dim_names)}).",
                "# Run from this folder. One node:",
                single,
                "",
                f"# {nodes} nodes x {per_node} rank(s): on node R (0 .. {nodes - 1}), HOST:PORT being node 0's address:",
                "# " + multi,
                "",
            ]
        ),
        encoding="utf-8",
    )
    slurm_cmd = render(
        MULTI_NODE_TEMPLATE,
        master="$MASTER_ADDR:$MASTER_PORT",
        nnodes="$SLURM_NNODES",
        rank="$SLURM_NODEID",
        nproc=per_node,
        log_dir="log/node-$SLURM_NODEID",
        script=script.name,
    )
    slurm = out / f"{stem}.slurm"
    slurm.write_text(
        "\n".join(
            [
                "#!/bin/bash",
                f"#SBATCH --job-name={stem}",
                f"#SBATCH --nodes={nodes}",
                "#SBATCH --ntasks-per-node=1",
                f"#SBATCH --gpus-per-node={per_node}",
                "# One paddle.distributed.launch per node; the first node of the allocation is the master.",
                'MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
                f"MASTER_PORT=${{MASTER_PORT:-{DEFAULT_PORT}}}",
                "export MASTER_ADDR MASTER_PORT",
                f"srun bash -c {shlex.quote(slurm_cmd)}",
                "",
            ]
        ),
        encoding="utf-8",
    )
    k8s_cmd = render(
        MULTI_NODE_TEMPLATE,
        master="$(PADDLE_MASTER)",
        nnodes=nodes,
        rank="$(PADDLE_TRAINER_ID)",
        nproc=per_node,
        log_dir="log",
        script=f"/workspace/{script.name}",
    )
    manifest = {
        "apiVersion": "batch.paddlepaddle.org/v1",
        "kind": "PaddleJob",
        "metadata": {"name": stem.replace("_", "-").lower()},
        "spec": {
            "cleanPodPolicy": "OnCompletion",
            "worker": {
                "replicas": nodes,
                "template": {
                    "spec": {
                        "containers": [
                            {
                                "name": "paddle",
                                "image": "paddlepaddle/paddle:3.3.1",
                                "workingDir": "/workspace",
                                "command": ["bash", "-c", k8s_cmd],
                                "resources": {"limits": {"nvidia.com/gpu": per_node}},
                            }
                        ]
                    }
                },
            },
        },
    }
    job = out / f"{stem}.paddlejob.yaml"
    job.write_text(
        f"# Kubernetes PaddleJob (paddle-operator) for {stem}: {nodes} worker pod(s), {per_node} rank(s) each.\n"
        "# The image needs paddle-workbench and this folder under /workspace.\n"
        + yaml.safe_dump(manifest, sort_keys=False),
        encoding="utf-8",
    )
    commands = out / "commands.json"
    commands.write_text(
        json.dumps(
            {
                "single_node": single,
                "multi_node_template": MULTI_NODE_TEMPLATE,
                "script": script.name,
                "nnodes": nodes,
                "nproc_per_node": per_node,
                "slurm": slurm_cmd,
                "paddlejob": k8s_cmd,
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    return {"python": script, "launch": launch, "slurm": slurm, "paddlejob": job, "commands": commands}
