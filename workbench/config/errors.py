"""One problem in one file, located to the character, and the exception that carries all of them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class ConfigIssue:
    """``file:line:col: message (hint)`` — ``line``/``col`` are 1-based; 0 means "whole file"."""

    file: str
    line: int
    col: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        return f"{where}: {self.message}" + (f" ({self.hint})" if self.hint else "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class ConfigError(Exception):
    """Every problem found in a configuration, reported together (never just the first)."""

    def __init__(self, issues: list[ConfigIssue]) -> None:
        super().__init__("\n".join(str(i) for i in issues))
        self.issues = issues
