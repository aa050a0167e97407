"""Signatures: An operator has no kernel for this device, data type or export format."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
