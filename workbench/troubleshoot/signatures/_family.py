"""A family of ``diagnose`` signatures written as one YAML file in the folder, validated by pydantic.

A family file holds ``signatures:``, a list of entries::

    signatures:
      - id: libraries.cudnn            # family.name
        text:                          # what the user is told, English and Chinese (all six required)
          en:
            title: "cuDNN library not found"
            cause: "Paddle's GPU build loads libcudnn at run time and could not find it."
            fix: "Install the cuDNN your Paddle wheel was built for; run 'paddle-workbench check'."
          zh:
            title: "找不到 cuDNN 库"
            cause: "Paddle GPU 版在运行时加载 libcudnn，但没有找到。"
            fix: "安装与 Paddle 编译时一致的 cuDNN；然后运行 'paddle-workbench check'。"
        keys: ["cudnn"]                # literal substrings every matching line holds (the fast prefilter)
        patterns: ["(?i)cannot load cudnn shared library"]
        priority: 20                   # optional: specific above generic
        consequence: false             # optional: a symptom of another error
        examples:                      # realistic messages; a test expects this signature first for each
          - "Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion."

An entry may also (or instead of ``keys``/``patterns``) match the structure of the log, read by
:mod:`~workbench.troubleshoot.reading`::

        exception:                     # the log's final exception (Python's, or a C++ error block's)
          types: [AttributeError]      # its type's last dotted part; any one
          message: ["module 'paddle(\\.\\w+)*' has no attribute"]   # RE2 on its message; any one
        errnos: [ENOSPC, EDQUOT]       # errno names the reading found; any one
        libraries: ['^libGL\\.so']      # RE2 on each library name found in a loader error; any one
        facts: [kit_needs_newer_paddle]   # version-facts checks (workbench.troubleshoot.versions.FACTS)

Three conditions rank or gate what matched:

- **Per-pattern priority**: an item of ``patterns`` may be a mapping, ``{pattern: '…', priority: 15}``;
  when that pattern is one that matched, the signature ranks with that priority instead of its own (the
  highest of the matched patterns' priorities counts), so a precise message outranks a generic one and a
  vague wording can rank below its default. ``exception:`` may likewise be a list of conditions, each
  with its own ``priority``.
- **Where the exception was raised** (``raised_in``): the innermost frame of the final exception's
  traceback outside the standard library is of one of these kinds — ``kit`` (PaddleOCR, PaddleX,
  PaddleDetection … installed or checked out), ``paddle``, ``user``, ``library``, ``stdlib`` — or in one
  of these kits (``paddleocr``, ``paddlex`` …). On the signature it gates every way of matching; on a
  pattern item or an exception condition, that one only. A log without traceback frames never passes it::

        exception:
          - {types: [AttributeError], message: ["module 'paddle' has no attribute"], raised_in: [kit],
             priority: 14}          # a kit calls an API its Paddle lacks: the kit and Paddle do not fit
          - {types: [AttributeError], message: ["module 'paddle' has no attribute"], raised_in: [user]}

- **How the log ends** (``log_ends``): the log's last non-blank line matches one of ``patterns``, or only
  lines matching ``after`` follow such a line within its last ``lines`` (default 3, at most 20) non-blank
  lines, and no failure (an exception, a C++ error, a traceback frame) is read at or after it — a job that
  stopped printing at NCCL or rendezvous start-up, a silent hang::

        log_ends:
          patterns: ['nccl_context\\.cc:\\d+\\] init nccl context']
          after: ['Please NOTE: device: \\d+', 'cuDNN Version']   # optional: lines that may follow it
          lines: 8
          priority: 8                  # optional: the priority when it matched this way

An exception condition may also hold the source line of the frame it was raised in (``code:``, RE2, any
one): ``{types: [AttributeError], code: ['^import [\\w.]+ as \\w+$']}``.

The registry reads every ``*.yaml`` file of the folder with :func:`register_family`. A broken file (a bad
regular expression, a missing key, an unknown field) raises a :class:`~workbench.config.errors.ConfigError`
located to the line, so a test — never a user — meets it.
Patterns are RE2 (:mod:`~workbench.troubleshoot.signatures._linear`): matching is linear in the line by
construction, so a pattern is refused only when RE2 cannot run it (look-around, back-references) or its
compiled program is too large — never for nested quantifiers or ``.*`` between alternations, which are
harmless under RE2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from workbench.config.loader import load_model
from workbench.troubleshoot.signatures import (
    MAX_LOG_ENDS_LINES,
    SIGNATURES,
    ExceptionCondition,
    PatternRule,
    Signature,
    SignatureText,
    Wording,
    raised_in_names,
)
from workbench.troubleshoot.signatures._linear import compile_linear
from workbench.troubleshoot.versions import FACTS


def _linear_pattern(pattern: str) -> str:
    """Validate one pattern on its own, so a refused one is located to its own line."""
    compile_linear(pattern)  # ValueError: a sentence naming the pattern and why RE2 cannot run it
    return pattern


class WordingSpec(BaseModel):
    """A signature's title, cause and fix in one language (none may be blank)."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1, pattern=r"\S")
    cause: str = Field(min_length=1, pattern=r"\S")
    fix: str = Field(min_length=1, pattern=r"\S")


