"""The ``paddle-workbench`` / ``pwb`` command line (docs/architecture.md, "CLI and JSON contracts").

The language must be known before click builds its help texts, so :func:`main` reads ``--lang`` from
``argv`` first (else the ``lang`` setting: ``PADDLE_WORKBENCH_LANG``, the user config file, the
locale), then builds the command tree. Nothing here imports Textual or Paddle at module level:
``paddle-workbench --help`` and the headless commands stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from workbench.i18n import set_language, t


def _language_from_argv(argv: Sequence[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point.

    Output goes through :func:`workbench.cli.output.install_pipe_guards` (a reader that closes the pipe
    early never changes the exit code), and a usage error under ``--json`` is a JSON document too. The
    umask is ``0o077`` from here on (:func:`workbench.permissions.private_umask`): whatever this command,
    the TUI it may start, Paddle or a child process writes is its owner's only.
    """
    from workbench.permissions import private_umask

    private_umask()
    args = list(sys.argv[1:] if argv is None else argv)
    lang = _language_from_argv(args)
    set_language(lang if lang in ("en", "zh") else None)  # type: ignore[arg-type]
    import click

    from workbench.cli.output import install_pipe_guards, report_usage_error
    from workbench.cli.root import build_cli

    install_pipe_guards()
    try:
        code = build_cli().main(args=args, prog_name="paddle-workbench", standalone_mode=False)
    except click.ClickException as exc:
        code = report_usage_error(exc, json_mode="--json" in args)
    except click.Abort:
        click.echo(t("cli.click.aborted"), err=True)
        code = 1
    sys.stdout.flush()
    sys.exit(code if isinstance(code, int) else 0)
