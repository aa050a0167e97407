"""``paddle-workbench plan validate | run | parity | export``: sharding plans from the command line.

Presentation only: :mod:`workbench.parallel` does the work. Exit codes: 0 good, 1 the run failed or
parity does not hold, 2 bad input (an invalid plan, a run that cannot be found) — every problem at once,
``file:line:col`` with its fix, never a traceback and never a half-started launch.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, emit_json, human_console
from workbench.cli.state import current_settings
from workbench.i18n import t
from workbench.parallel.estimate import estimate_text
from workbench.parallel.estimate import human_bytes as format_bytes

if TYPE_CHECKING:
    from workbench.parallel.validate import PlanReport
    from workbench.runner.job import Job
    from workbench.runner.signals import StopSignals

EXIT_CANCELLED = 130
INJECT_RANK_ENV = "PADDLE_WORKBENCH_INJECT_RANK"
"""Only this rank gets ``$PADDLE_WORKBENCH_INJECT``'s faults (testing a single hanging rank)."""


def _print_findings(console: Console, report: object) -> None:
    from workbench.parallel.validate import PlanReport

    assert isinstance(report, PlanReport)
    for finding in report.errors:
        console.print(
            Text.assemble(
                (f"{finding.file}:{finding.line}:{finding.col}: ", "bold"),
                (t("cli.error_prefix"), "bold red"),
                " ",
                finding.message,
                (f"\n    {t('parallel.cli.fix')}: {finding.fix}" if finding.fix else "", "dim"),
            )  # fmt: skip
        )
    for finding in report.warnings:
        console.print(
            f"{finding.file}:{finding.line}:{finding.col}: {finding.message}", markup=False, style="yellow"
        )


def _print_report(console: Console, report: object) -> None:
    from workbench.parallel.validate import PlanReport

    assert isinstance(report, PlanReport)
    if report.lowered is not None and report.plan is not None:
        mesh = report.plan.mesh
        console.print(
            t(
                "parallel.cli.mesh",
                shape=" × ".join(map(str, mesh.shape)),
                names=", ".join(mesh.dim_names),
                ranks=mesh.size,
            ),
            markup=False,
        )
        table = Table(box=None, pad_edge=False)
        for key in ("param", "shape", "placements", "local", "source"):
            table.add_column(t(f"parallel.cli.col.{key}"), no_wrap=key != "source")
        for row in report.lowered.rows:
            table.add_row(
                row.name, "×".join(map(str, row.shape)), ", ".join(map(str, row.placements)),
                "×".join(map(str, row.local_shape)), row.source or "-",
            )  # fmt: skip
        console.print(table)
    est = report.estimate
    if est is not None:
        console.print(estimate_text(est), markup=False)
        for comm in est.comm:
            console.print(
                f"    {comm.kind:<15} {comm.what:<36} {format_bytes(comm.bytes):>10} ×{comm.count}",
                markup=False,
            )
    _print_findings(console, report)


def _validate(console: Console, path: Path, nproc: int | None, overrides: tuple[str, ...]) -> object:
    """Check the plan; the model is built in a child process, and the first line says so when that
    imports the user's code (``task: custom``)."""
    from workbench.parallel.facts_cache import cache_folder
    from workbench.parallel.validate import check_plan

    report = check_plan(
        path,
        nproc=nproc,
        train_overrides=overrides,
        notify=lambda notice: console.print(notice, markup=False, style="bold"),
        facts_cache=cache_folder(current_settings().workspace),
    )
    if report.facts_reused:
        console.print(t("parallel.facts_reused"), markup=False, style="dim")
    return report


def _store_parity(doc: dict[str, Any], run_b: Path) -> None:
    """Keep the parity result in ``<RUN_B>/reports/parity-<time>.json`` (owner-only) for ``verify``."""
    import json
    import time

    from workbench.runs import atomic_write_text, make_private_dir

    with contextlib.suppress(OSError):
        folder = make_private_dir(run_b / "reports")
        name = f"parity-{time.strftime('%Y%m%d-%H%M%S')}.json"
        atomic_write_text(folder / name, json.dumps(doc, indent=2, default=str) + "\n")


