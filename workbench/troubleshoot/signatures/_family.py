"""A family of ``diagnose`` signatures written as one YAML file in the folder, validated by pydantic.

A family file holds ``signatures:``, a list of entries::

    signatures:
      - id: libraries.cudnn            # family.name; catalog keys diagnose.<id>.title/.cause/.fix
        keys: ["cudnn"]                # literal substrings every matching line holds (the fast prefilter)
        patterns: ["(?i)cannot load cudnn shared library"]
        priority: 20                   # optional: specific above generic
        consequence: false             # optional: a symptom of another error
        examples:                      # realistic messages; a test expects this signature first for each
          - "Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion."

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

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from workbench.config.loader import load_model
from workbench.troubleshoot.signatures import SIGNATURES, Signature
from workbench.troubleshoot.signatures._linear import compile_linear


def _linear_pattern(pattern: str) -> str:
    """Validate one pattern on its own, so a refused one is located to its own line."""
    compile_linear(pattern)  # ValueError: a sentence naming the pattern and why RE2 cannot run it
    return pattern


class SignatureSpec(BaseModel):
    """One signature as written in a family file."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9_]+\.[a-z0-9_]+$")
    """``family.name``; the catalog keys are ``diagnose.<id>.title``, ``.cause`` and ``.fix``."""
    keys: list[str] = Field(min_length=1)
    """Literal substrings; a line is searched with the patterns only when it holds one of them."""
    patterns: list[Annotated[str, AfterValidator(_linear_pattern)]] = Field(min_length=1)
    """RE2 regular expressions searched per line (linear time); any one marks a match."""
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

    def to_signature(self) -> Signature:
        return Signature(
            patterns=tuple(self.patterns),
            title_key=f"diagnose.{self.id}.title",
            cause_key=f"diagnose.{self.id}.cause",
            fix_key=f"diagnose.{self.id}.fix",
            examples=tuple(self.examples),
            consequence=self.consequence,
            keys=tuple(self.keys),
            priority=self.priority,
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
