"""``plan export``: what a user keeps of a plan — a folder that runs the plan anywhere, on its own.

Written into one folder, which runs from any working directory and can be copied whole to a cluster:

* ``<plan>.py`` — the plan as code a reader recognises: a ``parallelize(model, optimizer)`` with the
  ``dist.shard_tensor`` calls of the per-parameter rules and the ``dist.parallelize`` config, and the
  batch placements; its main trains the copied training config (``TRAIN_CONFIG``, found next to the
  file) with the workbench's engine, so the run lands in the workspace like a ``plan run`` (one run, a
  stream per rank);
* the training config and the plan, copied (the plan's ``train:`` names the copy), and for
  ``task: custom`` the user's model module(s) (the entry's module and the local modules it imports) or,
  for an installed one, its install line in the README;
* ``launch.sh`` — ``sh launch.sh`` on one node, ``sh launch.sh HOST:PORT R`` on node R of several;
* ``<plan>.slurm`` — a batch script starting one launcher per node with ``srun`` (shared filesystem,
  virtualenv, partition and time placeholders; GPUs asked only when the config trains on GPUs);
* ``<plan>.paddlejob.yaml`` — a Kubernetes ``PaddleJob`` (paddle-operator) with one worker pod per node,
  whose command reads the variables the operator sets in every pod (``PADDLE_TRAINER_ID``,
  ``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ENDPOINTS``: the first endpoint, pod 0, is the master);
* ``README.md`` — how to run each form and what every node needs;
* ``commands.json`` — the multi-node command as a template, the one the other files are rendered from.

The node layout is checked against the mesh: nodes × ranks per node must be the mesh size
(:func:`node_layout`), and a tensor-parallel (``mp``) group split across nodes is a warning with the
layout that keeps it on one node (:func:`mp_spans_nodes`).
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from workbench.i18n import t
from workbench.parallel.apply import plan_code
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
OPERATOR_MASTER = '"${PADDLE_TRAINER_ENDPOINTS%%,*}"'
"""The master for the operator's pods: the first of ``PADDLE_TRAINER_ENDPOINTS`` (worker 0's
``host:36000``); paddle-operator sets no ``PADDLE_MASTER`` (controllers/paddlejob_helper.go)."""
OPERATOR_NNODES = '"$PADDLE_TRAINERS_NUM"'
OPERATOR_RANK = '"$PADDLE_TRAINER_ID"'
WORKSPACE_MOUNT = "/workspace"


class LayoutError(ValueError):
    """Nodes × ranks per node is not the mesh size; the message says which layouts fit."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


@dataclass(frozen=True)
class Layout:
    """How the mesh's ranks are spread: ``nnodes`` launchers of ``nproc_per_node`` ranks each."""

    nnodes: int
    nproc_per_node: int


@dataclass
class ExportResult:
    files: dict[str, Path]
    layout: Layout
    warnings: list[str] = field(default_factory=list)


def _mp_group_size(shape: Sequence[int], dim_names: Sequence[str]) -> int:
    """Ranks a node must hold so that every mp group stays on it (the mesh's dims from ``mp`` inward)."""
    if "mp" not in dim_names:
        return 1
    size = 1
    for extent in shape[list(dim_names).index("mp") :]:
        size *= extent
    return size


