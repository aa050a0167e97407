"""Paddle Inference predictor on GPU 0 with IR optimisation on — only where Paddle sees a CUDA device.

On a CPU-only machine the path is listed as skipped with the reason, and no matrix row is written for it.
"""

from __future__ import annotations

from typing import Any

from workbench.i18n import t
from workbench.inference.paths import PATHS, ComparePath, PathContext, Runner
from workbench.inference.paths._predictor import open_predictor


def _unavailable(paddle: Any) -> str | None:
    from workbench.training.runtime import cuda_available

    return None if cuda_available(paddle) else t("inference.path.no_gpu")


def _open(ctx: PathContext) -> Runner:
    return open_predictor(ctx, ir_optim=True, memory_optim=False, gpu=True)


PATHS.register(
    "predictor_gpu",
    ComparePath(
        order=55,
        label_key="inference.path.predictor_gpu",
        open=_open,
        unavailable=_unavailable,
        device="gpu",
        tolerance=1e-4,  # cuDNN picks other algorithms than the CPU kernels: float32 sums in another order
    ),
)
