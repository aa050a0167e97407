"""Signatures: Datasets the training cannot read: labels out of range, list files in the wrong format, missing files."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