def _fitting(size: int) -> list[Layout]:
    return [Layout(k, size // k) for k in range(1, size + 1) if size % k == 0]


def node_layout(
    shape: Sequence[int], dim_names: Sequence[str], nnodes: int | None, nproc_per_node: int | None
) -> Layout:
    """The layout for ``--nnodes`` / ``--nproc`` (either may be omitted); :class:`LayoutError` if the
    product cannot be the mesh size. By default each node holds whole mp groups (two nodes for a mesh
    without mp, when its size is even)."""
    size = 1
    for extent in shape:
        size *= extent
    if nnodes is None and nproc_per_node is None:
        group = _mp_group_size(shape, dim_names)
        if group > 1:
            return Layout(size // group, group)
        nnodes = 2 if size % 2 == 0 and size > 1 else 1
    if nnodes is not None and nproc_per_node is None and size % nnodes == 0:
        return Layout(nnodes, size // nnodes)
    if nproc_per_node is not None and nnodes is None and size % nproc_per_node == 0:
        return Layout(size // nproc_per_node, nproc_per_node)
    if nnodes is not None and nproc_per_node is not None and nnodes * nproc_per_node == size:
        return Layout(nnodes, nproc_per_node)
    fits = [
        f for f in _fitting(size) if f.nnodes == nnodes or f.nproc_per_node == nproc_per_node
    ] or _fitting(size)
    asked = " × ".join(
        part
        for part in (
            f"--nnodes {nnodes}" if nnodes is not None else "",
            f"--nproc {nproc_per_node}" if nproc_per_node is not None else "",
        )
        if part
    )
    raise LayoutError(
        t("parallel.export.layout", asked=asked, size=size, shape=str(list(shape))),
        t(
            "parallel.export.layout_fix",
            fits=" | ".join(f"--nnodes {f.nnodes} --nproc {f.nproc_per_node}" for f in fits),
        ),
    )


def mp_spans_nodes(shape: Sequence[int], dim_names: Sequence[str], layout: Layout) -> bool:
    """Whether some mp group has ranks on two nodes (global rank = node × nproc_per_node + local)."""
    if "mp" not in dim_names:
        return False
    import numpy as np

    axis = list(dim_names).index("mp")
    size = layout.nnodes * layout.nproc_per_node
    groups = np.moveaxis(np.arange(size).reshape(list(shape)), axis, -1).reshape(-1, shape[axis])
    return any(len({int(rank) // layout.nproc_per_node for rank in group}) > 1 for group in groups)


def _placement_code(text: str) -> str:
    """``"Shard(1)"`` → ``"dist.Shard(1)"``; ``"Partial(avg)"`` → ``dist.Partial(dist.ReduceType.kRedAvg)``."""
    if text.startswith("Partial"):
        return "dist.Partial(dist.ReduceType.kRedAvg)" if "avg" in text.lower() else "dist.Partial()"
    return f"dist.{text}"


def python_source(report: PlanReport, overrides: Sequence[str], train_name: str) -> str:
    """The rank script: the plan as code, training ``train_name`` found next to the script."""
    plan = report.plan
    assert plan is not None
    rp = rank_plan(report)
    planned = plan_code(rp)  # sequence-parallel markers, recompute, amp, pipeline: as plan run applies them
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
        "Each rank trains TRAIN_CONFIG (the copy next to this file) with paddle-workbench's engine (same",
        "seeds, metrics and checkpoints as `plan run`); the job is one run in $PADDLE_WORKBENCH_WORKSPACE",
        "(default ./.paddle-workbench). Runs from any working directory.",
        '"""',
        "",
        "import sys",
        "from pathlib import Path",
        "",
        "import paddle",
        "import paddle.distributed as dist",
        *planned.imports,
        "",
        f"TRAIN_CONFIG = str(Path(__file__).resolve().parent / {train_name!r})",
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
    lines += planned.setup
    config = planned.config
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
        f"            amp={planned.amp!r},",
        "        )",
        "    )",
        "",
    ]
    return "\n".join(lines)


def render(template: str, **values: Any) -> str:
    return template.format(**{k: str(v) for k, v in values.items()})


def _local_module(name: str, roots: Sequence[Path]) -> Path | None:
    """The file or package folder that ``import name`` finds first in ``roots``, if any."""
    top = name.split(".")[0]
    for root in roots:
        if (root / top / "__init__.py").is_file() or (root / top).is_dir() and any((root / top).glob("*.py")):
            return root / top
        if (root / f"{top}.py").is_file():
            return root / f"{top}.py"
    return None


def _imports_of(path: Path) -> set[str]:
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    names: set[str] = set()
    for file in files:
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def model_code(entry: str | None, config_dir: Path) -> tuple[list[Path], list[str]]:
    """What a ``task: custom`` run imports of the user's: the local files/packages to copy (the entry's
    module and, transitively, the local modules it imports — looked up as the engine does: the config's
    folder, then the current one) and, for an entry installed elsewhere, its ``pip install`` line."""
    if not entry:
        return [], []
    roots = [config_dir.resolve(), Path.cwd().resolve()]
    module = entry.partition(":")[0]
    found = _local_module(module, roots)
    if found is None:
        from importlib.metadata import packages_distributions, version

        dists = packages_distributions().get(module.split(".")[0], [])
        if dists:
            return [], [f"pip install {dists[0]}=={version(dists[0])}"]
        return [], [t("parallel.export.readme.module_missing", module=module)]
    import sys
    from importlib.metadata import packages_distributions

    installed = set(packages_distributions()) | set(sys.stdlib_module_names)
    home = [found.parent]  # the entry's siblings: what its own imports find first
    copied: list[Path] = []
    todo = [found]
    while todo:
        path = todo.pop()
        if path in copied:
            continue
        copied.append(path)
        for name in sorted(_imports_of(path) - installed):
            local = _local_module(name, home)
            if local is not None and local not in copied:
                todo.append(local)
    return copied, []


def _copy_code(paths: Sequence[Path], out: Path) -> list[str]:
    names = []
    for path in paths:
        if path.is_dir():
            shutil.copytree(path, out / path.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, out / path.name)
        names.append(path.name)
    return names


def _plan_copy(text: str, train_name: str) -> str:
    """The plan's text with its top-level ``train:`` naming the copied config (comments kept)."""
    replaced, count = re.subn(r"(?m)^train:[^\n#]*", f"train: {train_name}", text, count=1)
    if count:
        return replaced
    doc = yaml.safe_load(text)
    doc["train"] = train_name
    return yaml.safe_dump(doc, sort_keys=False)


def _train_overrides(cfg: Any, train_path: Path, overrides: Sequence[str]) -> list[str]:
    """The export's overrides: the user's, plus the data folder as an absolute path when the config
    names it relative to its own folder (the copy lives elsewhere; the data is not copied)."""
    keys = {o.partition("=")[0].strip() for o in overrides}
    out = list(overrides)
    if cfg.data is not None and "data.dir" not in keys and not Path(cfg.data.dir).expanduser().is_absolute():
        out.append(f"data.dir={cfg.data_dir(train_path).resolve()}")
    return out


def write_export(
    report: PlanReport,
    out: Path,
    *,
    overrides: Sequence[str] = (),
    nproc_per_node: int | None = None,
    nnodes: int | None = None,
) -> ExportResult:
    """Write the export folder (see the module docstring). :class:`LayoutError` when nodes × ranks per
    node is not the mesh size; :class:`FileExistsError` when a file it would write is already there."""
    from workbench.config.loader import load_model
    from workbench.config.training import TrainingConfig

    plan, train_path = report.plan, report.train_path
    assert plan is not None and train_path is not None
    shape, dims = list(plan.mesh.shape), list(plan.mesh.dim_names)
    layout = node_layout(shape, dims, nnodes, nproc_per_node)
    nodes, per_node = layout.nnodes, layout.nproc_per_node
    warnings = []
    if mp_spans_nodes(shape, dims, layout):
        group = _mp_group_size(shape, dims)
        warnings.append(
            t("parallel.export.mp_spans_nodes", nnodes=nodes, nproc=per_node, mp=group)
            + " ("
            + t("parallel.export.mp_spans_nodes_fix", nnodes=plan.mesh.size // group, nproc=group)
            + ")"
        )
    cfg = load_model(train_path, TrainingConfig, overrides)
    code, install = model_code(cfg.entry, train_path.parent)
    stem = report.path.stem
    train_name = train_path.name if train_path.name != report.path.name else f"train_{train_path.name}"
    names = [
        f"{stem}.py", "launch.sh", f"{stem}.slurm", f"{stem}.paddlejob.yaml", "commands.json", "README.md",
        train_name, report.path.name, *(path.name for path in code),
    ]  # fmt: skip
    there = [name for name in names if (out / name).exists() or (out / name).is_symlink()]
    if there:  # an export never replaces a file (a user's edited launch script, say)
        raise FileExistsError(t("parallel.export.exists", files=", ".join(there)))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy2(train_path, out / train_name)
    (out / report.path.name).write_text(
        _plan_copy(report.path.read_text(encoding="utf-8"), train_name), encoding="utf-8"
    )
    copied = _copy_code(code, out)
    script = out / f"{stem}.py"
    script.write_text(
        python_source(report, _train_overrides(cfg, train_path, overrides), train_name), encoding="utf-8"
    )
    gpu = not cfg.train.device.startswith("cpu")
    files = {
        "python": script,
        "launch": _write_launch(out, report, layout),
        "slurm": _write_slurm(out, stem, layout, gpu),
        "paddlejob": _write_paddlejob(out, stem, layout, gpu),
    }
    files["readme"] = _write_readme(out, report, layout, train_name, copied, install, gpu)
    commands = out / "commands.json"
    commands.write_text(
        json.dumps(
            {
                "single_node": render(
                    SINGLE_NODE_TEMPLATE, nproc=plan.mesh.size, log_dir="log", script=script.name
                ),
                "multi_node_template": MULTI_NODE_TEMPLATE,
                "script": script.name,
                "nnodes": nodes,
                "nproc_per_node": per_node,
                "slurm": _slurm_command(stem, layout),
                "paddlejob": paddlejob_command(stem, layout),
                "train_config": train_name,
                "model_code": copied,
                "install": install,
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    files["commands"] = commands
    return ExportResult(files=files, layout=layout, warnings=warnings)


def _write_launch(out: Path, report: PlanReport, layout: Layout) -> Path:
    plan = report.plan
    assert plan is not None
    stem, size = report.path.stem, plan.mesh.size
    script = f'"$HERE/{stem}.py"'
    single = render(SINGLE_NODE_TEMPLATE, nproc=size, log_dir='"${LOG_DIR:-log}"', script=script)
    multi = render(
        MULTI_NODE_TEMPLATE, master='"$1"', nnodes=layout.nnodes, rank='"$2"', nproc=layout.nproc_per_node,
        log_dir='"${LOG_DIR:-log}"', script=script,
    )  # fmt: skip
    path = out / "launch.sh"
    path.write_text(
        "\n".join(
            [
                "#!/bin/sh",
                f"# {stem}: {size} rank(s) on mesh {plan.mesh.shape} ({', '.join(plan.mesh.dim_names)}).",
                "# Runs from any working directory (logs in ./log, or $LOG_DIR; the run in",
                "# $PADDLE_WORKBENCH_WORKSPACE, default ./.paddle-workbench).",
                "#   One node:  sh launch.sh",
                f"#   {layout.nnodes} nodes x {layout.nproc_per_node} rank(s): on node R (0 .. {layout.nnodes - 1}),"
                " HOST:PORT being node 0's address:",
                "#              sh launch.sh HOST:PORT R",
                "set -e",
                'HERE=$(cd "$(dirname "$0")" && pwd)',
                'if [ "$#" -eq 0 ]; then',
                f"  exec {single}",
                "fi",
                'if [ "$#" -ne 2 ]; then',
                '  echo "usage: sh launch.sh [HOST:PORT NODE_RANK]" >&2',
                "  exit 2",
                "fi",
                f"exec {multi}",
                "",
            ]
        ),
        encoding="utf-8",
    )
    path.chmod(0o755)
    return path


def _slurm_command(stem: str, layout: Layout) -> str:
    return render(
        MULTI_NODE_TEMPLATE, master="$MASTER_ADDR:$MASTER_PORT", nnodes="$SLURM_NNODES", rank="$SLURM_NODEID",
        nproc=layout.nproc_per_node, log_dir='"$EXPORT_DIR/log/node-$SLURM_NODEID"',
        script=f'"$EXPORT_DIR/{stem}.py"',
    )  # fmt: skip


def _write_slurm(out: Path, stem: str, layout: Layout, gpu: bool) -> Path:
    gpus = [f"#SBATCH --gpus-per-node={layout.nproc_per_node}"] if gpu else []
    path = out / f"{stem}.slurm"
    path.write_text(
        "\n".join(
            [
                "#!/bin/bash",
                f"#SBATCH --job-name={stem}",
                f"#SBATCH --nodes={layout.nnodes}",
                "#SBATCH --ntasks-per-node=1",
                *gpus,
                "# CHANGE_ME: your cluster's partition (sinfo -s) and the job's time limit.",
                "#SBATCH --partition=CHANGE_ME",
                "#SBATCH --time=01:00:00",
                "#SBATCH --output=slurm-%j.out",
                "#",
                "# Submit from this folder (sbatch "
                + path.name
                + "), which must be on a filesystem every node",
                "# reads: the rank script, the training config and the model code are read from it, and the",
                "# ranks of all nodes write one run under $PADDLE_WORKBENCH_WORKSPACE. The data folder",
                "# (data.dir in TRAIN_OVERRIDES of the rank script) must be readable on every node too.",
                "set -euo pipefail",
                "EXPORT_DIR=${EXPORT_DIR:-$SLURM_SUBMIT_DIR}",
                "# A virtualenv on the shared filesystem with paddlepaddle and paddle-workbench (empty: the",
                "# python on PATH, e.g. from a module load).",
                "VENV=${VENV:-}",
                'if [ -n "$VENV" ]; then . "$VENV/bin/activate"; fi',
                "export PADDLE_WORKBENCH_WORKSPACE=${PADDLE_WORKBENCH_WORKSPACE:-$EXPORT_DIR/.paddle-workbench}",
                "# One paddle.distributed.launch per node; the first node of the allocation is the master.",
                'MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
                f"MASTER_PORT=${{MASTER_PORT:-{DEFAULT_PORT}}}",
                "export MASTER_ADDR MASTER_PORT EXPORT_DIR",
                f"srun bash -c {shlex.quote(_slurm_command(stem, layout))}",
                "",
            ]
        ),
        encoding="utf-8",
    )
    return path


def paddlejob_command(stem: str, layout: Layout) -> str:
    """The worker pods' command (run by ``bash -c`` in ``/workspace/<folder>``), in paddle-operator's
    variables: node rank ``PADDLE_TRAINER_ID``, nodes ``PADDLE_TRAINERS_NUM``, and worker 0's
    ``host:port`` — the first of ``PADDLE_TRAINER_ENDPOINTS`` — as the rendezvous master. Paddle's
    launcher derives the same master and node count from ``PADDLE_TRAINER_ENDPOINTS`` by itself (its
    ``collective_compatible`` plugin, which is why the operator's examples launch bare); the command
    spells them out so that it reads, and fails, the same everywhere."""
    return render(
        MULTI_NODE_TEMPLATE, master=OPERATOR_MASTER, nnodes=OPERATOR_NNODES, rank=OPERATOR_RANK,
        nproc=layout.nproc_per_node, log_dir="log", script=f"{stem}.py",
    )  # fmt: skip


def _write_paddlejob(out: Path, stem: str, layout: Layout, gpu: bool) -> Path:
    container: dict[str, Any] = {
        "name": "paddle",
        "image": "paddlepaddle/paddle:3.3.1",
        "workingDir": f"{WORKSPACE_MOUNT}/{out.resolve().name}",
        "command": ["bash", "-c", paddlejob_command(stem, layout)],
        "volumeMounts": [{"mountPath": "/dev/shm", "name": "dshm"}],
    }
    if gpu:
        container["resources"] = {"limits": {"nvidia.com/gpu": layout.nproc_per_node}}
    manifest = {
        "apiVersion": "batch.paddlepaddle.org/v1",
        "kind": "PaddleJob",
        "metadata": {"name": re.sub(r"[^a-z0-9-]+", "-", stem.lower()).strip("-") or "plan"},
        "spec": {
            "cleanPodPolicy": "OnCompletion",
            "intranet": "PodIP",
            "worker": {
                "replicas": layout.nnodes,
                "template": {
                    "spec": {
                        "containers": [container],
                        "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
                    }
                },
            },
        },
    }
    path = out / f"{stem}.paddlejob.yaml"
    path.write_text(
        f"# Kubernetes PaddleJob (paddle-operator) for {stem}: {layout.nnodes} worker pod(s), "
        f"{layout.nproc_per_node} rank(s) each.\n"
        f"# The image needs paddlepaddle and paddle-workbench; this folder at {WORKSPACE_MOUNT}/{out.resolve().name}\n"
        "# (baked into the image or on a volume mounted there). The command reads the operator's own\n"
        "# variables: PADDLE_TRAINER_ID, PADDLE_TRAINERS_NUM and PADDLE_TRAINER_ENDPOINTS.\n"
        + yaml.safe_dump(manifest, sort_keys=False),
        encoding="utf-8",
    )
    return path


def _write_readme(
    out: Path,
    report: PlanReport,
    layout: Layout,
    train_name: str,
    copied: Sequence[str],
    install: Sequence[str],
    gpu: bool,
) -> Path:
    plan = report.plan
    assert plan is not None
    stem = report.path.stem
    code = (
        [f"- model code copied in: {', '.join(copied)} (imported from this folder)"]
        if copied
        else [f"- model code: {line}" for line in install]
    )
    lines = [
        f"# {stem} — exported by `paddle-workbench plan export`",
        "",
        f"The sharding plan `{report.path.name}` on mesh {plan.mesh.shape} ({', '.join(plan.mesh.dim_names)}):"
        f" {plan.mesh.size} rank(s), laid out as {layout.nnodes} node(s) x {layout.nproc_per_node} rank(s).",
        "",
        "## What is here",
        "",
        f"- `{stem}.py` — the plan as code; trains `{train_name}` (next to it) with paddle-workbench's engine.",
        f"- `{train_name}`, `{report.path.name}` — the training config and the plan, copied.",
        *code,
        "- `launch.sh`, "
        f"`{stem}.slurm`, `{stem}.paddlejob.yaml` — one node, several nodes, Slurm, Kubernetes.",
        "",
        "## What every node needs",
        "",
        "- Python with `paddlepaddle` ("
        + ("GPU build" if gpu else "CPU build is enough: train.device is cpu")
        + ") and `paddle-workbench` installed.",
        "- This folder (any path; the files find each other relative to it).",
        "- The data: `data.dir` in `TRAIN_OVERRIDES` of the rank script (or in the config) must be readable there.",
        "- For one run of all ranks: the same `PADDLE_WORKBENCH_WORKSPACE` on a shared filesystem.",
        "",
        "## Run",
        "",
        "    sh launch.sh                       # one node, all ranks",
        f"    sh launch.sh HOST:PORT R           # node R of {layout.nnodes}; HOST:PORT = node 0's address",
        f"    sbatch {stem}.slurm                # Slurm: edit the CHANGE_ME partition and the time first",
        f"    kubectl apply -f {stem}.paddlejob.yaml   # paddle-operator: folder at {WORKSPACE_MOUNT}/{out.resolve().name}",
        "",
    ]
    path = out / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