def _follow(console: Console, signals: StopSignals, job: Job) -> None:
    """Wait for the job, telling the user when a stop signal asked it to stop; a second Ctrl-C aborts
    it (a launched job: every process killed at once; an in-process one: recorded ``cancelled`` now,
    the process exits without waiting for the step in progress)."""
    while not job.wait(0.2):
        if signals.notice_due:
            signals.notice_due = False
            if signals.first == signal.SIGINT:
                console.print(t("parallel.cli.stopping"), markup=False)
            else:
                name = signal.Signals(signals.first).name if signals.first else "?"
                console.print(t("training.cli.stopping_signal", signal=name), markup=False)
        if signals.abort_requested:
            abort = getattr(job, "abort", None)
            abandon = getattr(job, "abandon", None)
            if abort is not None:
                abort()
            elif abandon is not None:
                abandon()  # the step in progress may never end: record "cancelled" now
                signals.hard_exit = True
                return


def _detach_terminal(signals: StopSignals) -> None:
    """SIGHUP: the terminal is gone; the command's later lines go to the run's ``logs.txt`` (nowhere
    before the run exists). Streams redirected to a file or a pipe keep going there."""
    from workbench.cli.output import pipe_guard

    def sink(text: str) -> None:
        write_log = getattr(getattr(signals.job, "handle", None), "write_log", None)
        if write_log is not None:
            write_log(text)

    for name in ("stdout", "stderr"):
        guard = pipe_guard(name)
        if guard is not None and guard.terminal:
            guard.divert(sink)


