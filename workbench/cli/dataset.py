"""``paddle-workbench dataset check DIR``: the dataset linter's report for people and for tools.

Presentation only: :func:`workbench.datasets.lint.lint_dataset` does the work. Errors are grouped by
code with their count and first locations (``file:line: problem — fix``); ``--json`` prints the whole
report as one document. Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 bad input: an
output folder that cannot be used (checked before the dataset is read), or input the linter refused
(a list over ``--max-list-mb``, an over-long line, a NUL byte, an image over the pixel limit) — every
problem is still reported in the same run, and ``--fix`` / ``--sample`` write nothing then.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_FAILURES, EXIT_OK, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.datasets.layouts import MAX_LIST_BYTES, MAX_TEXT_LENGTH
from workbench.i18n import t
from workbench.settings import WorkbenchSettings


def print_report(console: Console, report: Any, first: int = 3) -> None:
    """Errors then warnings, grouped by code: ``code ×count`` and the first ``first`` locations."""
    for which, style in (("errors", "bold red"), ("warnings", "yellow")):
        groups = report.groups(which, first)
        if not groups:
            continue
        console.print(Text(t(f"cli.dataset.{which}"), style="bold"))
        for code, count, problems in groups:
            console.print(Text(t("cli.dataset.group", code=code, count=count), style=style))
            for problem in problems:
                console.print(Text(f"  {problem}"))
            if count > len(problems):
                console.print(Text("  " + t("cli.dataset.more", count=count - len(problems)), style="dim"))
    histogram = report.stats.get("histogram")
    if histogram:
        top = max(histogram.values()) or 1
        console.print(Text(t("cli.dataset.histogram"), style="bold"))
        width = max(len(name) for name in histogram)
        for name, count in list(histogram.items())[:40]:
            bar = "█" * max(0, round(30 * count / top))
            console.print(Text(f"  {name:<{width}} {count:>7} {bar}"))


def summary(report: Any) -> str:
    stats = report.stats
    values = {
        "samples": sum(stats.get("samples", {}).values()),
        "images": stats.get("images_checked", stats.get("images_decoded", 0)),
        "decoded": stats.get("images_decoded", 0),
        "seconds": stats.get("seconds", 0),
        "warnings": report.warning_count,
    }
    if report.ok:
        return t("cli.dataset.summary_ok", **values)
    return t("cli.dataset.summary_fail", errors=report.error_count, **values)


@contextmanager
def _progress_bar(console: Console, plain: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar for the linter while it runs, on a terminal only: none when the output is piped
    or redirected, ``TERM=dumb`` or ``--plain`` (a log file gets the report, not bar redraws)."""
    file: Any = console.file
    if plain or os.environ.get("TERM", "") == "dumb" or not (hasattr(file, "isatty") and file.isatty()):
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(file=file, no_color=console.no_color), transient=True,
    ) as bar:  # fmt: skip
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(t(f"cli.dataset.progress.{stage}"), total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield progress


def _print_error(console: Console, message: str) -> None:
    """A refusal: on stderr (``console`` is the stderr one), so stdout keeps only the report."""
    console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))


def _output_message(exc: Any) -> str:
    """Why an output folder (:class:`~workbench.datasets.fix.OutputExists`) cannot be used, with the fix."""
    if exc.reason in ("not_empty", "inside"):
        return t("cli.dataset.out_exists", path=str(exc))
    if exc.reason == "not_dir":
        return t("cli.dataset.out_not_dir", path=str(exc))
    return t("cli.dataset.out_unusable", path=str(exc), error=exc.error)


