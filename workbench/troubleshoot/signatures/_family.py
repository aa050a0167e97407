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

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from workbench.config.loader import load_model
from workbench.troubleshoot.signatures import SIGNATURES, Signature, SignatureText, Wording
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


class ExceptionSpec(BaseModel):
    """A structural condition on the log's final exception: its type and/or its message."""

    model_config = ConfigDict(extra="forbid")

    types: list[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")]] = []
    """Exception type names, any one: a plain name is the type's last dotted part (``SSLError`` matches
    ``requests.exceptions.SSLError``), a dotted one the end of the type as printed
    (``requests.exceptions.ConnectionError`` but not the builtin ``ConnectionError``)."""
    message: list[Annotated[str, AfterValidator(_linear_pattern)]] = []
    """RE2 patterns searched in the exception's message and hint; any one."""

    @model_validator(mode="after")
    def _something(self) -> ExceptionSpec:
        if not self.types and not self.message:
            raise ValueError("give the exception's types, its message patterns, or both")
        return self


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
    patterns: list[Annotated[str, AfterValidator(_linear_pattern)]] = []
    """RE2 regular expressions searched per line (linear time); any one marks a match."""
    exception: ExceptionSpec | None = None
    """A condition on the log's final exception (matches on its own, whatever the lines say)."""
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
        if not (self.patterns or self.exception or self.facts or self.errnos or self.libraries):
            raise ValueError("give patterns (with keys), an exception condition, errnos, libraries or facts")
        return self

    def to_signature(self) -> Signature:
        return Signature(
            patterns=tuple(self.patterns),
            text=self.text.to_text(),
            examples=tuple(self.examples),
            consequence=self.consequence,
            keys=tuple(self.keys),
            priority=self.priority,
            exception_types=tuple(self.exception.types) if self.exception else (),
            exception_message=tuple(self.exception.message) if self.exception else (),
            facts=tuple(self.facts),
            errnos=tuple(self.errnos),
            libraries=tuple(self.libraries),
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