def _hard_exit(code: int) -> None:
    """Exit without interpreter shutdown: an in-process run's thread may still be inside a Paddle kernel
    (ending the interpreter under it aborts the process); everything worth keeping is written."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def plan_command() -> click.Group:
    """The ``plan`` group: ``validate``, ``run``, ``parity``, ``export`` and ``merge`` (help text translated
    when built)."""

    @click.group("plan", help=t("cli.plan.help"))
    def plan() -> None:
        pass

    commands = (_validate_command(), _run_command(), _parity_command(), _export_command(), _merge_command())
    for command in commands:
        plan.add_command(command)
    return plan


def _validate_command() -> click.Command:
    """``plan validate PLAN_FILE``: the parameter table, the estimate and every finding."""

    @click.command("validate", help=t("parallel.cli.validate.help"))
    @click.argument("plan_file", type=click.Path(path_type=Path))
    @click.option(
        "--nproc", type=click.IntRange(1, 4096), default=None, help=t("parallel.cli.opt.nproc_check")
    )
    @click.option("-o", "overrides", multiple=True, metavar="KEY=VALUE", help=t("parallel.cli.opt.override"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def validate(
        ctx: click.Context, plan_file: Path, nproc: int | None, overrides: tuple[str, ...], json_mode: bool
    ) -> None:
        from workbench.parallel.validate import PlanReport

        console = human_console(json_mode)
        report = _validate(console, plan_file, nproc, overrides)
        assert isinstance(report, PlanReport)
        _print_report(console, report)
        console.print(
            t(
                "parallel.cli.valid" if report.ok else "parallel.cli.invalid",
                file=str(plan_file),
                count=len(report.errors),
            ),
            markup=False,
        )
        if json_mode:
            emit_json(report.to_dict())
        ctx.exit(EXIT_OK if report.ok else EXIT_BAD_INPUT)

    return validate


def _run_command() -> click.Command:
    """``plan run PLAN_FILE``: check, launch every rank, follow the run until it ends or is stopped."""

    @click.command("run", help=t("parallel.cli.run.help"))
    @click.argument("plan_file", type=click.Path(path_type=Path))
    @click.option("--nproc", type=click.IntRange(1, 4096), default=None, help=t("parallel.cli.opt.nproc"))
    @click.option("-o", "overrides", multiple=True, metavar="KEY=VALUE", help=t("parallel.cli.opt.override"))
    @click.option(
        "--watchdog", type=click.FloatRange(1, 86400), default=None, help=t("parallel.cli.opt.watchdog")
    )
    @click.option("--resume", default=None, metavar="latest|RUN", help=t("parallel.cli.opt.resume"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def run(
        ctx: click.Context, plan_file: Path, nproc: int | None, overrides: tuple[str, ...],
        watchdog: float | None, resume: str | None, json_mode: bool,
    ) -> None:  # fmt: skip
        from workbench.runner.signals import StoppedBeforeStart, StopSignals, exit_code
        from workbench.runner.tree import current_children, end_descendants

        children_before = current_children()
        console = human_console(json_mode)
        signals = StopSignals()
        signals.on_hangup = lambda: _detach_terminal(signals)
        signals.install()
        try:
            code = _run_plan(console, signals, plan_file, nproc, overrides, watchdog, json_mode, resume)
        except StoppedBeforeStart as exc:  # a stop signal before the job existed: nothing to stop
            if json_mode:
                emit_json({"run_dir": None, "status": "cancelled", "errors": []})
            code = exit_code(exc.signum)
        finally:
            signals.restore()
        # An in-process run's helpers end with it (a launched job's watcher ends its own tree).
        end_descendants(children_before)
        if signals.hard_exit:
            _hard_exit(code)
        ctx.exit(code)

    return run


def _run_plan(
    console: Console, signals: StopSignals, plan_file: Path, nproc: int | None,
    overrides: tuple[str, ...], watchdog: float | None, json_mode: bool, resume: str | None = None,
) -> int:  # fmt: skip
    """``plan run``'s work: check, refuse or start, follow, report; returns the exit code (see
    :mod:`workbench.runner.signals` for stops)."""
    from workbench.parallel import dist_checkpoint
    from workbench.parallel.launch import start_plan_run
    from workbench.parallel.validate import PlanReport
    from workbench.runner.signals import exit_code
    from workbench.runs import RunStore
    from workbench.training.plan import PrepareError, ResumePoint

    ranks = nproc if nproc is not None else _plan_ranks(plan_file)
    with signals.blocked():
        report = _validate(console, plan_file, ranks, overrides)
        signals.install()  # again: a Paddle import in the check replaced SIGTERM's at the C level
    assert isinstance(report, PlanReport)
    if not report.ok or ranks is None:
        _print_findings(console, report)
        console.print(t("parallel.cli.refused", file=str(plan_file), count=len(report.errors)), markup=False)
        if json_mode:
            emit_json({**report.to_dict(), "run_dir": None, "status": "refused"})
        return EXIT_BAD_INPUT
    _print_findings(console, report)  # the warnings of an accepted plan (what this run will not exercise)
    inject = os.environ.get(INJECT_RANK_ENV, "")
    store = RunStore(current_settings().workspace)
    point: ResumePoint | None = None
    if resume is not None:
        assert report.plan is not None
        try:
            point = dist_checkpoint.find_resume(resume, store, plan_file.stem)
        except PrepareError as exc:
            for message in exc.messages:
                console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"run_dir": None, "status": "refused", "errors": exc.messages})
            return EXIT_BAD_INPUT
        for skipped in point.skipped:
            console.print(skipped, markup=False, style="yellow")
        console.print(
            t("parallel.resume.from", checkpoint=str(point.checkpoint), step=point.step), markup=False
        )
        mesh = report.plan.mesh
        notice = dist_checkpoint.reshard_notice(point, ranks, mesh.shape, mesh.dim_names)
        if notice is not None:
            console.print(notice, markup=False, style="bold")
    with signals.starting_job():
        job = start_plan_run(
            report, store, nproc=ranks, train_overrides=overrides,
            inject_rank=int(inject) if inject.isdigit() else None, stall_s=watchdog, resume=point,
        )  # fmt: skip
    signals.started(job)
    console.print(t("parallel.cli.started", ranks=ranks, run=str(job.run_dir)), markup=False)
    _follow(console, signals, job)
    _report_run_end(console, signals, job, report, ranks, json_mode)
    status = job.status
    if status == "cancelled" and signals.first is not None:
        return exit_code(signals.first)
    return {"finished": EXIT_OK, "cancelled": EXIT_CANCELLED}.get(status, EXIT_FAILURES)


def _plan_ranks(plan_file: Path) -> int | None:
    """How many ranks the plan's mesh asks for (``None`` when the file does not load: the full check
    reports why, with its location)."""
    from workbench.parallel.validate import load_plan

    try:
        return load_plan(plan_file)[0].mesh.size
    except Exception:  # noqa: BLE001 - the full check reports it with its location
        return None


def _report_run_end(
    console: Console, signals: StopSignals, job: Job, report: PlanReport, ranks: int, json_mode: bool
) -> None:
    """How the run ended: its error, each rank's measured step time and memory beside the estimate, the
    run folder; with ``--json`` the same as one document."""
    from workbench.parallel.estimate import measured

    result = job.result
    status = job.status
    error = getattr(result, "error", "") or ""
    if error:
        console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", error))
    steps = job.metrics.last_step
    seen = measured(job.metrics)
    est = report.estimate
    for rank, row in sorted(seen.items()):
        console.print(
            t(
                "parallel.cli.measured",
                rank=rank,
                step_ms=f"{row['step_ms_median']:.0f}" if "step_ms_median" in row else "-",
                alloc=f"{row['host_alloc_mib']:.1f} MiB" if "host_alloc_mib" in row else "-",
                rss=f"{row['host_rss_mib']:.0f} MiB" if "host_rss_mib" in row else "-",
                estimate=format_bytes(est.total_bytes) if est is not None else "-",
            ),
            markup=False,
        )
    console.print(t("parallel.cli.ended", status=t(f"status.{status}"), ranks=len(steps)), markup=False)
    console.print(str(job.run_dir), markup=False)
    if json_mode:
        emit_json(
            {
                "run_dir": str(job.run_dir),
                "status": status,
                "ranks": ranks,
                "error": error or None,
                "rank": getattr(result, "rank", None),
                "last_step": {str(r): s for r, s in steps.items()},
                "estimate": est.to_dict() if est else {},
                "measured": {str(rank): row for rank, row in seen.items()},
                "stop_signal": signal.Signals(signals.first).name if signals.first else None,
            }
        )


def _print_refusal(console: Console, result: Any) -> None:
    """Two runs that cannot be compared: what differs, one line each (on the console, never a number)."""
    console.print(
        Text.assemble(
            (t("cli.error_prefix"), "bold red"),
            " ",
            t("parallel.cli.parity.refused", a=result.run_a.name, b=result.run_b.name),
        )
    )
    for difference in result.comparability.differences:
        console.print(Text(f"    {t(f'parallel.parity.what.{difference.what}')}: {difference.text()}"))
    if not result.comparability.by_fingerprint:
        console.print(Text(f"    {t('parallel.parity.fingerprint_missing')}", style="dim"))


def _print_parity(console: Console, result: Any) -> None:
    """The verdict in words first, then the numbers behind it and every check."""
    from workbench.parallel.parity import FLOOR_K

    def fmt(value: float | None) -> str:
        return "-" if value is None else f"{value:.3g}"

    style = "bold green" if result.ok else "bold red"
    console.print(Text(result.verdict_text(), style=style))
    tol = (
        t("parallel.cli.parity.noise_model", k=f"{FLOOR_K:g}")
        if result.tolerance is None
        else t("parallel.cli.parity.fixed_tolerance", tol=f"{result.tolerance:g}")
    )
    console.print(
        t(
            "parallel.cli.parity",
            steps=result.compared,
            abs=fmt(result.max_abs_diff),
            rel=fmt(result.max_rel_diff),
            tol=tol,
            left=str(result.leaves_floor_step) if result.leaves_floor_step is not None else t("common.none"),
            first=str(result.first_divergence_step)
            if result.first_divergence_step is not None
            else t("common.none"),
        ),  # fmt: skip
        markup=False,
    )
    if result.comparability is not None and not result.comparability.by_fingerprint:
        console.print(Text(t("parallel.parity.fingerprint_missing"), style="dim"))
    for check in result.checks:
        style = {"fail": "bold red", "warn": "yellow", "pass": "green"}.get(check.status, "")
        console.print(Text.assemble((f"[{check.status}] {check.id}: ", style), check.summary))
        if check.fix:
            console.print(Text(f"    {t('parallel.cli.fix')}: {check.fix}", style="dim"))


def _parity_command() -> click.Command:
    """``plan parity RUN_A RUN_B``: whether two runs' losses agree, step by step."""

    @click.command("parity", help=t("parallel.cli.parity.help"))
    @click.argument("run_a")
    @click.argument("run_b")
    @click.option(
        "--tolerance", type=click.FloatRange(0, 1e9), default=None, help=t("parallel.cli.opt.tolerance")
    )
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def parity(ctx: click.Context, run_a: str, run_b: str, tolerance: float | None, json_mode: bool) -> None:
        from workbench.parallel.parity import compare_runs, next_command
        from workbench.runs import RunStore

        console = human_console(json_mode)
        store = RunStore(current_settings().workspace)
        found = []
        for ref in (run_a, run_b):
            path = store.resolve(ref)
            if path is None:
                console.print(
                    Text.assemble((t("cli.error_prefix"), "bold red"), " ", store.miss_message(ref))
                )
            found.append(path)
        if None in found:
            if json_mode:
                emit_json(
                    {
                        "ok": False,
                        "max_abs_diff": None,
                        "max_rel_diff": None,
                        "first_divergence_step": None,
                        "checks": [],
                    }
                )
            ctx.exit(EXIT_BAD_INPUT)
        a, b = found
        assert a is not None and b is not None
        result = compare_runs(a, b, tolerance)
        doc = result.to_dict()
        doc["next"] = next_command(doc, store)
        if not result.comparable:
            _print_refusal(console, result)
            console.print(t("parallel.parity.next", command=doc["next"]), markup=False, style="dim")
            if json_mode:
                emit_json(doc)
            ctx.exit(EXIT_BAD_INPUT)
        _store_parity(doc, b)
        _print_parity(console, result)
        console.print(t("parallel.parity.next", command=doc["next"]), markup=False, style="dim")
        if json_mode:
            emit_json(doc)
        ctx.exit(EXIT_OK if result.ok else EXIT_FAILURES)

    return parity


