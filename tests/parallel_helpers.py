"""Shared by the sharding-plan tests: a small training config in tmp and plan files beside it."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

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