class TextSpec(BaseModel):
    """A signature's wording in both languages of the catalog."""

    model_config = ConfigDict(extra="forbid")

    en: WordingSpec
    zh: WordingSpec

    def to_text(self) -> SignatureText:
        return SignatureText(
            en=Wording(self.en.title.strip(), self.en.cause.strip(), self.en.fix.strip()),
            zh=Wording(self.zh.title.strip(), self.zh.cause.strip(), self.zh.fix.strip()),
        )


def _frame_owner(name: str) -> str:
    if name not in raised_in_names():
        raise ValueError(f"raised_in {name!r}: not one of {', '.join(raised_in_names())}")
    return name


FrameOwner = Annotated[str, AfterValidator(_frame_owner)]
"""A frame kind (``kit``, ``paddle``, ``user``, ``library``, ``stdlib``) or a kit (``paddleocr`` …)."""


class PatternSpec(BaseModel):
    """A pattern with its own priority and/or frame gate (``{pattern: '…', priority: 15}``)."""

    model_config = ConfigDict(extra="forbid")

    pattern: Annotated[str, AfterValidator(_linear_pattern)]
    priority: int | None = None
    """The signature's priority when this pattern matched (default: the signature's)."""
    raised_in: list[FrameOwner] = []
    """The pattern counts only when the final exception was raised in one of these (default: no gate)."""


class LogEndsSpec(BaseModel):
    """A condition on how the log ends: its last non-blank lines, with no failure after them."""

    model_config = ConfigDict(extra="forbid")

    patterns: list[Annotated[str, AfterValidator(_linear_pattern)]] = Field(min_length=1)
    """RE2 patterns for the line the log stops at."""
    after: list[Annotated[str, AfterValidator(_linear_pattern)]] = []
    """RE2 patterns for lines that may follow it (any other line means the log went on)."""
    lines: int = Field(default=3, ge=1, le=MAX_LOG_ENDS_LINES)
    priority: int | None = None
    """The signature's priority when it matched this way (default: the signature's)."""


