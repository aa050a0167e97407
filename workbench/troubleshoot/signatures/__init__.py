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


FRAME_KINDS = ("user", "kit", "paddle", "library", "stdlib")
"""Whose code a traceback frame is (:func:`~workbench.troubleshoot.reading.frame_kind`); a ``raised_in``
condition names these or a kit (``paddleocr``, ``paddlex`` … the values of
:data:`~workbench.troubleshoot.reading.KIT_NAMES`)."""


@dataclass(frozen=True)
class PatternRule:
    """How one of a signature's :attr:`~Signature.patterns` ranks or is gated when it is the one that
    matched (a pattern without a rule has the signature's own priority and gate)."""

    pattern: str
    """The pattern, one of :attr:`Signature.patterns`."""
    priority: int | None = None
    """The signature's priority when this pattern matched (``None``: the signature's own); a precise
    message ranks its signature above a generic one, a vague wording below."""
    raised_in: tuple[str, ...] = ()
    """The pattern counts only when the log's final exception was raised in a frame of one of these
    kinds or kits (see :attr:`Signature.raised_in`); empty: the signature's own gate."""


@dataclass(frozen=True)
class ExceptionCondition:
    """A condition on the log's final exception beyond the signature's first one (its own ``types`` and
    ``message``, and optionally its own priority and frame gate)."""

    types: tuple[str, ...] = ()
    message: tuple[str, ...] = ()
    priority: int | None = None
    raised_in: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    """RE2 patterns on the source line of the frame the exception was raised in (what Python printed
    under it: ``import ppdet.data.source as source``); any one. A log without that line fails it."""


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
    pattern_rules: tuple[PatternRule, ...] = ()
    """Per-pattern priority and frame gate, for the patterns that have their own (the rest rank with
    :attr:`priority`)."""
    exceptions: tuple[ExceptionCondition, ...] = ()
    """More conditions on the final exception, each with its own types, message, priority and gate
    (:attr:`exception_types` / :attr:`exception_message` are the first one)."""
    raised_in: tuple[str, ...] = ()
    """A gate on every way this signature matches: the log's final exception was raised in a frame of one
    of these kinds (:data:`FRAME_KINDS`) or kits — the innermost frame of its traceback outside the
    standard library. A log without traceback frames does not pass it. Empty: no gate."""
    log_ends: tuple[str, ...] = ()
    """RE2 patterns for the line a log stops at: the signature matches when the log's last non-blank line
    matches one of them, or only lines matching :attr:`log_ends_after` follow such a line (within its last
    :attr:`log_ends_lines` non-blank lines), and no failure (exception, C++ error, traceback frame) is
    read at or after it — a log that stops at NCCL or rendezvous start-up is a hang."""
    log_ends_after: tuple[str, ...] = ()
    """RE2 patterns for lines that may follow the :attr:`log_ends` line (the GPU banner Paddle prints
    right after its communicator starts); any other line after it means the log went on."""
    log_ends_lines: int = 3
    """How many of the log's last non-blank lines :attr:`log_ends` looks at."""
    log_ends_priority: int | None = None
    """The priority when the signature matched by :attr:`log_ends` (``None``: :attr:`priority`)."""

    def __post_init__(self) -> None:
        """Refuse, at registration, a pattern that linear-time matching cannot run (``ValueError``), a
        pattern rule for a pattern the signature does not have, and an unknown frame kind."""
        from workbench.troubleshoot.signatures._linear import compile_linear

        messages = [m for condition in self.exceptions for m in (*condition.message, *condition.code)]
        for pattern in (
            *self.patterns,
            *self.exception_message,
            *self.libraries,
            *messages,
            *self.log_ends,
            *self.log_ends_after,
        ):
            compile_linear(pattern)
        for rule in self.pattern_rules:
            if rule.pattern not in self.patterns:
                raise ValueError(f"pattern rule for {rule.pattern!r}, which is not one of the patterns")
        gates = [*self.raised_in, *(g for r in self.pattern_rules for g in r.raised_in)]
        gates += [g for condition in self.exceptions for g in condition.raised_in]
        for gate in gates:
            if gate not in raised_in_names():
                raise ValueError(f"raised_in {gate!r}: not one of {', '.join(raised_in_names())}")
        if not 1 <= self.log_ends_lines <= MAX_LOG_ENDS_LINES:
            raise ValueError(f"log_ends_lines must be between 1 and {MAX_LOG_ENDS_LINES}")

    def exception_conditions(self) -> tuple[ExceptionCondition, ...]:
        """Every condition on the final exception: the first one (:attr:`exception_types`,
        :attr:`exception_message`, the signature's priority and gate) then :attr:`exceptions`."""
        first = (
            (ExceptionCondition(self.exception_types, self.exception_message),)
            if self.exception_types or self.exception_message
            else ()
        )
        return first + self.exceptions


MAX_LOG_ENDS_LINES = 20
"""The most last lines a ``log_ends`` condition may look at (the end of a log, not its body)."""


def raised_in_names() -> tuple[str, ...]:
    """What a ``raised_in`` condition may name: the frame kinds, then the kits."""
    from workbench.troubleshoot.reading import KIT_NAMES

    return FRAME_KINDS + tuple(sorted(set(KIT_NAMES.values())))


SIGNATURES: Registry[Signature] = Registry(
    "signature", __name__, data_loader=f"{__name__}._family:register_family"
)
"""Every known error signature, by id (``family.name``)."""

__all__ = [
    "FRAME_KINDS",
    "MAX_LOG_ENDS_LINES",
    "SIGNATURES",
    "ExceptionCondition",
    "PatternRule",
    "Signature",
    "SignatureText",
    "Wording",
    "raised_in_names",
]