def dataset_group() -> click.Group:
    @click.group("dataset", help=t("cli.dataset.help"))
    def dataset() -> None:
        pass

    @dataset.command("check", help=t("cli.dataset.check.help"))
    @click.argument("directory", type=click.Path(path_type=Path))
    @click.option(
        "--format", "fmt", type=click.Choice(["cls", "rec", "det", "coco", "auto"]), default="auto",
        help=t("cli.dataset.opt.format"),
    )  # fmt: skip
    @click.option(
        "--fix", "fix_out", type=click.Path(path_type=Path), default=None, help=t("cli.dataset.opt.fix")
    )
    @click.option(
        "--sample", "sample", nargs=2, type=(click.IntRange(1, 10_000_000), click.Path(path_type=Path)),
        default=None, metavar="N OUT", help=t("cli.dataset.opt.sample"),
    )  # fmt: skip
    @click.option("--output", type=click.Path(path_type=Path), default=None, help=t("cli.dataset.opt.output"))
    @click.option("--workers", type=click.IntRange(1, 256), default=None, help=t("cli.dataset.opt.workers"))
    @click.option("--quick", "level", flag_value="quick", help=t("cli.dataset.opt.quick"))
    @click.option("--full", "level", flag_value="full", help=t("cli.dataset.opt.full"))
    @click.option(
        "--max-text-length", "max_text_length", type=click.IntRange(1, 100_000), default=MAX_TEXT_LENGTH,
        show_default=True, help=t("cli.dataset.opt.max_text_length"),
    )  # fmt: skip
    @click.option(
        "--max-list-mb", "max_list_mb", type=click.IntRange(1, 4096), default=MAX_LIST_BYTES // 2**20,
        show_default=True, help=t("cli.dataset.opt.max_list_mb"),
    )  # fmt: skip
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def check(
        ctx: click.Context,
        settings: WorkbenchSettings,
        directory: Path,
        fmt: str,
        fix_out: Path | None,
        sample: tuple[int, Path] | None,
        output: Path | None,
        workers: int | None,
        level: str | None,
        max_text_length: int,
        max_list_mb: int,
        json_mode: bool,
    ) -> None:
        from workbench.datasets.coco import CocoReport, fix_coco, sample_coco
        from workbench.datasets.fix import (
            OutputExists,
            fix_dataset,
            not_a_folder,
            output_problem,
            sample_dataset,
        )
        from workbench.datasets.layouts import DatasetError
        from workbench.datasets.lint import lint_dataset, write_paddlex_result

        console, stderr = human_console(json_mode), human_console(True)
        limit = max_list_mb * 2**20
        outputs = [("--fix", fix_out), ("--sample", sample[1] if sample else None)]
        unusable = [
            (option, OutputExists(out, reason))
            for option, out in outputs
            if out is not None and (reason := output_problem(directory, out)) is not None
        ]
        if output is not None and not_a_folder(output):
            unusable.append(("--output", OutputExists(output, "not_dir")))
        if unusable:  # bad arguments: said before the dataset is read, all at once
            for option, exc in unusable:
                _print_error(stderr, f"{option} {_output_message(exc)}")
            if json_mode:
                emit_json({"ok": False, "refused": True, "usage_errors": [
                    {"option": option, "path": str(exc), "reason": exc.reason, "message": _output_message(exc)}
                    for option, exc in unusable
                ]})  # fmt: skip
            ctx.exit(EXIT_BAD_INPUT)
        with _progress_bar(console, settings.plain) as progress:
            report = lint_dataset(
                directory,
                fmt,
                workers=workers,
                progress=progress,
                max_list_bytes=limit,
                max_text_length=max_text_length,
                image_check=level or "standard",
            )
        if report.guessed:
            console.print(t("cli.dataset.guessed", format=report.format), markup=False)
        print_report(console, report)
        doc = report.to_dict()
        if directory.is_dir():
            from workbench.verify.evidence import store_dataset_report

            store_dataset_report(report, settings.workspace)  # the path dashboard's dataset mark
            out_dir = output or settings.workspace / "dataset_checks" / (
                directory.resolve().name or "dataset"
            )
            try:
                result = write_paddlex_result(report, out_dir)
            except OSError as exc:  # e.g. a folder we may not write to
                _print_error(stderr, _output_message(OutputExists(out_dir, "unusable", str(exc))))
                if json_mode:
                    emit_json(doc)
                ctx.exit(EXIT_BAD_INPUT)
            doc["paddlex_result"] = str(result)
            console.print(t("cli.dataset.result", path=str(result)), markup=False)
        if report.refused and (fix_out is not None or sample is not None):
            _print_error(stderr, t("cli.dataset.not_written"))
        try:
            if fix_out is not None and directory.is_dir() and not report.refused:
                if report.format == "coco":
                    fixes = fix_coco(directory, fix_out, max_list_bytes=limit)
                else:
                    fixes = fix_dataset(directory, report.format, fix_out, max_list_bytes=limit)
                text = ", ".join(f"{code} {count}" for code, count in sorted(fixes.items())) or "-"
                console.print(t("cli.dataset.fixed", path=str(fix_out), fixes=text), markup=False)
                doc["fixed"] = {"path": str(fix_out), "fixes": fixes}
            if sample is not None and directory.is_dir() and not report.refused:
                counts = (
                    sample_coco(report, sample[0], sample[1], max_list_bytes=limit)
                    if isinstance(report, CocoReport)
                    else sample_dataset(
                        directory,
                        report.format,
                        sample[0],
                        sample[1],
                        max_list_bytes=limit,
                        passing=report.passing,
                    )
                )
                console.print(
                    t("cli.dataset.sampled", path=str(sample[1]), train=counts["train"], val=counts["val"]),
                    markup=False,
                )
                doc["sample"] = {"path": str(sample[1]), **counts}
        except (OutputExists, DatasetError) as exc:
            if isinstance(exc, OutputExists):
                _print_error(stderr, _output_message(exc))
            else:
                for problem in exc.problems:
                    _print_error(stderr, str(problem))
            if json_mode:
                emit_json(doc)
            ctx.exit(EXIT_BAD_INPUT)
        console.print(Text(summary(report), style="green" if report.ok else "bold red"))
        if report.refused:
            stderr.print(Text(t("cli.dataset.refused"), style="bold red"))
        if json_mode:
            emit_json(doc)
        ctx.exit(EXIT_BAD_INPUT if report.refused else EXIT_OK if report.ok else EXIT_FAILURES)

    return dataset
