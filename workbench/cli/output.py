"""Human and machine output for every command: rich text for people, one JSON document for tools.

With ``--json``, stdout carries exactly one JSON document and human text goes to stderr (DESIGN.md §4).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from workbench.config.errors import ConfigIssue
from workbench.i18n import t

EXIT_OK = 0
EXIT_FAILURES = 1
EXIT_BAD_INPUT = 2


def human_console(json_mode: bool = False) -> Console:
    """Where human text goes: stderr when stdout is reserved for JSON."""
    return Console(
        file=sys.stderr if json_mode else sys.stdout,
        no_color=bool(os.environ.get("NO_COLOR")),
        highlight=False,
        soft_wrap=True,
    )


def emit_json(document: Any) -> None:
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n")
    sys.stdout.flush()


def print_issues(console: Console, issues: list[ConfigIssue]) -> None:
    """One line per problem: ``file:line:col: message (hint)``."""
    for issue in issues:
        # User text (paths, values) is never parsed as Rich markup: "[red]" in a path stays literal.
        console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", str(issue)), highlight=False)


def is_headless(plain: bool) -> bool:
    """Line-mode output: ``--plain``, a non-TTY stdout, or ``TERM=dumb`` (never Textual then)."""
    return plain or not sys.stdout.isatty() or os.environ.get("TERM", "") == "dumb"
