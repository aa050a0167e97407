"""Signatures: `import paddle` (or a kit) fails: CPU instructions, C/C++ runtime too old, Windows DLLs, missing packages."""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