def _export_command() -> click.Command:
    """``plan export PLAN_FILE``: the launch files for a cluster, written when the plan checks."""

    @click.command("export", help=t("parallel.cli.export.help"))
    @click.argument("plan_file", type=click.Path(path_type=Path))
    @click.option(
        "--output",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help=t("parallel.cli.opt.output"),
    )
    @click.option(
        "--nproc", type=click.IntRange(1, 4096), default=None, help=t("parallel.cli.opt.nproc_node")
    )
    @click.option("--nnodes", type=click.IntRange(1, 4096), default=None, help=t("parallel.cli.opt.nnodes"))
    @click.option("-o", "overrides", multiple=True, metavar="KEY=VALUE", help=t("parallel.cli.opt.override"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def export(
        ctx: click.Context, plan_file: Path, output: Path | None, nproc: int | None, nnodes: int | None,
        overrides: tuple[str, ...], json_mode: bool,
    ) -> None:  # fmt: skip
        from workbench.parallel.export import LayoutError, write_export
        from workbench.parallel.validate import PlanReport

        console = human_console(json_mode)
        report = _validate(console, plan_file, None, overrides)
        assert isinstance(report, PlanReport)
        if not report.ok:
            _print_findings(console, report)
            console.print(
                t("parallel.cli.invalid", file=str(plan_file), count=len(report.errors)), markup=False
            )
            if json_mode:
                emit_json({**report.to_dict(), "files": {}})
            ctx.exit(EXIT_BAD_INPUT)
        _print_findings(console, report)  # an accepted plan's notes: what a CPU run will not exercise
        out = output or Path(f"{plan_file.stem}-export")
        try:
            result = write_export(report, out, overrides=overrides, nproc_per_node=nproc, nnodes=nnodes)
        except LayoutError as exc:
            console.print(
                Text.assemble(
                    (t("cli.error_prefix"), "bold red"),
                    " ",
                    str(exc),
                    (f"\n    {t('parallel.cli.fix')}: {exc.fix}", "dim"),
                )  # fmt: skip
            )
            if json_mode:
                emit_json({"ok": False, "errors": [{"message": str(exc), "fix": exc.fix}], "files": {}})
            ctx.exit(EXIT_BAD_INPUT)
        except OSError as exc:
            console.print(t("parallel.cli.export_failed", path=str(out), error=str(exc)), markup=False)
            ctx.exit(EXIT_BAD_INPUT)
        for kind, path in result.files.items():
            console.print(f"{kind:<12} {path}", markup=False)
        for warning in result.warnings:
            console.print(t("parallel.export.warning", text=warning), markup=False, style="yellow")
        if json_mode:
            emit_json(
                {
                    "ok": True,
                    "files": {k: str(v) for k, v in result.files.items()},
                    "nnodes": result.layout.nnodes,
                    "nproc_per_node": result.layout.nproc_per_node,
                    "warnings": result.warnings,
                    "plan_warnings": [w.to_dict() for w in report.warnings],
                }
            )
        ctx.exit(EXIT_OK)

    return export


def _merge_command() -> click.Command:
    """``plan merge RUN``: a plan run's distributed checkpoint as a single-card checkpoint and export."""

    @click.command("merge", help=t("parallel.cli.merge.help"))
    @click.argument("run_ref", metavar="RUN")
    @click.option("--step", type=click.IntRange(0, None), default=None, help=t("parallel.cli.opt.step"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def merge(ctx: click.Context, run_ref: str, step: int | None, json_mode: bool) -> None:
        from workbench.parallel import dist_checkpoint
        from workbench.runs import RunStore
        from workbench.training.checkpoints import verify_checkpoint

        console = human_console(json_mode)
        store = RunStore(current_settings().workspace)

        def refuse(*messages: str) -> None:
            for message in messages:
                console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"ok": False, "errors": list(messages)})
            ctx.exit(EXIT_BAD_INPUT)

        run_dir = store.resolve(run_ref)
        if run_dir is None:
            refuse(store.miss_message(run_ref))
            return
        try:
            dist_checkpoint.plan_run_source(run_dir)
        except ValueError as exc:
            refuse(str(exc))
            return
        checkpoints = dist_checkpoint.store_of(run_dir)
        if step is None:
            info = checkpoints.latest_valid()
            if info is None:
                refuse(t("parallel.resume.none", run=str(run_dir)))
                return
        else:
            chosen = [c for c in checkpoints.committed() if c.step == step]
            if not chosen:
                steps = ", ".join(str(c.step) for c in checkpoints.committed()) or "-"
                refuse(t("parallel.merge.no_step", run=str(run_dir), step=step, steps=steps))
                return
            info = chosen[0]
            problems = verify_checkpoint(info.path)
            if problems:
                refuse(t("parallel.resume.not_dist", path=str(info.path)), *problems)
                return
        from workbench.training.runtime import import_paddle

        paddle = import_paddle()
        try:
            merged = dist_checkpoint.merge(run_dir, info, paddle)
        except (ValueError, OSError) as exc:
            refuse(t("parallel.merge.failed", run=str(run_dir), error=str(exc)))
            return
        console.print(
            t(
                "parallel.merge.done",
                step=info.step,
                run=str(run_dir),
                checkpoint=str(merged.checkpoint.path),
            ),
            markup=False,
        )
        if merged.export is not None:
            console.print(t("parallel.merge.exported", path=str(merged.export)), markup=False)
        else:
            console.print(
                t("parallel.merge.export_failed", error=merged.export_error), markup=False, style="yellow"
            )
        if json_mode:
            emit_json(
                {
                    "ok": True,
                    "run_dir": str(run_dir),
                    "step": info.step,
                    "checkpoint": str(merged.checkpoint.path),
                    "export": str(merged.export) if merged.export is not None else None,
                    "export_error": merged.export_error,
                }
            )
        ctx.exit(EXIT_OK)

    return merge
