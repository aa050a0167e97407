"""The ``paddle-workbench`` / ``pwb`` command line (docs/architecture.md, "CLI and JSON contracts").

The language must be known before click builds its help texts, so :func:`main` reads ``--lang`` from
``argv`` first (else the ``lang`` setting: ``PADDLE_WORKBENCH_LANG``, the user config file, the
locale), then builds the command tree. Nothing here imports Textual or Paddle at module level:
``paddle-workbench --help`` and the headless commands stay fast. A command line of global options
only (and at most ``tui``) starts the TUI without importing click (:mod:`workbench.cli.quick_start`).
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

    SIGINT, SIGTERM and SIGHUP stop every command the same way (:mod:`workbench.stop_signals`; ``train``
    and ``plan run`` put their own stop after the step on top for a job's life): the command unwinds as
    for Ctrl-C (a child's process group is killed), then one line says so ("stopped by SIGTERM") and the
    exit code is ``128 + signal`` — never click's "Aborted!", never a traceback.
    """
    from workbench.stop_signals import CommandStops

    stops = CommandStops(stopped_line=_stopped_line)
    stops.install()
    try:
        code = _main(argv)
    except KeyboardInterrupt as exc:  # a stop before or after click's own call
        code = _stopped(exc, own_process=argv is None)
    finally:
        stops.restore()
    if argv is None:
        # This process ends here, its files closed (what is registered at exit still runs). Python's
        # last garbage collection would walk every object the command made, Paddle's among them
        # (~0.6 s of CPU after a short `train`, while the caller waits): they are left to the exit.
        import gc

        gc.freeze()
    sys.exit(code)


def _stopped_line(signum: int | None) -> str:
    from workbench.stop_signals import signal_name

    return t("cli.stopped", signal=signal_name(signum))


def _stopped(exc: KeyboardInterrupt, *, own_process: bool) -> int:
    """A stop signal (or Ctrl-C) ended the command: end what it left running, say so; the exit code.

    ``own_process``: this process is the command (the console script, ``python -m workbench``), so every
    child still running is the command's — a pool's workers, say, that nothing else ends. ``main(argv)``
    called inside another program leaves that program's children alone.
    """
    import contextlib

    from workbench.stop_signals import end_children, exit_code

    signum = getattr(exc, "signum", None)  # a plain KeyboardInterrupt is Ctrl-C
    if own_process:
        end_children()
    with contextlib.suppress(Exception):  # a terminal gone with SIGHUP: nothing to tell
        print(_stopped_line(signum), file=sys.stderr, flush=True)
    return exit_code(signum)


def _main(argv: Sequence[str] | None) -> int:
    from workbench.permissions import private_umask

    private_umask()
    args = list(sys.argv[1:] if argv is None else argv)
    lang = _language_from_argv(args)
    set_language(lang if lang in ("en", "zh") else None)  # type: ignore[arg-type]
    from workbench.cli.output import install_pipe_guards
    from workbench.cli.quick_start import start_tui_quickly

    install_pipe_guards()
    started = start_tui_quickly(args)  # the TUI from global options only: click is not imported first
    code = _click_main(args) if started is None else started
    sys.stdout.flush()
    return code if isinstance(code, int) else 0


def _click_main(args: list[str]) -> object:
    """Read ``args`` with click and run the command; what the command returned, or the exit code of a
    usage error (reported) or of an abort."""
    import click

    from workbench.cli.output import report_usage_error
    from workbench.cli.root import build_cli

    try:
        code: object = build_cli().main(args=args, prog_name="paddle-workbench", standalone_mode=False)
    except click.ClickException as exc:
        code = report_usage_error(exc, json_mode="--json" in args)
    except click.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click's wrapping of a stop signal or Ctrl-C
            raise exc.__cause__ from None
        click.echo(t("cli.click.aborted"), err=True)
        code = 1
    return code
