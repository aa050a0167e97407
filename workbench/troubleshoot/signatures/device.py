"""Signatures: The device a program asked for is not the device it has (CPU build, no GPU, wrong id, data on the wrong place)."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
