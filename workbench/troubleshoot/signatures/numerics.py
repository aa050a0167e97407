"""Signatures: Non-finite values: NaN / Inf losses and Paddle's FLAGS_check_nan_inf reports."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
