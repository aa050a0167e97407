"""``paddle-workbench attach PATH [--format NAME] [--json]``: follow a kit's training log as a linked run.

The log (PaddleOCR, PaddleClas, PaddleDetection, PaddleX…, formats in :mod:`workbench.attach.parsers`)
is linked into the workspace, never copied. ``--json`` links it and prints one document (run folder,
format, status, last step, metric names) without following; in a terminal the monitor opens on it; on a
pipe each new step is one line until the log ends (exit 1 when it ends in a traceback).
"""

from __future__ import annotations

import time
from pathlib import Path

import click
from rich.console import Console

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, emit_json, human_console, is_headless
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.settings import WorkbenchSettings

FOLLOW_POLL_S = 1.0


def attach_command() -> click.Command:
    @click.command("attach", help=t("cli.attach.help"))
    @click.argument("path", type=click.Path(path_type=Path))
    @click.option("--format", "fmt", default=None, metavar="NAME", help=t("cli.attach.format"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def attach(
        ctx: click.Context, settings: WorkbenchSettings, path: Path, fmt: str | None, json_mode: bool
    ) -> None:
        from workbench.attach.link import AttachError, link_log, refresh_state, scan
        from workbench.runs import RunStore

        console = human_console(json_mode)
        store = RunStore(settings.workspace)
        try:
            run_dir = link_log(store, path, fmt)
        except (AttachError, OSError) as exc:
            console.print(f"{t('cli.error_prefix')} {exc}", markup=False)
            if json_mode:
                emit_json({"ok": False, "errors": [{"message": str(exc), "path": str(path)}]})
            ctx.exit(EXIT_BAD_INPUT)
        if json_mode:
            report = scan(run_dir)
            refresh_state(run_dir)
            emit_json(
                {
                    "run_id": run_dir.name,
                    "run_dir": str(run_dir),
                    "source": str(report.source),
                    "format": report.format,
                    "status": report.status,
                    "last_step": report.last_step,
                    "metrics": report.metrics,
                }
            )
            ctx.exit(EXIT_OK)
        console.print(t("cli.attach.linked", run=run_dir.name, path=str(path)), markup=False)
        if not is_headless(settings.plain):
            from workbench.screens.launch import run_tui

            ctx.exit(run_tui(settings, open_run=run_dir.name))
        ctx.exit(_follow_lines(console, run_dir))

    return attach


LINE_METRICS = ("loss", "lr", "samples_per_s", "data_wait_ms", "compute_ms")


def _follow_lines(out: Console, run_dir: Path) -> int:
    """Line mode: one line per new step until the log ends. Ctrl-C, SIGTERM or SIGHUP stop following
    (the kit runs on) like any command: one line, exit ``128 + signal`` (:mod:`workbench.stop_signals`)."""
    from workbench.attach.run import LinkedRun
    from workbench.formatting import format_value

    job = LinkedRun(run_dir, follow=False)
    shown: int | None = None
    while True:
        job.poll()
        last = job.follower.last_step
        if last is not None and last != shown:
            shown = last
            latest = job.metrics.latest()
            values = "  ".join(f"{k}={format_value(latest[k])}" for k in LINE_METRICS if k in latest)
            out.print(t("cli.attach.step", step=last, values=values), markup=False)
        if job.done:
            break
        time.sleep(FOLLOW_POLL_S)
    out.print(t("cli.attach.ended", run=run_dir.name, status=t(f"status.{job.status}")), markup=False)
    return EXIT_FAILURES if job.status == "failed" else EXIT_OK
