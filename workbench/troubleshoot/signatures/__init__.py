"""Error signatures for ``paddle-workbench diagnose``: one YAML file per family of errors in this folder.

An entry is a :class:`Signature`: the patterns that recognise one known error in a log or traceback,
and what to tell the user about it (its title, its cause, its fix) in English and Chinese, written beside
the patterns (:class:`SignatureText`). ``examples`` holds at
least one realistic message; a test feeds every example through ``diagnose`` and expects this
signature to rank first. A signature that is a *consequence* of another error (the launcher's
"Container failed" tail, the other ranks' timeouts) ranks below root causes.

Each file of this folder is a family of signatures: ``<family>.yaml`` holds its entries, read and
validated by :func:`~workbench.troubleshoot.signatures._family.register_family` (a broken file is a
``ConfigError`` located to ``file:line:col``). Adding a family is one new YAML file here, texts included;
adding a signature is one YAML entry. A Python module here may also register
:class:`Signature` entries itself (``SIGNATURES.register(...)``) where YAML cannot say it.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.i18n import Language, current_language
from workbench.registry import Registry


@dataclass(frozen=True)
class Wording:
    """What one signature tells the user, in one language."""

    title: str
    """The one-line name of the error."""
    cause: str
    """The cause, in the user's words."""
    fix: str
    """What to do (a command to run where there is one)."""


@dataclass(frozen=True)
class SignatureText:
    """A signature's wording in every language of the catalog (English and Simplified Chinese)."""

    en: Wording
    zh: Wording

    def of(self, lang: Language | None = None) -> Wording:
        """The wording in ``lang`` (default: the language in force)."""
        return self.zh if (lang or current_language()) == "zh" else self.en

    def pairs(self) -> list[tuple[str, str]]:
        """(English, Chinese) of the title, the cause and the fix: what the invariants check."""
        return [(self.en.title, self.zh.title), (self.en.cause, self.zh.cause), (self.en.fix, self.zh.fix)]


@dataclass(frozen=True)
class Signature:
    """One known error: how to recognise it in a log, and what to tell the user about it."""

    patterns: tuple[str, ...]
    """Regular expressions in RE2 syntax, searched per line in time linear in the line; any one of them
    marks a match. No look-around or back-references, and ``\\d \\w \\s \\b`` are ASCII (see
    :mod:`~workbench.troubleshoot.signatures._linear`)."""
    text: SignatureText
    """What to tell the user (title, cause, fix) in English and Chinese."""
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
    exception_types: tuple[str, ...] = ()
    """Structural match on the log's final exception (:mod:`~workbench.troubleshoot.reading`): its type,
    the last dotted part (``AttributeError``, ``InvalidArgumentError``); any one. With
    :attr:`exception_message`, both must hold."""
    exception_message: tuple[str, ...] = ()
    """RE2 patterns searched in the final exception's message (and Paddle's ``[Hint: …]``); any one."""
    errnos: tuple[str, ...] = ()
    """Errno names (``ENOSPC``, ``EACCES``, ``ECONNREFUSED``, ``EAI_AGAIN`` …) the reading found, from
    ``[Errno N]``, ``[WinError N]``, the names or the C library's wording in English or Chinese; any one."""
    libraries: tuple[str, ...] = ()
    """RE2 patterns matched against each library name the reading found in a loader error
    (``libGL.so.1``, ``cudnn64_8.dll``, ``libsndfile``); any one."""
    facts: tuple[str, ...] = ()
    """Names of version-facts checks (:data:`~workbench.troubleshoot.versions.FACTS`); the signature
    matches when one of them finds the log's versions break its fact."""

    def __post_init__(self) -> None:
        """Refuse, at registration, a pattern that linear-time matching cannot run (``ValueError``)."""
        from workbench.troubleshoot.signatures._linear import compile_linear

        for pattern in (*self.patterns, *self.exception_message, *self.libraries):
            compile_linear(pattern)


SIGNATURES: Registry[Signature] = Registry(
    "signature", __name__, data_loader=f"{__name__}._family:register_family"
)
"""Every known error signature, by id (``family.name``)."""

__all__ = ["SIGNATURES", "Signature", "SignatureText", "Wording"]
