"""Error signatures for ``paddle-workbench diagnose``: one module per family of errors in this folder.

An entry is a :class:`Signature`: the patterns that recognise one known error in a log or traceback,
and the catalog keys of what to tell the user (its title, its cause, its fix). ``examples`` holds at
least one realistic message; a test feeds every example through ``diagnose`` and expects this
signature to rank first. A signature that is a *consequence* of another error (the launcher's
"Container failed" tail, the other ranks' timeouts) ranks below root causes.

Adding one is one new module here plus its catalog strings::

    # workbench/troubleshoot/signatures/cudnn.py
    from workbench.troubleshoot.signatures import SIGNATURES, Signature

    SIGNATURES.register(
        "cudnn.load_failed",
        Signature(
            patterns=(r"Cannot load cudnn shared library",),
            title_key="diagnose.cudnn.load_failed.title",
            cause_key="diagnose.cudnn.load_failed.cause",
            fix_key="diagnose.cudnn.load_failed.fix",
            examples=("... Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.",),
        ),
    )

A module may also load a family of signatures from a YAML file beside it and register each — that is
how the shipped ones are written (``libraries.py`` + ``libraries.yaml``, validated by
:mod:`workbench.troubleshoot.signatures._family`): adding one is then one YAML entry plus its catalog
strings (``workbench/i18n/messages/troubleshoot.py``).
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


SIGNATURES: Registry[Signature] = Registry("signature", __name__)
"""Every known error signature, by id (``family.name``)."""

__all__ = ["SIGNATURES", "Signature"]
