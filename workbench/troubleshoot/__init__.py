"""Troubleshooting: known error signatures (``diagnose``) and guided flows (the wizard).

Two registries live here, one folder of YAML files each: :mod:`workbench.troubleshoot.signatures` and
:mod:`workbench.troubleshoot.flows`.
"""
