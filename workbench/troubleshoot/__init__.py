"""Troubleshooting: known error signatures (``diagnose``) and guided flows (the wizard).

Two registries live here, one folder each, empty until the troubleshooting feature fills them:
:mod:`workbench.troubleshoot.signatures` and :mod:`workbench.troubleshoot.flows`.
"""
