"""Signatures for libraries Paddle loads at run time (cuDNN, cuBLAS, CUDA runtime, NCCL) and driver versions."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
