"""Shared by the sharding-plan tests: a small training config in tmp and plan files beside it, and the
way launched plan runs are made for a module (data and model facts once, jobs started together)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import TypeVar

from click.testing import Result

T = TypeVar("T")

TRAIN = textwrap.dedent(
    """\
    task: image_classification
    data: {{dir: {data}, format: cls, demo: {{train: 256, val: 64, seed: 0}}}}
    model: {{name: small_cnn_mlp, width: 8, hidden: 64}}
    train: {{steps: {steps}, batch_size: 32, lr: 0.05, optimizer: sgd, seed: 7, device: cpu}}
    eval: {{every: 0, max_samples: 64}}
    checkpoint: {{every: 0, keep: 1}}
    alerts: {{hang_after_s: 2}}
    export: {{enabled: false}}
    """
)


def write_train(folder: Path, steps: int = 8) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "train.yaml"
    path.write_text(TRAIN.format(data=str(folder / "data"), steps=steps))
    return path


def write_plan(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text("train: train.yaml\n" + textwrap.dedent(body))
    return path


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


# paddle-operator's variables (github.com/PaddleFlow/paddle-operator, controllers/paddlejob_helper.go).
OPERATOR_ENV = {
    # set on each pod's container (constructPod) ...
    "POD_IP", "PADDLE_TRAINER_ID", "TRAINING_ROLE", "PADDLE_TRAINING_ROLE",
    # ... and from the job's ConfigMap (constructConfigMap), for the workers
    "TRAINER_PORTS_NUM", "PADDLE_PORT", "PADDLE_TRAINER_ENDPOINTS", "PADDLE_TRAINERS", "PADDLE_TRAINERS_NUM",
}  # fmt: skip
PADDLE_PORT = 36000
"""The operator's ``PADDLE_PORT`` (controllers/paddlejob_controller.go): every worker's endpoint port."""


def operator_env(node: int, endpoints: list[str]) -> dict[str, str]:
    """What paddle-operator sets in worker pod ``node`` of a job whose workers are ``endpoints``
    (``host:port``, intranet PodIP): each pod's own variables and the job's ConfigMap."""
    hosts = [endpoint.rpartition(":")[0] for endpoint in endpoints]
    return {
        "POD_IP": hosts[node],
        "PADDLE_TRAINER_ID": str(node),
        "TRAINING_ROLE": "TRAINER",
        "PADDLE_TRAINING_ROLE": "TRAINER",
        "TRAINER_PORTS_NUM": "20",
        "PADDLE_PORT": endpoints[node].rpartition(":")[2],
        "PADDLE_TRAINER_ENDPOINTS": ",".join(endpoints),
        "PADDLE_TRAINERS": ",".join(hosts),
        "PADDLE_TRAINERS_NUM": str(len(endpoints)),
    }


def kubernetes_expand(text: str, env: dict[str, str]) -> str:
    """Kubernetes' own expansion of a container command before it runs: ``$(VAR)`` of a set variable
    becomes its value, an unset one stays as written, ``$$`` is ``$``."""

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        return env.get(match.group(1), match.group(0))

    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)", one, text)


def concurrently(calls: Mapping[str, Callable[[], T]], workers: int = 4) -> dict[str, T]:
    """Each call of ``calls`` on a pool of ``workers`` threads, in the mapping's order (longest first);
    ``name -> result``. For launched jobs: a launch is mostly start-up (imports, the launcher's
    rendezvous and its 1 s status poll), so independent jobs started together overlap what each would
    wait through alone. The first exception is raised once every call has ended (no job left running)."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {name: pool.submit(call) for name, call in calls.items()}
        wait(futures.values())
    return {name: future.result() for name, future in futures.items()}


def prepare_cls_data(folder: Path, n_train: int, n_val: int) -> Path:
    """The demo data a config's ``data.demo: {train: N, val: M, seed: 0}`` makes, made here once: jobs
    started together never race to make it, and the model-facts cache key (which hashes the data) is
    the same for all of them."""
    from workbench.datasets import generate_cls_demo

    generate_cls_demo(folder, n_train=n_train, n_val=n_val, seed=0)
    return folder


def cache_plan_facts(plan: Path, workspace: Path, train_overrides: Sequence[str]) -> None:
    """Check ``plan`` once in this process with the workspace's model-facts cache, so that the
    ``plan run``\\ s started together afterwards all reuse the facts (as a user's second run does)
    instead of each building them in a child process."""
    from workbench.parallel.facts_cache import cache_folder
    from workbench.parallel.validate import check_plan

    report = check_plan(plan, train_overrides=train_overrides, facts_cache=cache_folder(workspace))
    assert report.ok, [str(e) for e in report.errors]


def workbench_in_process(workspace: Path, *args: str) -> Result:
    """``paddle-workbench --workspace WORKSPACE ARGS`` in this process (click's runner): for commands
    whose process is not what a test is about (``plan parity``, ``runs``), where a fresh interpreter
    would cost a second of CPU and a traceback shows as ``exception``."""
    from click.testing import CliRunner

    from workbench.cli.root import build_cli

    return CliRunner().invoke(build_cli(), ["--workspace", str(workspace), *args])
