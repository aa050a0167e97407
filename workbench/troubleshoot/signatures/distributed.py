"""Signatures: Launched multi-process jobs: collective back ends (NCCL, gloo), rendezvous (TCPStore), the launcher's tail,"""

from pathlib import Path

from workbench.troubleshoot.signatures._family import register_family

register_family(__name__, Path(__file__).with_suffix(".yaml"))
