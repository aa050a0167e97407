"""Signatures: Weights that do not load (shape or name mismatches, truncated files) — often a silent warning."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
