"""Error signatures for ``paddle-workbench diagnose``: one YAML file per family of errors in this folder.

An entry is a :class:`Signature`: the patterns that recognise one known error in a log or traceback,
and the catalog keys of what to tell the user (its title, its cause, its fix). ``examples`` holds at
least one realistic message; a test feeds every example through ``diagnose`` and expects this
signature to rank first. A signature that is a *consequence* of another error (the launcher's
"Container failed" tail, the other ranks' timeouts) ranks below root causes.

Each file of this folder is a family of signatures: ``<family>.yaml`` holds its entries, read and
validated by :func:`~workbench.troubleshoot.signatures._family.register_family` (a broken file is a
``ConfigError`` located to ``file:line:col``). Adding a family is one new YAML file here plus its catalog
strings (``diagnose.<id>.title/.cause/.fix`` in ``workbench/i18n/messages/troubleshoot.py``); adding a
signature is one YAML entry plus its strings. A Python module here may also register
:class:`Signature` entries itself (``SIGNATURES.register(...)``) where YAML cannot say it.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.registry import Registry


@dataclass(frozen=True)
class Signature:
    """One known error: how to recognise it in a log, and what to tell the user about it."""

    patterns: tuple[str, ...]
    """Regular expressions in RE2 syntax, searched per line in time linear in the line; any one of them
    marks a match. No look-around or back-references, and ``\\d \\w \\s \\b`` are ASCII (see
    :mod:`~workbench.troubleshoot.signatures._linear`)."""
    title_key: str
    """Catalog key of the one-line name of the error."""
    cause_key: str
    """Catalog key of the cause, in the user's words."""
    fix_key: str
    """Catalog key of what to do (a command to run where there is one)."""
    examples: tuple[str, ...] = ()
    """Realistic messages this signature must match (each one is a test)."""
    consequence: bool = False
    """A symptom of another error (ranked below root causes when both match)."""
    keys: tuple[str, ...] = ()
    """Literal substrings, one of which every matching line contains: only lines holding a key are
    searched with :attr:`patterns`, which keeps a 100k-line log fast. Empty: every line is searched."""
    priority: int = 0
    """Among signatures of the same kind (root cause or consequence), a higher one ranks first: a specific
    signature (cuDNN not found) above a generic one (a third-party library not found)."""

    def __post_init__(self) -> None:
        """Refuse, at registration, a pattern that linear-time matching cannot run (``ValueError``)."""
        from workbench.troubleshoot.signatures._linear import compile_linear

        for pattern in self.patterns:
            compile_linear(pattern)


SIGNATURES: Registry[Signature] = Registry(
    "signature", __name__, data_loader=f"{__name__}._family:register_family"
)
"""Every known error signature, by id (``family.name``)."""

__all__ = ["SIGNATURES", "Signature"]
