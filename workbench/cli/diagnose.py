"""``paddle-workbench diagnose --log FILE|- | --run RUN [--json]``: known causes of an error, ranked.

Presentation only: :mod:`workbench.troubleshoot.diagnose` does the work. Exit codes: 1 when a known
cause matched (something is wrong and we know what), 0 when nothing matched ("no known cause" — never a
guess; when the log holds a traceback or a C++ error block, what it shows is read out: the exception,
the innermost frame of the user's or kit's code, the versions, the closest known cause marked "not sure"
and what to try; JSON ``"kind": "unrecognised"``), 2 for input that cannot be read (missing, binary,
empty, too large), always as a sentence. Similar public reports (real users' logs the input resembles,
each with the cause its thread established) are listed after the known causes under their own header,
JSON ``"similar"`` with ``"via": "similar"``; they never change the exit code.
A long input is diagnosed from its end (the engine's ``READ_CHARS``) with a notice that says so; the
time is linear in what is read, whatever one line holds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.settings import WorkbenchSettings

if TYPE_CHECKING:
    from workbench.troubleshoot.diagnose import Diagnosis


def print_diagnosis(console: Console, diagnosis: Diagnosis) -> None:
    """The ranked matches as text: title and id, cause, fix, quoted lines."""
    for notice in diagnosis.notices:
        console.print(notice, style="yellow", markup=False)
    console.print(
        t("diagnose.cli.read", lines=diagnosis.lines_read, sources=", ".join(diagnosis.sources)),
        style="dim",
        markup=False,
    )
    if not diagnosis.matches:
        if diagnosis.unrecognised is not None:
            print_unrecognised(console, diagnosis)
        else:
            console.print(t("diagnose.cli.none"), markup=False)
        print_similar(console, diagnosis)
        return
    console.print(t("diagnose.cli.found", count=len(diagnosis.matches)), markup=False)
    for rank, match in enumerate(diagnosis.matches, 1):
        console.print()
        head = Text.assemble((f"{rank}. ", "bold"), (match.title, "bold red" if rank == 1 else "bold"))
        head.append(f"  [{match.id}]", style="dim")
        if match.signature.consequence:
            head.append(" " + t("diagnose.cli.consequence"), style="dim")
        console.print(head)
        console.print("   " + t("diagnose.cli.cause", text=match.cause), markup=False)
        console.print("   " + t("diagnose.cli.fix", text=match.fix), markup=False, style="green")
        for evidence in match.evidence:
            console.print(
                Text.assemble("   ", (f"{evidence.source}:{evidence.line}", "cyan"), "  ", evidence.text)
            )
        if match.count > len(match.evidence):
            console.print(
                "   " + t("diagnose.cli.more", count=match.count - len(match.evidence)),
                style="dim",
                markup=False,
            )
    print_similar(console, diagnosis)


def print_similar(console: Console, diagnosis: Diagnosis) -> None:
    """Similar public reports after the signatures' answer, under their own header (they are leads to
    read, not recognised causes)."""
    from workbench.troubleshoot.diagnose import similar_lines

    lines = similar_lines(diagnosis.to_dict()) if diagnosis.similar else []
    if lines:
        console.print()
    for line in lines:
        console.print("   " + line if line.startswith("- ") else line, markup=False)


def print_unrecognised(console: Console, diagnosis: Diagnosis) -> None:
    """No known cause, but a failure: the exception, where it was raised, the versions, the closest
    known cause marked "not sure", and what to try."""
    from workbench.troubleshoot.diagnose import unrecognised_lines

    for line in unrecognised_lines(diagnosis.to_dict()):
        console.print("   " + line if line.startswith("- ") else line, markup=False)


def diagnose_command() -> click.Command:
    @click.command("diagnose", help=t("cli.diagnose.help"))
    @click.option("--log", "log", default=None, metavar="FILE|-", help=t("diagnose.cli.opt.log"))
    @click.option("--run", "run", default=None, metavar="RUN", help=t("diagnose.cli.opt.run"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def diagnose(
        ctx: click.Context, settings: WorkbenchSettings, log: str | None, run: str | None, json_mode: bool
    ) -> None:
        from workbench.troubleshoot.context import run_sources
        from workbench.troubleshoot.diagnose import (
            DiagnoseInputError,
            diagnose_texts,
            read_log_file,
            read_log_stream,
        )

        console = human_console(json_mode)

        def bad_input(message: str) -> None:
            console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"ok": False, "status": "invalid", "errors": [{"message": message}], "matches": []})
            ctx.exit(EXIT_BAD_INPUT)

        if log is None and run is None:
            if sys.stdin is None or sys.stdin.isatty():
                bad_input(t("diagnose.input.none"))
            log = "-"
        texts: list[tuple[str, str]] = []
        notices: list[str] = []
        try:
            if run is not None:
                from workbench.runs import RunStore

                store = RunStore(settings.workspace)
                run_dir = store.resolve(run)
                if run_dir is None:
                    bad_input(t("diagnose.input.no_run", ref=run, workspace=str(store.workspace)))
                    return
                found, more = run_sources(run_dir)
                if not found:
                    raise DiagnoseInputError(t("diagnose.input.run_no_logs", run=run_dir.name))
                texts.extend(found)
                notices.extend(more)
            if log is not None:
                if log == "-":
                    text, more = read_log_stream(sys.stdin.buffer, "-")
                else:
                    text, more = read_log_file(Path(log))
                texts.append((log, text))
                notices.extend(more)
        except DiagnoseInputError as exc:
            bad_input(str(exc))
            return
        diagnosis = diagnose_texts(texts, notices)
        if json_mode:
            emit_json(diagnosis.to_dict())
        else:
            print_diagnosis(console, diagnosis)
        ctx.exit(EXIT_FAILURES if diagnosis.found else EXIT_OK)

    return diagnose
