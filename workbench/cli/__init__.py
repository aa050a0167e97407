"""The ``paddle-workbench`` / ``pwb`` command line (DESIGN.md §4).

The language must be known before click builds its help texts, so :func:`main` reads ``--lang`` from
``argv`` first, then builds the command tree. Nothing here imports Textual or Paddle at module level:
``paddle-workbench --help`` and the headless commands stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from workbench.i18n import set_language


def _language_from_argv(argv: Sequence[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    lang = _language_from_argv(args)
    set_language(lang if lang in ("en", "zh") else None)  # type: ignore[arg-type]
    from workbench.cli.root import build_cli

    build_cli().main(args=args, prog_name="paddle-workbench")