class ExceptionSpec(BaseModel):
    """A structural condition on the log's final exception: its type and/or its message."""

    model_config = ConfigDict(extra="forbid")

    priority: int | None = None
    """The signature's priority when this condition matched (default: the signature's)."""
    raised_in: list[FrameOwner] = []
    """The condition holds only when the exception was raised in one of these (default: no gate)."""
    code: list[Annotated[str, AfterValidator(_linear_pattern)]] = []
    """RE2 patterns on the source line of the frame it was raised in; any one (default: no condition)."""

    types: list[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")]] = []
    """Exception type names, any one: a plain name is the type's last dotted part (``SSLError`` matches
    ``requests.exceptions.SSLError``), a dotted one the end of the type as printed
    (``requests.exceptions.ConnectionError`` but not the builtin ``ConnectionError``)."""
    message: list[Annotated[str, AfterValidator(_linear_pattern)]] = []
    """RE2 patterns searched in the exception's message and hint; any one."""

    @model_validator(mode="after")
    def _something(self) -> ExceptionSpec:
        if not self.types and not self.message and not self.code:
            raise ValueError("give the exception's types, its message patterns or its frame's code")
        return self


def _shape(value: object) -> str:
    """Which form an item is written in: a plain string, a mapping, or a list (one error per item,
    located to it, instead of one per form it could have had)."""
    if isinstance(value, str):
        return "text"
    return "list" if isinstance(value, list) else "mapping"


PatternItem = Annotated[
    Annotated[Annotated[str, AfterValidator(_linear_pattern)], Tag("text")]
    | Annotated[PatternSpec, Tag("mapping")],
    Discriminator(_shape),
]
"""A pattern: a plain RE2 string, or a :class:`PatternSpec` with its own priority and frame gate."""
ExceptionItem = Annotated[
    Annotated[ExceptionSpec, Tag("mapping")] | Annotated[list[ExceptionSpec], Tag("list")],
    Discriminator(_shape),
]
"""One condition on the final exception, or a list of them (any one)."""


def _known_fact(name: str) -> str:
    if name not in FACTS:
        raise ValueError(f"no version-facts check {name!r}; known: {', '.join(sorted(FACTS))}")
    return name


class SignatureSpec(BaseModel):
    """One signature as written in a family file."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9_]+\.[a-z0-9_]+$")
    """``family.name``."""
    text: TextSpec
    """What the user is told (title, cause, fix) in English and Chinese."""
    keys: list[str] = []
    """Literal substrings; a line is searched with the patterns only when it holds one of them."""
    patterns: list[PatternItem] = []
    """RE2 regular expressions searched per line (linear time); any one marks a match. An item may be a
    :class:`PatternSpec` with its own priority and frame gate."""
    exception: ExceptionItem | None = None
    """A condition on the log's final exception (matches on its own, whatever the lines say), or several,
    any one."""
    raised_in: list[FrameOwner] = []
    """A gate on every way of matching: the final exception was raised in one of these."""
    log_ends: LogEndsSpec | None = None
    """A condition on the log's last lines (a silent hang)."""
    errnos: list[Annotated[str, Field(pattern=r"^E[A-Z_]+$")]] = []
    """Errno names the reading found (``ENOSPC``); the entry matches when one is there."""
    libraries: list[Annotated[str, AfterValidator(_linear_pattern)]] = []
    """RE2 patterns on the library names the reading found in loader errors; any one."""
    facts: list[Annotated[str, AfterValidator(_known_fact)]] = []
    """Version-facts checks; the entry matches when one finds its fact broken."""
    examples: list[str] = Field(min_length=1)
    """Realistic messages (each becomes a test)."""
    priority: int = 0
    consequence: bool = False

    @field_validator("keys")
    @classmethod
    def _non_empty_keys(cls, keys: list[str]) -> list[str]:
        if any(not key for key in keys):
            raise ValueError("an empty key would match every line")
        return keys

    @model_validator(mode="after")
    def _some_way_to_match(self) -> SignatureSpec:
        if bool(self.keys) != bool(self.patterns):
            raise ValueError("keys and patterns go together: give both (per-line matching) or neither")
        if not (
            self.patterns or self.exception or self.facts or self.errnos or self.libraries or self.log_ends
        ):
            raise ValueError(
                "give patterns (with keys), an exception condition, errnos, libraries, facts or log_ends"
            )
        if self.exception == []:
            raise ValueError("an empty list of exception conditions matches nothing")
        return self

    def to_signature(self) -> Signature:
        patterns = [item if isinstance(item, str) else item.pattern for item in self.patterns]
        ruled = {
            item.pattern
            for item in self.patterns
            if isinstance(item, PatternSpec) and (item.priority is not None or item.raised_in)
        }
        rules = tuple(  # a pattern also written plain keeps the signature's own rank beside its rules
            PatternRule(item, None, ())
            if isinstance(item, str)
            else PatternRule(item.pattern, item.priority, tuple(item.raised_in))
            for item in self.patterns
            if (item if isinstance(item, str) else item.pattern) in ruled
        )
        conditions = [self.exception] if isinstance(self.exception, ExceptionSpec) else self.exception or []
        first = (
            conditions[0]
            if conditions
            and conditions[0].priority is None
            and not conditions[0].raised_in
            and not conditions[0].code
            else None
        )
        more = tuple(
            ExceptionCondition(
                tuple(c.types), tuple(c.message), c.priority, tuple(c.raised_in), tuple(c.code)
            )
            for c in conditions
            if c is not first
        )
        ends = self.log_ends
        return Signature(
            patterns=tuple(dict.fromkeys(patterns)),
            text=self.text.to_text(),
            examples=tuple(self.examples),
            consequence=self.consequence,
            keys=tuple(self.keys),
            priority=self.priority,
            exception_types=tuple(first.types) if first else (),
            exception_message=tuple(first.message) if first else (),
            facts=tuple(self.facts),
            errnos=tuple(self.errnos),
            libraries=tuple(self.libraries),
            pattern_rules=rules,
            exceptions=more,
            raised_in=tuple(self.raised_in),
            log_ends=tuple(ends.patterns) if ends else (),
            log_ends_after=tuple(ends.after) if ends else (),
            log_ends_lines=ends.lines if ends else 3,
            log_ends_priority=ends.priority if ends else None,
        )


class SignatureFamily(BaseModel):
    """A family file: its signatures."""

    model_config = ConfigDict(extra="forbid")

    signatures: list[SignatureSpec] = Field(min_length=1)


def load_family(path: Path) -> SignatureFamily:
    """Read and validate one family file (raises ``ConfigError`` with every problem, located)."""
    return load_model(path, SignatureFamily)


def register_family(path: Path, module: str) -> list[str]:
    """Register every signature of the family file at ``path`` on behalf of ``module``; return the ids."""
    family = load_family(path)
    for spec in family.signatures:
        SIGNATURES.register(spec.id, spec.to_signature(), module=module)
    return [spec.id for spec in family.signatures]
